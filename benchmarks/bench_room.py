"""Benchmark: one shared room served to 1, 10 and 50 sessions while the GM plays rounds.

The dashboard runs in this process on Panel's threaded server (loopback, a free port, a temporary
SQLite store), built as ``panel serve apps/dashboard.py`` builds it: an imported registry and one
``create_app(registry)`` per session. Each K gets a fresh room made through the registry -- a GM,
a player (Ann) whose three characters form a team, the GM's NPC Ogre, a contest started -- on
seeded dice, so every K plays the same rounds.

**Sessions.** K headless sessions open the room page: the GM's link first, then ``--players`` tabs on
Ann's personal link (5 by default: a table of a GM and a handful of players, everyone else watching),
then the spectators' link. ``--players 25`` at K=50 gives the worst case, half of the room at the
table (a player's page has more to update than a spectator's). They are raw websocket clients speaking Bokeh's protocol (ACK,
PULL-DOC, the ``document_ready`` event BokehJS sends once the page is drawn, then PATCH-DOC
messages), all in one child process on one asyncio loop: a browser page each is far too heavy for
50 here, and keeping the clients out of the server's process keeps their parsing off its GIL. Both
processes time with ``time.monotonic`` (one system-wide clock on Linux).

**Rounds.** Each round is the GM's ``roll_round``, given the way a click gives it: on the GM
session's own document (a next-tick callback on the server's IOLoop, with the session's lock), through
the page's ``RoomSession.act``, i.e. ``Room.apply`` as the GM. The update has arrived when every
session got the score chart's new row (one is streamed per decided round) and then no session got
anything for ``--quiet`` seconds (longer for more sessions: one slow refresh sends nothing). Per round:

* **latency** -- from the command to the update's *last* message at the slowest session; also to the
  score chart's streamed row (the first visible sign) at the slowest session;
* **bytes** -- every websocket frame of the update, per session (header, metadata, content and
  buffers of every PATCH-DOC), and which component's Bokeh models they changed;
* **server time** -- how long the click held the GM's session (``Room.apply`` with everything that
  runs inside it), and the time in each component's ``_refresh``, in the room's permission checks
  (button hints) and in Bokeh's document-wide model walk after models are added or removed. These
  methods are wrapped in this process only, for the measurement.

A K stops after ``--rounds`` rounds, or earlier once its rounds took ``--budget`` seconds (never
before ``--min-rounds``), so the run stays within minutes however slow a round is; the table says
how many rounds each K played. It also times connecting all K sessions and closing them all (until
the server has destroyed them and they left the room's presence).

**Memory.** The growth of this process's RSS while the K sessions connect (after ``gc.collect``),
divided by K; with ``--tracemalloc``, also the Python heap per session of a separate run of
``--heap-sessions`` sessions under ``tracemalloc`` (no allocator noise, but tracing is slow).

Targets (the issue): with 50 sessions, p95 latency under 0.5 s, under 2 MB per session and under
2 KB per round update per session, on the project's 2-core machines. Run from the repository root::

    .venv/bin/python benchmarks/bench_room.py                  # --sessions 1 10 50 --rounds 20
    .venv/bin/python benchmarks/bench_room.py --sessions 10 --rounds 5 --tracemalloc

``--store redis`` runs ``benchmarks/bench_scale_out.py`` instead: the room served by ``--procs N`` real
``raisus serve`` processes sharing a Redis store (``--sessions``, ``--rounds``, ``--players``, ``--quiet``
and ``--timeout`` are passed on; the defaults are that script's)::

    .venv/bin/python benchmarks/bench_room.py --store redis --procs 2 --sessions 100 200

Prints tables and exits 0: a missed target is reported, not raised.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import multiprocessing
import os
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

# Runnable as a plain script from a checkout: make the package importable without installing it.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: The issue's targets (for 50 sessions).
TARGET_P95_S = 0.5
TARGET_MEMORY = 2 * 1024 * 1024
TARGET_BYTES = 2 * 1024
#: ... and per spectator (issue 24), whose round must also not grow with the rounds (the last at most 1.5 x the first)
TARGET_SPECTATOR_BYTES = 1024

#: The rooms' dice seed: every K plays the same rounds.
SEED = 7

# =============================================================================================
# The clients: a child process, one asyncio loop, K raw Bokeh websocket sessions
# =============================================================================================
from tests.siege import siege_room  # noqa: E402  (the path is set above)
from tests.wire import WireSession, free_port, wait_for  # noqa: E402


def _has_row(messages, marker: tuple[set, set]) -> bool:
    """Whether ``messages`` bring the score chart its new point: a row streamed into a marker source (or
    into a model unknown at connect time), a watching page's chart picture drawn anew, or (``--view
    table``) the table view's delta."""
    sources, known = marker
    return any((kind == "ColumnsStreamed" and (model_id in sources or model_id not in known))
               or (kind == "ModelChanged" and attr in ("text", "delta") and model_id in sources)
               for m in messages for kind, model_id, attr, _ in m[3])


