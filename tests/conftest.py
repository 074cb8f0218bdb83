"""Fixtures every test folder may use: a real ``redis-server`` (see :mod:`tests.redis_server`)."""

from __future__ import annotations

import os

import pytest

from tests.redis_server import RedisServer, require_redis

# The tests choose their own stores: a RAISUS_STORE of the shell running them must not reach them.
os.environ.pop("RAISUS_STORE", None)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """One real redis-server (AOF on, ``appendfsync always``) for the whole run, removed after."""
    require_redis()
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server):
    """The server's address, its data flushed before the test."""
    if redis_server.proc.poll() is not None:  # a test killed it: bring it back
        redis_server.start()
    redis_server.flush()
    return redis_server.url
