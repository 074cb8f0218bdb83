"""Issue 21 item 1: every page agrees with the room, after quick choices from several pages and many
rounds, and the server logs no Bokeh warning.

A GM, two players (민지 plays 아린, Sam plays Olaf) and a spectator have the room open in Chromium.
Every round 민지 and Sam pick a cliché 20-50 ms apart (and every third round the GM picks Olaf's too,
right after Sam: two pages on one picker), the pointer rests on the Roll and Undo buttons, then the GM
rolls (again if the roll was refused because a choice came in first). At the end, every card of every page shows the cliché and the dice the room
holds (read from its SQLite file), exactly what a freshly opened page of the same person shows, and
the server's log has no ``BokehUserWarning`` (the ``reference already known`` of the issue).
"""

from __future__ import annotations

import random
import re

import pytest

from raisus_panel.room import RoomRegistry, SQLiteStore

from .conftest import Server, shot
from .helpers import Guard, button, expect, t, truth

#: Every visible unit card's words, in the page's order (a spectator's are ``.raisus-unit`` blocks of one
#: HTML pane; everyone else's ``.raisus-unit-card`` layouts): its text through every shadow root, a
#: picker as ``[the option it shows]`` (a <select>'s other options are not shown, so not read).
_CARDS = """() => {
  const cards = [];
  const find = (root) => { for (const el of root.querySelectorAll('*')) {
      if (el.classList.contains('raisus-unit-card') || el.classList.contains('raisus-unit')) cards.push(el);
      if (el.shadowRoot) find(el.shadowRoot); } };
  find(document);
  const words = (node) => { let out = '';
    const walk = (n) => {
      if (n.nodeType === 3) { out += n.textContent + ' '; return; }
      if (n.nodeType === 1) {
        if (['STYLE', 'SCRIPT', 'OPTION'].includes(n.tagName)) return;
        if (n.tagName === 'SELECT') { out += '[' + (n.options[n.selectedIndex]?.text ?? '') + '] '; return; }
        if (n.shadowRoot) walk(n.shadowRoot);
      }
      for (const c of n.childNodes) walk(c);
    };
    walk(node); return out.replace(/\\s+/g, ' ').trim(); };
  return cards.filter(el => el.offsetParent !== null).map(words);
}"""

ROUNDS = 12


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("page_sync") / "raisus.sqlite")
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        room, links = registry.create_room("Ogre fight", gm_name="Gina")
        minji, minji_token = registry.join(links.player, "민지")
        sam, sam_token = registry.join(links.player, "Sam")
        minji.act("create_character", name="아린", cliches=[{"name": "기사", "rating": 6}, {"name": "검객", "rating": 6}])
        sam.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 6}, {"name": "Sailor", "rating": 6}])
        uids = {c.name: c.uid for c in room.characters}
        registry.open_session(links.gm).act("start_contest", name="Duel", side_a=[uids["아린"]], side_b=[uids["Olaf"]])
        room_id = room.room_id
    finally:
        store.close()
    # a GM who picks and rolls a dozen times is no flood: the command limit stays out of the way
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en",
                                                "RAISUS_COMMAND_BURST": "500"}).start()
    base = f"{server.url}/dashboard"
    urls = {"gm": links.url("gm", base), "minji": f"{base}?token={minji_token}", "sam": f"{base}?token={sam_token}",
            "spectator": links.url("spectator", base)}
    yield server, db, room_id, urls, uids
    server.kill()


def picker(page, name: str):
    """The cliché picker on ``name``'s card."""
    return page.locator(".raisus-unit-card").filter(has_text=name).locator("select").first


def pick_other(page, name: str) -> None:
    """On ``name``'s card, pick a cliché with dice left other than the one shown (as a person would)."""
    select = picker(page, name)
    shown = select.evaluate("s => s.options[s.selectedIndex]?.text ?? ''")
    options = [o for o in select.locator("option").all_text_contents()
               if not o.startswith("—") and not re.search(r"\(0", o)]
    other = [o for o in options if o != shown] or options
    select.select_option(label=other[0])