async def _wait_update(sessions, marker, t0: float, quiet: float, timeout: float) -> dict:
    """Wait until every session got the update's marker (the score chart's new row) since ``t0`` and no
    session got anything for ``quiet`` seconds; report each session's part and forget its messages."""
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        await asyncio.sleep(0.02)
        now = time.monotonic()
        got = [[m for m in s.messages if m[0] >= t0] for s in sessions]
        last = max((m[0] for ms in got for m in ms), default=None)
        arrived = all(_has_row(ms, marker) for ms in got) if marker else all(got)
        if arrived and last is not None and now - last >= quiet:
            break
        if now > deadline:
            timed_out = True
            break
    report = []
    for s, ms in zip(sessions, got):
        events: Counter = Counter()
        streamed: dict[str, float] = {}
        for t, _, _, evs in ms:
            for kind, model_id, attr, size in evs:
                events[(kind, model_id, attr)] += size
                if kind == "ColumnsStreamed":
                    streamed.setdefault(model_id, t - t0)
        report.append({"last": ms[-1][0] - t0 if ms else None, "bytes": sum(m[2] for m in ms),
                       "messages": len(ms), "streamed": streamed,
                       "events": [(*key, size) for key, size in events.items()]})
        s.messages = []
    return {"sessions": report, "timed_out": timed_out}


async def _client_loop(conn) -> None:
    loop = asyncio.get_running_loop()
    sessions: list[WireSession] = []
    marker = None
    while True:
        command, *args = await loop.run_in_executor(None, conn.recv)
        try:
            if command == "connect":  # open one session per token, one after the other
                ws_url, tokens = args
                fresh = []
                for token in tokens:  # a token, or (token, more query arguments)
                    token, query = (token, None) if isinstance(token, str) else token
                    session = WireSession(len(sessions) + len(fresh))
                    await session.open(ws_url, token, args=query)
                    fresh.append(session)
                sessions += fresh
                conn.send([(s.connect_s, s.pull_bytes, s.pull_models) for s in fresh])
            elif command == "marker":  # (ids of the score charts' models, ids of every model at connect)
                marker = (set(args[0]), set(args[1])) if args[0] else None
                conn.send(True)
            elif command == "update":
                conn.send(await _wait_update(sessions, marker, *args))
            elif command == "close":
                for session in sessions:
                    session.close()
                sessions, marker = [], None
                await asyncio.sleep(0.1)
                conn.send(True)
            elif command == "quit":
                conn.send(True)
                return
        except Exception as exc:  # hand the failure to the parent instead of hanging it
            conn.send(RuntimeError(f"clients: {command} failed: {exc!r}"))


def client_process(conn) -> None:
    """Entry point of the clients' process."""
    asyncio.run(_client_loop(conn))


class Clients:
    """The parent's handle on the clients' process."""

    def __init__(self):
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: none of the server's threads
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=client_process, args=(child,), daemon=True)
        self._proc.start()

    def call(self, *message):
        self._conn.send(message)
        answer = self._conn.recv()
        if isinstance(answer, Exception):
            raise answer
        return answer

    def stop(self) -> None:
        try:
            self.call("quit")
        except Exception:
            pass
        self._proc.join(10)
        if self._proc.is_alive():
            self._proc.terminate()


