"""Benchmark: how long a started contest takes to show on the GM's own page (issue 21: 2-9 s).

Serves the dashboard (``panel serve apps/dashboard.py`` on a temporary SQLite file) with the issue's
table: a GM, two players and the characters 아린, Olaf, Squire Tim and Brother Monk against the GM's
Ogre. The GM's page is opened in Chromium (as the browser tests do, ``/usr/bin/chromium``); a player's
page and the spectator's are open too, as at a table. Each run the GM ticks side A's four and the Ogre,
presses **Start**, and the time is taken in the page itself: from the press (a capturing ``click``
listener, ``performance.now()``) to the first animation frame in which the contest's Exchange button is drawn
and visible (polled every frame). Then the GM ends and closes the contest, and the next run
starts from the empty form again.

Run from the repository root::

    .venv/bin/python benchmarks/bench_start_contest.py             # --runs 7
    .venv/bin/python benchmarks/bench_start_contest.py --runs 15

The wall time depends on how loaded the machine is; the server's CPU time for each start (read from
``/proc``: the process's user and system time, from the press until a second after the GM's page
showed the contest, so the other pages' updates count too) much less. The page's time is split at
the websocket messages: from the press to the first message back, and from the last message that
arrived before the contest showed to the moment it was drawn (the browser's own work). ``--root`` serves another
checkout (e.g. a worktree of an older commit), to compare before and after a change.

Prints the runs, their medians and quartiles, and exits 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from raisus_panel.i18n import t  # noqa: E402
from raisus_panel.room import RoomRegistry, SQLiteStore  # noqa: E402
from tests.wire import free_port  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
SIDE_A = (("아린", "기사", 4), ("Olaf", "Viking", 4), ("Squire Tim", "Squire", 2), ("Brother Monk", "Monk", 3))

#: Marks the press: a capturing listener on the document sees every click (clicks cross shadow roots).
_ARM = """() => { window.__t0 = null; window.__armed = true;
  if (!window.__listening) { window.__listening = true;
    document.addEventListener('click', () => { if (window.__armed) { window.__t0 = performance.now(); window.__armed = false; } }, true); } }"""

#: True once the new contest's Exchange button (side A has four units: rounds go by exchanges) is drawn
#: and visible, looked for through every shadow root each frame.
_SHOWN = """(label) => { if (window.__t0 === null) return false;
  const find = (root) => { for (const el of root.querySelectorAll('*')) {
      if (el.tagName === 'BUTTON' && el.textContent.trim() === label && el.offsetParent !== null) return true;
      if (el.shadowRoot && find(el.shadowRoot)) return true; }
    return false; };
  if (find(document)) { window.__t1 = performance.now(); return true; }
  return false; }"""


#: Before the page loads: note when each websocket message arrives (Bokeh sets ``onmessage``).
_NOTE_MESSAGES = """(() => { window.__msgs = [];
  const own = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', { configurable: true, get() { return own.get.call(this); },
    set(fn) { own.set.call(this, (e) => { window.__msgs.push(performance.now()); return fn(e); }); } }); })()"""

#: After the contest showed: the first message after the press, and the last one before it showed.
_SPLIT = """() => { const after = window.__msgs.filter(t => t >= window.__t0 && t <= window.__t1);
  return after.length ? [after[0] - window.__t0, window.__t1 - after[after.length - 1]] : [NaN, NaN]; }"""


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user + system): the server's work, whatever the load."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def seed(db: str) -> tuple[str, str, list[str]]:
    """The issue's table; the GM's and a player's link, and the spectators'."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Ogre fight", gm_name="Gina")
        minji, _ = registry.join(links.player, "민지")
        sam, sam_token = registry.join(links.player, "Sam")
        gm = registry.open_session(links.gm)
        for i, (name, cliche, rating) in enumerate(SIDE_A):
            owner = minji if i % 2 == 0 else sam
            owner.act("create_character", name=name, cliches=[{"name": cliche, "rating": rating}])
        gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 8}])
        return links.gm, sam_token, [links.spectator]
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="how many starts to time")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose dashboard is served (another commit's, to compare)")
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-start-"))
    db = str(tmp / "raisus.sqlite")
    gm_token, sam_token, (spectator_token,) = seed(db)
    port = free_port()
    log = open(tmp / "server.log", "wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "panel", "serve", "apps/dashboard.py", "--port", str(port), "--address", "127.0.0.1",
         "--liveness", "--allow-websocket-origin", f"localhost:{port}"],
        cwd=args.root, env={**os.environ, "RAISUS_DB": db, "RAISUS_LANG": "en"}, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True)
    base = f"http://localhost:{port}/dashboard"
    times: list[float] = []
    cpu: list[float] = []
    first_reply: list[float] = []  # from the press to the first message back
    drawing: list[float] = []  # from the last message to the contest drawn: the browser's own time
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://localhost:{port}/liveness", timeout=2)
                break
            except Exception:
                time.sleep(0.3)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            others = []
            for token in (sam_token, spectator_token):
                page = browser.new_context().new_page()
                page.goto(f"{base}?token={token}")
                others.append(page)
            gm = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            gm.add_init_script(_NOTE_MESSAGES)
            gm.set_default_timeout(60_000)
            gm.goto(f"{base}?token={gm_token}")
            start = gm.get_by_role("button", name=t("contest.start", "en"), exact=True)
            expect(start).to_be_visible(timeout=60_000)
            shown_label = t("contest.exchange", "en")
            for run in range(args.runs):
                for name, *_ in SIDE_A:
                    gm.get_by_role("checkbox", name=name, exact=True).first.check()
                gm.get_by_role("checkbox", name="Ogre", exact=True).last.check()
                expect(start).to_be_enabled(timeout=30_000)
                gm.wait_for_timeout(500)  # let the form's own updates settle: only the start is timed
                gm.evaluate(_ARM)
                before = cpu_seconds(server.pid)
                start.click()
                gm.wait_for_function(_SHOWN, arg=shown_label, polling="raf", timeout=60_000)
                took = gm.evaluate("window.__t1 - window.__t0") / 1000
                reply, draw = (v / 1000 for v in gm.evaluate(_SPLIT))
                first_reply.append(reply)
                drawing.append(draw)
                gm.wait_for_timeout(1000)  # the other pages' updates too
                cpu.append(cpu_seconds(server.pid) - before)
                times.append(took)
                print(f"run {run + 1}: {took:.3f} s on the GM's page (first reply {reply:.3f} s, drawn {draw:.3f} s "
                      f"after the last message), {cpu[-1]:.2f} s of the server's CPU", flush=True)
                # back to the empty form: end the contest, then close it
                outcome = gm.get_by_placeholder(t("contest.outcome_placeholder", "en"))
                outcome.fill(f"run {run + 1}")
                outcome.press("Enter")
                gm.get_by_role("button", name=t("contest.end", "en"), exact=True).click()
                gm.get_by_role("button", name=t("confirm.yes.end", "en"), exact=True).click()  # asked first
                close = gm.get_by_role("button", name=t("contest.close", "en"), exact=True)
                expect(close).to_be_enabled(timeout=30_000)
                close.click()
                gm.get_by_role("button", name=t("confirm.yes.close", "en"), exact=True).click()
                expect(start).to_be_visible(timeout=30_000)
                gm.wait_for_timeout(500)
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nserved from {args.root}, {len(times)} runs, load average {os.getloadavg()[0]:.1f}:")
    for what, values in (("start -> contest shown on the GM's page", times),
                         ("  press -> first message back", first_reply),
                         ("  last message -> drawn (the browser)", drawing),
                         ("server CPU for the start (all three pages)", cpu)):
        q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
        print(f"  {what}: median {statistics.median(values):.3f} s (quartiles {q[0]:.3f}-{q[2]:.3f} s, "
              f"min {min(values):.3f}, max {max(values):.3f})")


if __name__ == "__main__":
    main()
