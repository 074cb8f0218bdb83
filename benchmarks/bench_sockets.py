"""Benchmark: what websockets opened by anyone, with no link, cost a served dashboard.

A real ``raisus serve`` process on a temporary SQLite file (one room made in it first, for a real
room page), with ``--use-xheaders`` so the sockets and the other pages come from two addresses
(``X-Real-IP``, as behind the deployment's proxy). This process opens ``N`` websockets to ``/dashboard`` with no ``?token=`` -- as anyone
on the internet can, since a Bokeh session token without a signature is any random id -- each
reading only the server's ACK and then nothing more (half-open: the socket stays, nobody reads or
writes). It reports:

- the server's resident memory (``VmRSS``) before, while the N sockets were opened (its peak), 2 s
  after, and after they closed and the server had ``--linger`` seconds to let their sessions go;
- how long "other pages" take meanwhile: a room page (the spectator link: websocket opened,
  document pulled, ``document_ready`` said, as ``tests/wire.py`` does for a browser) and the lobby's
  HTML (a plain GET), ``--loads`` of each, median and p95;
- how many of the N sockets the server kept open (the others it refused or closed).

Run from the repository root::

    .venv/bin/python benchmarks/bench_sockets.py                  # N = 300, as the issue's test
    .venv/bin/python benchmarks/bench_sockets.py --sockets 100 --loads 10 --linger 45

Prints a table and exits 0 (a bound not met is reported, not raised).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_room import free_port, percentile  # noqa: E402  (the path is set above)
from benchmarks.bench_scale_out import vm_rss  # noqa: E402
from tests.wire import WireSession  # noqa: E402

#: The addresses the server sees (``--use-xheaders``, ``X-Real-IP``): the sockets' one, and the other pages'.
ATTACKER, PLAYER = "192.0.2.1", "192.0.2.2"


class Served:
    """One ``raisus serve`` on a loopback port, in its own process group, on ``db``."""

    def __init__(self, db: Path, folder: Path, extra: list[str]):
        self.port = free_port()
        self.log = folder / "serve.log"
        env = dict(os.environ)
        env.pop("RAISUS_STORE", None)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        cmd = [sys.executable, "-m", "raisus_panel.cli", "serve", "--db", str(db), "--address", "127.0.0.1",
               "--port", str(self.port), "--allow-websocket-origin", f"127.0.0.1:{self.port}", "--use-xheaders",
               *extra]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/dashboard/ws"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/dashboard"

    @property
    def rss(self) -> int:
        return vm_rss(self.proc.pid)

    def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"raisus serve exited:\n{self.log.read_text(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(self.http_url, timeout=30) as reply:
                    reply.read()
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("raisus serve did not answer")

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class HalfOpen:
    """A websocket with no link: after the server's ACK it sends nothing and asks for nothing.

    (Its client library still answers pings and notices a close, as any socket left open would.)
    """

    def __init__(self):
        self.ws = None
        self.refused = False
        self.closed = False
        self._task = None

    async def open(self, ws_url: str) -> None:
        from bokeh.util.token import generate_jwt_token, generate_session_id
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        try:
            self.ws = await websocket_connect(HTTPRequest(ws_url, headers={"X-Real-IP": ATTACKER}),
                                              subprotocols=["bokeh", generate_jwt_token(generate_session_id())])
            first = await asyncio.wait_for(self.ws.read_message(), 30)
            self.refused = self.closed = first is None
        except Exception:
            self.refused = self.closed = True
        if not self.closed:
            self._task = asyncio.ensure_future(self._until_closed())

    async def _until_closed(self) -> None:
        while await self.ws.read_message() is not None:
            pass
        self.closed = True

    @property
    def open_now(self) -> bool:
        return not self.closed

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


async def page_loads(served: Served, spectator: str, n: int) -> tuple[list[float], list[float]]:
    """``n`` room pages (websocket, pull, ready) and ``n`` lobby GETs, one after the other: seconds each."""
    rooms, lobbies = [], []
    loop = asyncio.get_running_loop()
    for i in range(n):
        session = WireSession(i)
        start = time.monotonic()
        try:
            await asyncio.wait_for(session.open(served.ws_url, spectator, headers={"X-Real-IP": PLAYER}), 60)
            rooms.append(time.monotonic() - start)
        except Exception:
            rooms.append(float("inf"))
        session.close()
        start = time.monotonic()

        def get():
            request = urllib.request.Request(served.http_url, headers={"X-Real-IP": PLAYER})
            with urllib.request.urlopen(request, timeout=60) as reply:
                reply.read()
        try:
            await loop.run_in_executor(None, get)
            lobbies.append(time.monotonic() - start)
        except OSError:
            lobbies.append(float("inf"))
    return rooms, lobbies


def ms(values: list[float], q: float) -> str:
    value = percentile(values, q)
    return "refused" if value == float("inf") else f"{value * 1000:.0f} ms"


async def run(args) -> None:
    from raisus_panel.room import RoomRegistry
    from raisus_panel.room.sqlite_store import SQLiteStore

    with tempfile.TemporaryDirectory(prefix="raisus-sockets-") as tmp:
        folder = Path(tmp)
        db = folder / "rooms.sqlite"
        store = SQLiteStore(db)
        _, links = RoomRegistry(store).create_room("Sockets", gm_name="GM")
        store.close()
        served = Served(db, folder, args.serve_option or [])
        try:
            served.wait_ready()
            await page_loads(served, links.spectator, 3)  # warm: imports and templates load now
            await asyncio.sleep(2)
            rows = [("before", served.rss, *await page_loads(served, links.spectator, args.loads), "")]
            sockets = [HalfOpen() for _ in range(args.sockets)]
            start, peak = time.monotonic(), served.rss
            for i in range(0, len(sockets), 20):  # in bursts of 20, as a script would
                await asyncio.gather(*(s.open(served.ws_url) for s in sockets[i:i + 20]))
                peak = max(peak, served.rss)
            opened = time.monotonic() - start
            await asyncio.sleep(2)
            kept = sum(s.open_now for s in sockets)
            rows.append((f"{args.sockets} open", served.rss, *await page_loads(served, links.spectator, args.loads),
                         f"{kept} kept open ({opened:.0f} s to open them; peak {peak / 2**20:.0f} MB)"))
            for s in sockets:
                s.close()
            await asyncio.sleep(args.linger)
            rows.append((f"closed +{args.linger:.0f} s", served.rss,
                         *await page_loads(served, links.spectator, args.loads), ""))
        finally:
            served.stop()
    print(f"\n{args.sockets} websockets with no link, half-open; {args.loads} loads of each page per row")
    print(f"{'':<16} {'server RSS':>11} {'room page p50':>14} {'p95':>8} {'lobby GET p50':>14} {'p95':>8}  note")
    for name, rss, rooms, lobbies, note in rows:
        print(f"{name:<16} {rss / 2**20:>8.0f} MB {ms(rooms, .5):>14} {ms(rooms, .95):>8} "
              f"{ms(lobbies, .5):>14} {ms(lobbies, .95):>8}  {note}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=300, help="websockets to open with no link (default 300)")
    parser.add_argument("--loads", type=int, default=15, help="page loads of each kind per row (default 15)")
    parser.add_argument("--linger", type=float, default=40.0,
                        help="seconds after the sockets closed before measuring again (default 40)")
    parser.add_argument("--serve-option", action="append", metavar="OPT",
                        help="an extra option for raisus serve (repeat; e.g. --serve-option=--log-level=info)")
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