# =============================================================================================
# The server: the dashboard in this process, the rooms, instrumentation
# =============================================================================================
def rss() -> int:
    """This process's resident memory in bytes (psutil if installed, else /proc/self/status)."""
    try:
        import psutil
        return psutil.Process().memory_info().rss
    except ImportError:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def start_server(registry, lifetime_ms: int):
    """Serve the dashboard on a free loopback port in a thread; returns (thread, port)."""
    import panel as pn

    from raisus_panel.dashboard import create_app
    from raisus_panel.dashboard.app import CSS

    pn.extension(raw_css=[CSS], notifications=False)  # as apps/dashboard.py

    def app():  # a plain function: Panel calls functions once per session (not partials)
        return create_app(registry)

    port = free_port()
    thread = pn.serve({"dashboard": app}, port=port, address="127.0.0.1", threaded=True, show=False,
                      websocket_origin=[f"127.0.0.1:{port}"],
                      check_unused_sessions_milliseconds=lifetime_ms,
                      unused_session_lifetime_milliseconds=lifetime_ms)
    if not wait_for(lambda: _listening(port), 30):
        raise RuntimeError("the dashboard did not start")
    return thread, port


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def make_room(registry) -> tuple:
    """The Siege room (``tests/siege.py``), rated high enough that it still runs after 20 rounds.

    Returns the room and the links by role (Ann's personal link as "player").
    """
    room, links, _ = siege_room(registry, "Bench", ratings=(25, 3, 2, 25))
    return room, links


def tokens_for(k: int, links: dict, players: int) -> list[tuple[str, str]]:
    """(role, token) of K sessions: the GM first, then ``players`` of Ann's tabs, then spectators."""
    players = max(0, min(players, k - 1))
    return ([("gm", links["gm"])] + [("player", links["player"])] * players +
            [("spectator", links["spectator"])] * (k - 1 - players))


def live_pages(room) -> list:
    """The room pages on ``room`` that are not disposed (found through the garbage collector)."""
    from raisus_panel.dashboard import RoomPage

    return [o for o in gc.get_objects()
            if isinstance(o, RoomPage) and o.session.room is room and not o._disposed]


def gm_page_of(room):
    """The GM's live page on ``room``: the session whose clicks drive the rounds."""
    pages = [p for p in live_pages(room) if p.session.actor.is_gm]
    if len(pages) != 1:
        raise RuntimeError(f"expected one GM page on the room, found {len(pages)}")
    return pages[0]


def click(page, command: str, timeout: float = 300.0) -> dict:
    """Give ``command`` as a click on ``page`` gives it: on the page's own document (a next-tick
    callback on the server's loop, the session's lock held), through ``RoomSession.act``."""
    done = threading.Event()
    info: dict = {}

    def callback():
        info["start"] = time.monotonic()
        try:
            page.session.act(command)
        except Exception as exc:  # reported by the caller; must not hang the benchmark
            info["error"] = repr(exc)
        info["end"] = time.monotonic()
        done.set()

    page._doc.add_next_tick_callback(callback)
    if not done.wait(timeout):
        info["error"] = "the click never ran"
    return info


def component_of_models(room) -> dict[str, str]:
    """Bokeh model id -> the component of the room's pages that shows it."""
    owner: dict[str, str] = {}

    def claim(component, label):
        for obj in component.__panel__().select():
            for model, _parent in list(getattr(obj, "_models", {}).values()):
                for ref in model.references():
                    owner[ref.id] = label

    for page in live_pages(room):
        claim(page, "RoomPage (title, presence, roster)")  # first: its children claim their own
        for child in getattr(page, "_children", []):
            claim(child, type(child).__name__)
            for builder in getattr(child, "_made_builders", []):  # the ones made (opened) only
                claim(builder, type(builder).__name__)
    return owner


class Timers:
    """Wall time and calls of wrapped methods (this process only; restored afterwards)."""

    def __init__(self):
        self.totals: Counter = Counter()
        self.calls: Counter = Counter()
        self._lock = threading.Lock()
        self._undo: list = []

    def wrap(self, cls, method: str, label: str) -> None:
        original = cls.__dict__.get(method)
        if original is None:
            return

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                with self._lock:
                    self.totals[label] += time.perf_counter() - start
                    self.calls[label] += 1
        setattr(cls, method, timed)
        self._undo.append((cls, method, original))

    def reset(self) -> None:
        with self._lock:
            self.totals.clear()
            self.calls.clear()

    def restore(self) -> None:
        for cls, method, original in reversed(self._undo):
            setattr(cls, method, original)
        self._undo.clear()


