"""A real ``redis-server`` for the tests: Debian's, on a free loopback port, AOF on, in a scratch folder.

``make test`` installs Debian's ``redis-server`` like Chromium. Without it the Redis tests are skipped,
unless ``RAISUS_REQUIRE_REDIS=1`` (CI sets it): then they fail, so CI never passes by running nothing.
The server is killed (``SIGKILL`` when a test asks for a crash) and can be started again on the same
port and folder: its append-only file is what survives.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from .wire import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def require_redis() -> None:
    """Skip (or fail under ``RAISUS_REQUIRE_REDIS=1``) when Debian's redis-server is missing."""
    if not Path(REDIS_SERVER).exists():
        message = f"redis-server is required but {REDIS_SERVER} does not exist (apt-get install redis-server)"
        if os.environ.get("RAISUS_REQUIRE_REDIS") == "1":
            pytest.fail(message)
        pytest.skip(message)


class RedisServer:
    """One ``redis-server`` process with ``appendonly yes`` and ``appendfsync always`` in ``folder``."""

    def __init__(self, folder: Path, port: int | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.log = self.folder / "redis.log"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20) -> "RedisServer":
        cmd = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
               "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--daemonize", "no",
               "--logfile", str(self.log), "--protected-mode", "yes"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited early: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not come up")

    def kill(self) -> None:
        """``kill -9``: what was not on disk is lost (with ``appendfsync always``, nothing that returned)."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def flush(self) -> None:
        import redis
        redis.Redis.from_url(self.url).flushall()