def expected(room, name: str) -> str:
    """The chosen cliché of ``name``'s unit as the room holds it: ``Viking (4/6)``."""
    unit = next(u for side in room.contest.sides for u in side if u.name == name)
    chosen = room.contest.chosen(unit.uid)
    return chosen.label if chosen is not None else t("contest.pick_cliche")


def test_every_page_shows_what_the_room_holds_after_quick_choices_and_many_rounds(served, new_page):
    server, db, room_id, urls, uids = served
    pages = {who: new_page(url) for who, url in urls.items()}
    guards = [Guard(p) for p in pages.values()]
    for page in pages.values():
        expect(page.locator(".raisus-unit-card, .raisus-unit").first).to_be_visible()
    gm, minji, sam = pages["gm"], pages["minji"], pages["sam"]
    for p in (gm, minji, sam):
        expect(picker(p, "Olaf" if p is sam else "아린")).to_be_enabled()
    log_start = server.log.stat().st_size
    chance = random.Random(21)
    played = 0
    for n in range(ROUNDS):
        pick_other(minji, "아린")
        sam.wait_for_timeout(chance.randint(20, 50))
        pick_other(sam, "Olaf")
        if n % 3 == 2:  # the GM changes Olaf's pick too, right after Sam: two pages, one picker
            gm.wait_for_timeout(chance.randint(20, 50))
            pick_other(gm, "Olaf")
        roll = gm.get_by_role("button", name=t("contest.roll", n=n + 1), exact=True)
        # as people do while they wait: the pointer rests on a button (on a phone: a tap), which showed
        # a tooltip model that BokehJS then sent back whole ("reference already known" in the log)
        for page in (minji, sam, gm):
            page.get_by_role("button", name=t("contest.roll", n=n + 1), exact=True).hover(force=True, timeout=5_000)
        button(gm, "contest.undo").hover(force=True, timeout=5_000)
        for page in (minji, sam, gm):
            page.mouse.move(5, 5)  # and moves on
        rolled = gm.get_by_role("button", name=t("contest.roll", n=n + 2), exact=True)
        for _ in range(10):  # a roll decided on a state a choice has just left is refused: roll again
            # (but only while round n + 1 is still to roll: a slow first press may land after all)
            if rolled.is_visible() or truth(db, room_id).contest.status == "ended":
                break
            if roll.is_visible() and roll.is_enabled():
                roll.click()
            try:
                expect(rolled).to_be_visible(timeout=3_000)
            except AssertionError:
                pass
        played = n + 1
        if truth(db, room_id).contest.status == "ended":
            break
    assert played >= 8, f"only {played} rounds were played"
    gm.wait_for_timeout(2_000)  # the last updates reach every page
    room = truth(db, room_id)
    want = {name: expected(room, name) for name in ("아린", "Olaf")}
    cards = {who: page.evaluate(_CARDS) for who, page in pages.items()}
    for who, shown in cards.items():
        assert len(shown) == 2, (who, shown)
        for name, text in zip(("아린", "Olaf"), shown):
            assert name in text, (who, shown)
            picked = re.search(r"\[(.*?)\]", text)
            if picked:  # a picker shows exactly the room's choice, with its dice
                assert picked.group(1) == want[name], (who, name, text, want)
            else:  # a card without one says it in words
                assert want[name].split(" (")[0] in text, (who, name, text, want)
    # a page opened now shows every card word for word as the page that followed the whole game
    for who, url in urls.items():
        fresh = new_page(url)
        expect(fresh.locator(".raisus-unit-card, .raisus-unit").first).to_be_visible()
        fresh.wait_for_timeout(500)
        assert fresh.evaluate(_CARDS) == cards[who], who
    shot(gm, "page-sync-gm-en")
    shot(sam, "page-sync-sam-en")
    log = server.log.read_bytes()[log_start:].decode("utf-8", "replace")
    assert "BokehUserWarning" not in log and "reference already known" not in log, log[-3000:]
    for guard in guards:
        guard.check()