def instrument() -> Timers:
    from bokeh.document.models import DocumentModelManager

    import raisus_panel.ui as ui
    from raisus_panel.dashboard import RoomPage
    from raisus_panel.room import Room

    timers = Timers()
    for name in ("ContestTable", "ContestView", "ScoreChart", "LiveOdds", "RoundLog", "ActionCheckPanel",
                 "CharacterSheet", "TeamBuilder"):
        cls = getattr(ui, name, None)
        if cls is not None:
            timers.wrap(cls, "_refresh", f"{name}._refresh")
    timers.wrap(RoomPage, "_show_presence", "RoomPage._show_presence")
    timers.wrap(Room, "check", "Room.check (button hints; inside the refreshes)")
    timers.wrap(DocumentModelManager, "recompute", "Bokeh document model walk (inside the refreshes)")
    return timers


# =============================================================================================
# One K: connect, play rounds, close
# =============================================================================================
def percentile(values, q: float) -> float:
    values = sorted(v for v in values if v is not None and not math.isnan(v))
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def median(values) -> float:
    return percentile(values, 0.5)


def run_phase(k: int, args, registry, port: int, clients: Clients, timers: Timers) -> dict:
    room, links = make_room(registry)
    roles = tokens_for(k, links, args.players)
    ws_url = f"ws://127.0.0.1:{port}/dashboard/ws"
    gc.collect()
    time.sleep(0.2)
    rss0 = rss()
    timers.reset()
    t = time.monotonic()
    # --view table: the spectators' pages draw the table in the browser (?view=table)
    watching = {"view": args.view} if args.view else None
    connected = clients.call("connect", ws_url, [(token, watching) if role == "spectator" and watching else token
                                                 for role, token in roles])
    if not wait_for(lambda: len(room.presence) >= k, 120):
        raise RuntimeError(f"only {len(room.presence)} of {k} sessions show as present")
    connect_all = time.monotonic() - t
    time.sleep(0.5)  # the sessions' first ticks
    clients.call("update", time.monotonic(), 0.0, 0.0)  # forget what was sent while connecting
    on_connect = (timers.totals["RoomPage._show_presence"], timers.calls["RoomPage._show_presence"])
    gc.collect()
    rss1 = rss()
    owners = component_of_models(room)
    gm_page = gm_page_of(room)
    clients.call("marker", [i for i, c in owners.items() if c in ("ScoreChart", "TableView")], list(owners))
    quiet = args.quiet if args.quiet is not None else 0.4 + 0.012 * k  # one slow refresh sends nothing

    rounds: list[dict] = []
    by_component: Counter = Counter()
    by_event: Counter = Counter()
    watcher_events: Counter = Counter()  # a spectator's part alone (a watching page differs most)
    stopped = ""
    timers.reset()
    started = time.monotonic()
    for r in range(args.rounds):
        if r >= args.min_rounds and time.monotonic() - started > args.budget:
            stopped = f"budget of {args.budget:.0f} s reached"
            break
        t0 = time.monotonic()
        clicked = click(gm_page, "roll_round")
        if "error" in clicked:
            stopped = f"round {r + 1} was refused: {clicked['error']}"
            break
        update = clients.call("update", t0, quiet, args.timeout)
        sessions = update["sessions"]
        chart = [min((t for m, t in s["streamed"].items() if owners.get(m) == "ScoreChart"), default=None)
                 for s in sessions]
        rounds.append({
            "apply": clicked["end"] - clicked["start"],
            "last": max((s["last"] for s in sessions if s["last"] is not None), default=float("nan")),
            "chart": max((t for t in chart if t is not None), default=float("nan")),
            "bytes": [s["bytes"] for s in sessions], "messages": [s["messages"] for s in sessions],
            "missing": sum(1 for s in sessions if s["last"] is None), "timed_out": update["timed_out"],
        })
        for (role, _), s in zip(roles, sessions):
            for kind, model_id, attr, size in s["events"]:
                comp = owners.get(model_id, "(models new since connecting)")
                by_component[comp] += size
                by_event[(comp, kind, attr)] += size
                if role == "spectator":
                    watcher_events[(comp, kind, attr)] += size
    played = time.monotonic() - started
    cpu, calls = dict(timers.totals), dict(timers.calls)
    t = time.monotonic()
    clients.call("close")
    # closed sessions are destroyed after their unused lifetime; their pages then leave the room
    closed = wait_for(lambda: not room.presence, args.close_timeout)
    close_all = time.monotonic() - t if closed else float("nan")
    return {
        "k": k, "quiet": quiet, "roles": [role for role, _ in roles], "rounds": rounds, "stopped": stopped,
        "played": played,
        "connect": connected, "connect_all": connect_all, "close_all": close_all, "on_connect": on_connect,
        "rss_per_session": (rss1 - rss0) / k,
        "by_component": by_component, "by_event": by_event, "watcher_events": watcher_events, "cpu": cpu, "calls": calls,
        "present_after_close": len(room.presence),
    }


