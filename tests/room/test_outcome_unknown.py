"""Issue 21 (faults and abuse): a store answer lost after the command was sent is "not known yet", never
"nothing was saved" -- and the room's log then says which it was.

Against a real ``redis-server``: a network stall (a TCP relay between the store and Redis that holds
Redis's answers, so the append lands in time and its reply is lost), and a paused Redis (SIGSTOP,
then SIGCONT: the append runs late and refuses itself by its deadline).
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

import pytest

from raisus_panel.i18n import translate
from raisus_panel.room import OutcomeUnknown
from raisus_panel.room.redis_store import RedisStore, unavailable

from .conftest import Table
from .test_stores import eventually


class StallingRelay:
    """A TCP relay to Redis on a free loopback port; while :attr:`stalled`, Redis's answers are held back.

    What a network stall does: requests still reach Redis (and run), replies wait on the way back.
    """

    def __init__(self, port: int):
        self.target = port
        self.stalled = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._armed: tuple[bytes, float] | None = None
        threading.Thread(target=self._accept, daemon=True).start()

    def stall_after(self, request: bytes, seconds: float) -> None:
        """Hold every answer for ``seconds`` from the first request containing ``request`` (a script's
        SHA, say): a stall met by that one call, after the calls before it were answered."""
        self._armed = (request, seconds)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            self._sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        try:
            while data := source.recv(65536):
                armed = self._armed
                if not answers and armed is not None and armed[0] in data:
                    self._armed = None
                    self.stalled.set()
                    threading.Timer(armed[1], self.stalled.clear).start()
                while answers and self.stalled.is_set():
                    time.sleep(0.01)
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.close()
            except OSError:
                pass

    def close(self) -> None:
        self._listener.close()
        for s in self._sockets:
            try:
                s.close()
            except OSError:
                pass


@pytest.fixture
def relay(redis_server, redis_url):
    made = StallingRelay(redis_server.port)
    yield made
    made.close()


def settled(room, unknown) -> list:
    answers: list = []
    room.settle(unknown, answers.append)
    return answers


def test_a_reply_lost_after_a_commit_in_time_is_not_known_yet_then_saved(relay, redis_url):
    store, truth = RedisStore(relay.url, timeout=1.0), RedisStore(redis_url)
    try:
        t = Table(store=store)
        before = t.room.seq
        relay.stalled.set()
        with pytest.raises(OutcomeUnknown) as caught:
            t.char("Viking", t.alice, Viking=4)
        unknown = caught.value
        # what the page is told: not "nothing was saved", in either language
        for lang in ("en", "ko"):
            told = translate(unknown, lang)
            assert told != translate(unavailable(), lang)
        assert "not known yet" in translate(unknown, "en") and "Nothing was saved" not in translate(unknown, "en")
        assert truth.last_seq(t.room.room_id) == before + 1  # it did land, in time
        assert t.room.seq == before  # and nothing is applied here on a guess
        answers = settled(t.room, unknown)
        time.sleep(1.5)
        assert answers == []  # while Redis's answers are held, it stays "not known yet"
        relay.stalled.clear()
        assert eventually(lambda: answers, timeout=20) == [True]
        assert t.room.seq == before + 1 and [c.name for c in t.room.characters] == ["Viking"]
        assert t.room.log[-1]["cmd_id"] == unknown.command_id
    finally:
        relay.stalled.clear()
        store.close()
        truth.close()


def test_an_append_run_late_by_a_paused_redis_is_learned_as_not_saved(redis_server, redis_url):
    store = RedisStore(redis_url, timeout=1.0)
    try:
        t = Table(store=store)
        before = t.room.seq
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        try:
            with pytest.raises(OutcomeUnknown) as caught:
                t.char("Viking", t.alice, Viking=4)
            answers = settled(t.room, caught.value)
            time.sleep(1.0)
            assert answers == []
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)
        assert eventually(lambda: answers, timeout=20) == [False]
        assert store.last_seq(t.room.room_id) == before == t.room.seq
        t.char("Viking", t.alice, Viking=4)  # given again: made once
        added = store.read(t.room.room_id, before)
        assert len(added) == 1 and added[0]["cmd_id"] != caught.value.command_id
    finally:
        store.close()