def _package(filename: str) -> str:
    """The top-level package a source file belongs to (``raisus_panel``, ``bokeh``, ``panel``...)."""
    parts = Path(filename).parts
    for anchor in ("site-packages", "raisus_panel"):
        if anchor in parts:
            i = parts.index(anchor)
            return "raisus_panel" if anchor == "raisus_panel" else parts[i + 1] if i + 1 < len(parts) else "?"
    return "(standard library)" if "python3" in filename else "(other)"


def tracemalloc_phase(k: int, players: int, registry, port: int, clients: Clients) -> float:
    """Python heap per session while K sessions connect (tracemalloc; a fresh room)."""
    import tracemalloc

    room, links = make_room(registry)
    gc.collect()
    tracemalloc.start(1)
    try:
        base = tracemalloc.get_traced_memory()[0]
        before = tracemalloc.take_snapshot()
        clients.call("connect", f"ws://127.0.0.1:{port}/dashboard/ws", [t for _, t in tokens_for(k, links, players)])
        wait_for(lambda: len(room.presence) >= k, 120)
        time.sleep(0.5)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - base
        by_package: Counter = Counter()
        for stat in tracemalloc.take_snapshot().compare_to(before, "filename"):
            by_package[_package(stat.traceback[0].filename)] += stat.size_diff
    finally:
        tracemalloc.stop()
    print(f"Python heap per session by package (tracemalloc, {k} sessions): "
          + ", ".join(f"{name} {size / k / 1024:.0f} KB" for name, size in by_package.most_common(6)))
    clients.call("close")
    wait_for(lambda: not room.presence, 15)
    return grown / k


# =============================================================================================
# Report
# =============================================================================================
def kb(n: float) -> str:
    return f"{n / 1024:.1f} KB"


def mb(n: float) -> str:
    return f"{n / 1024 / 1024:.2f} MB"


def ms(s: float) -> str:
    return "-" if math.isnan(s) else f"{s * 1000:.0f} ms"


def table(head, rows) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    for cells in (head, ["-" * w for w in widths], *rows):
        print("  ".join(c.rjust(w) for c, w in zip(cells, widths)))


def per_round_table(names: list[str], rounds: list[list[dict]], cases: str) -> None:
    """Each round's latency at the slowest session and median bytes per session, one column per case."""
    print()
    print(f"Per round (the same dice for every {cases}): latency at the slowest session / bytes per session (median)")
    rows = []
    for i in range(max((len(r) for r in rounds), default=0)):
        row = [str(i + 1)]
        for played in rounds:
            x = played[i] if i < len(played) else None
            row.append(f"{ms(x['last'])} / {kb(median(x['bytes']))}" if x else "")
        rows.append(row)
    if rows:
        table(["round", *names], rows)


def report(phases: list[dict], heap: float | None, args) -> None:
    print()
    print(f"Room page served to K headless sessions (the GM, up to {args.players} player tabs, the rest spectators); "
          "the GM rolls rounds by clicks.")
    quiet = ", ".join(f"{p['quiet']:.2f} s" for p in phases)
    print(f"Update = from the click until every session got the score chart's new row and no session got "
          f"anything for a quiet window ({quiet}), timed at the last message of the slowest session;")
    print("bytes = all frames of one update, per session.")
    print()
    rows = []
    for p in phases:
        r = p["rounds"]
        per_session = [b for x in r for b in x["bytes"]]
        rows.append((
            str(p["k"]), str(len(r)), f"{p['connect_all']:.0f} s", f"{p['close_all']:.0f} s",
            ms(median(x["last"] for x in r)), ms(percentile([x["last"] for x in r], 0.95)),
            ms(percentile([x["chart"] for x in r], 0.95)), ms(percentile([x["apply"] for x in r], 0.95)),
            kb(median(per_session)), kb(percentile(per_session, 0.95)),
            f"{median(m for x in r for m in x['messages']):.0f}", mb(p["rss_per_session"])))
    table(("K", "rounds", "connect all", "close all", "latency med", "latency p95", "chart row p95", "click p95",
           "bytes med", "bytes p95", "msgs/update", "RSS/session"), rows)
    for p in phases:
        if p["stopped"]:
            print(f"  K={p['k']}: stopped after {len(p['rounds'])} rounds ({p['stopped']})")
        bad = [i + 1 for i, x in enumerate(p["rounds"]) if x["missing"] or x["timed_out"]]
        if bad:
            print(f"  K={p['k']}: rounds {bad} timed out or missed a session")
        if p["present_after_close"]:
            print(f"  K={p['k']}: {p['present_after_close']} sessions still present {args.close_timeout:.0f} s "
                  "after closing")
    print()
    print("Bytes per round update by role (median over rounds and sessions):")
    for p in phases:
        by_role: dict[str, list] = {}
        for x in p["rounds"]:
            for role, size in zip(p["roles"], x["bytes"]):
                by_role.setdefault(role, []).append(size)
        print(f"  K={p['k']}: " + ", ".join(f"{role} {kb(median(sizes))} ({p['roles'].count(role)} sessions)"
                                             for role, sizes in by_role.items()))
    from raisus_panel.dashboard.room_page import PRESENCE_EVERY_S

    connect = phases[0]["connect"][0]
    print()
    print(f"Initial page (GM): {kb(connect[1])} PULL-DOC reply, {connect[2]} Bokeh models.")
    for p in phases:
        spent, calls = p["on_connect"]
        print(f"While K={p['k']} sessions connected, pages redrew who is present "
              f"{calls} times ({spent * 1000:.0f} ms in RoomPage._show_presence; each page at most every "
              f"{PRESENCE_EVERY_S} s).")
    if heap is not None:
        print(f"Python heap per session (tracemalloc, {args.heap_sessions} sessions): {mb(heap)}")

    per_round_table([f"K={p['k']}" for p in phases], [p["rounds"] for p in phases], "K")
    spectators = _spectator_rounds(big := max(phases, key=lambda p: p["k"]))
    if spectators:
        print(f"  a spectator's bytes (median, K={big['k']}, page {'?view=' + args.view if args.view else 'default'}): "
              + ", ".join(f"{i + 1}: {b:.0f} B" for i, b in enumerate(spectators)))

    big = max(phases, key=lambda p: p["k"])
    k, n = big["k"], max(1, len(big["rounds"]))
    print()
    print(f"Where an update's bytes go (K={k}; per session per round, mean of {n} rounds):")
    for comp, size in big["by_component"].most_common():
        print(f"  {comp:<40} {size / k / n:7.0f} B")
    print("  largest changes (component, event, attribute):")
    for (comp, kind, attr), size in big["by_event"].most_common(10):
        print(f"    {comp:<36} {kind:<16} {attr:<12} {size / k / n:7.0f} B")
    watchers = big["roles"].count("spectator")
    if watchers:
        print(f"  a spectator's changes (per spectator per round, mean of {watchers} spectators):")
        for (comp, kind, attr), size in big["watcher_events"].most_common(6):
            print(f"    {comp:<36} {kind:<16} {attr:<12} {size / watchers / n:7.0f} B")
    print()
    print(f"Where the server's time goes (K={k}; per round, summed over sessions; nested rows are "
          f"inside the refreshes):")
    for label, total in sorted(big["cpu"].items(), key=lambda kv: -kv[1]):
        print(f"  {label:<58} {total / n * 1000:8.1f} ms  {big['calls'][label] / n / k:6.1f} calls/session")

    lat95 = percentile([x["last"] for x in big["rounds"]], 0.95)
    bytes_med = median(b for x in big["rounds"] for b in x["bytes"])
    watched = _spectator_rounds(big)
    watched_med = median(b for x in big["rounds"] for role, b in zip(big["roles"], x["bytes"]) if role == "spectator")
    print()
    print(f"Targets at K={k}:")
    for what, ok, value in (
        ("p95 latency < 0.5 s", lat95 < TARGET_P95_S, f"{lat95:.3f} s"),
        ("memory per session < 2 MB (RSS growth)", big["rss_per_session"] < TARGET_MEMORY, mb(big["rss_per_session"])),
        ("bytes per round update per session < 2 KB (median)", bytes_med < TARGET_BYTES, f"{bytes_med:.0f} B"),
        *(() if not watched else (
            ("bytes per round update per spectator < 1 KB (median)", watched_med < TARGET_SPECTATOR_BYTES,
             f"{watched_med:.0f} B"),
            (f"a spectator's last round (round {len(watched)}) no larger than round 1 x 1.5",
             watched[-1] <= 1.5 * watched[0], f"{watched[0]:.0f} B -> {watched[-1]:.0f} B"))),
    ):
        print(f"  {'met   ' if ok else 'MISSED'}  {what}: {value}")


def _spectator_rounds(phase: dict) -> list[float]:
    """Each round's median bytes over the phase's spectators (none: an empty list)."""
    if "spectator" not in phase["roles"]:
        return []
    return [median(b for role, b in zip(phase["roles"], x["bytes"]) if role == "spectator") for x in phase["rounds"]]


def main(argv=None) -> int:
    os.environ.setdefault("RAISUS_PAGES_PER_CLIENT", "0")  # every session comes from this one address
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=None, help="the Ks (default 1 10 50)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per K (default 20)")
    parser.add_argument("--view", choices=["table"], default=None,
                        help="the spectators' view: 'table' draws the table in the browser (?view=table)")
    parser.add_argument("--players", type=int, default=5,
                        help="player tabs among the K sessions (default 5; the GM is one more, the rest watch)")
    parser.add_argument("--budget", type=float, default=30.0,
                        help="stop a K's rounds once they took this many seconds (default 30)")
    parser.add_argument("--min-rounds", type=int, default=2, help="rounds played whatever the budget (default 2)")
    parser.add_argument("--quiet", type=float, default=None,
                        help="seconds without any message that end an update (default 0.4 + 0.012 K)")
    parser.add_argument("--timeout", type=float, default=None, help="longest wait for one update (s, default 120)")
    parser.add_argument("--lifetime-ms", type=int, default=300,
                        help="the server's unused-session lifetime and check interval (ms)")
    parser.add_argument("--close-timeout", type=float, default=90.0,
                        help="longest wait for closed sessions to leave the room (s)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="also measure the Python heap per session under tracemalloc (slow)")
    parser.add_argument("--heap-sessions", type=int, default=5, help="sessions of the tracemalloc run")
    parser.add_argument("--store", choices=["sqlite", "redis"], default="sqlite",
                        help="sqlite (default): this benchmark, in this process; redis: run "
                             "benchmarks/bench_scale_out.py (raisus serve processes on a Redis store)")
    parser.add_argument("--procs", type=int, nargs="+", default=None,
                        help="with --store redis: server processes (default 2)")
    args = parser.parse_args(argv)
    if args.store == "redis":
        from benchmarks import bench_scale_out

        forward = ["--players", str(args.players)]
        for option, value in (("--procs", args.procs), ("--sessions", args.sessions)):
            if value is not None:
                forward += [option, *map(str, value)]
        for option, value in (("--rounds", args.rounds), ("--quiet", args.quiet), ("--timeout", args.timeout)):
            if value is not None:
                forward += [option, str(value)]
        return bench_scale_out.main(forward)
    if args.procs not in (None, [1]):
        parser.error("--procs needs --store redis (this benchmark serves from its own process)")
    if args.sessions is None:
        args.sessions = [1, 10, 50]
    if args.rounds is None:
        args.rounds = 20
    if args.timeout is None:
        args.timeout = 120.0

    import logging
    for noisy in ("bokeh", "tornado", "asyncio"):  # closing 50 sockets is noisy
        logging.getLogger(noisy).setLevel(logging.CRITICAL)

    from raisus_panel.room import RoomRegistry, SQLiteStore
    from raisus_panel.rules import SeededDice

    started = time.monotonic()
    load = os.getloadavg()[0]
    clients = Clients()
    with tempfile.TemporaryDirectory() as tmp:
        # the dashboard's kind of registry (imported, shared by every session), on seeded dice
        registry = RoomRegistry(SQLiteStore(Path(tmp) / "bench.sqlite"), dice_factory=lambda: SeededDice(SEED))
        thread, port = start_server(registry, args.lifetime_ms)
        timers = instrument()
        phases, heap = [], None
        try:
            for k in args.sessions:
                phases.append(run_phase(k, args, registry, port, clients, timers))
                print(f"  K={k}: {len(phases[-1]['rounds'])} rounds ({time.monotonic() - started:.0f} s)",
                      file=sys.stderr)
            timers.restore()
            if args.tracemalloc:
                heap = tracemalloc_phase(args.heap_sessions, args.players, registry, port, clients)
        finally:
            timers.restore()
            clients.stop()
            thread.stop()
            registry.store.close()
    report(phases, heap, args)
    print(f"\n(whole run {time.monotonic() - started:.0f} s; load average {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
