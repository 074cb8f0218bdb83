"""Issue 12: the Log tab of a served room reads like the contest table, in English and in Korean.

A room is played through the room API on scripted dice before the server opens it: Ann's Sir Ann
(Knight 4, Cook 2) against the GM's Ogre (Ogre 3) -- a round won after a tie, a round with sixes, a
round the GM rolled and took back. Ann's page then shows, on its Log tab: every decided round's dice
drawn as dice (sixes filled, the tie marked), each dice row's swatch and each entry's edge in the
unit's chart colour, the undone round faded and struck through. Screenshots of the tab in English
and Korean go to ``test-artifacts/`` (log-look-{en,ko}.png: the log; log-tab-{en,ko}.png: the page).
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t as tr
from raisus_panel.room import RoomRegistry, SQLiteStore
from raisus_panel.rules import ScriptedDice
from raisus_panel.ui import unit_colors

from .conftest import Server, shot
from .helpers import Guard, expect, shot_of

pytestmark = pytest.mark.browser

ROLLS = [[3, 3, 3, 3], [4, 4, 4],    # round 1: 12 against 12, a tie; rolled again
         [6, 5, 1, 1], [4, 4, 4],    # ... Sir Ann wins with a six
         [2, 2, 1, 1], [6, 6],       # round 2: the Ogre wins, two sixes
         [6, 6, 6], [1, 1]]          # round 3, rolled by the GM and taken back


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("log_look") / "raisus.sqlite")
    store = SQLiteStore(db)
    registry = RoomRegistry(store, dice_factory=lambda: ScriptedDice(list(ROLLS)))
    room, links = registry.create_room("Kitchen", gm_name="Gina")
    ann, ann_token = registry.join(links.player, "Ann")
    ann.act("create_character", name="Sir Ann", cliches=[{"name": "Knight", "rating": 4},
                                                         {"name": "Cook", "rating": 2}])
    gm = registry.open_session(links.gm)
    gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 3}])
    uids = {c.name: c.uid for c in room.characters}
    gm.act("start_contest", name="Kitchen brawl", side_a=[uids["Sir Ann"]], side_b=[uids["Ogre"]])
    ann.act("choose", unit=uids["Sir Ann"], cliche="Knight")
    for _ in range(2):
        gm.act("open_round")
        ann.act("roll_round")
    gm.act("open_round")
    gm.act("roll_round")
    gm.act("undo")
    colors = unit_colors(room.contest)
    store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    yield f"{server.url}/dashboard?token={ann_token}", uids, colors
    server.kill()


#: How the log's entries are drawn: per entry, its edge's colour, opacity, dice (text, filled or not)
#: and the swatch colour of each dice row.
LOOK = """(log) => Array.from(log.querySelectorAll('.raisus-log-entry')).map(entry => ({
  text: entry.querySelector('b').innerText,
  edge: getComputedStyle(entry).borderLeftColor,
  opacity: getComputedStyle(entry).opacity,
  rows: Array.from(entry.querySelectorAll('table.dice tr[style]')).map(tr => ({
    swatch: getComputedStyle(tr.querySelector('td'), '::before').backgroundColor,
    dice: Array.from(tr.querySelectorAll('.die, .die6')).map(d => [d.innerText, getComputedStyle(d).backgroundColor,
                                                                  getComputedStyle(d).textDecorationLine])})),
  ties: Array.from(entry.querySelectorAll('.tie')).map(x => x.innerText)}))"""


def rgb(color: str) -> str:
    return "rgb({}, {}, {})".format(*(int(color[i:i + 2], 16) for i in (1, 3, 5)))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_log_tab_draws_dice_and_colours_units(room, new_page, lang):
    url, uids, colors = room
    page = new_page(f"{url}&lang={lang}")
    guard = Guard(page)
    expect(page.locator(".raisus-room-title")).to_contain_text("Ann")
    page.locator(".bk-tab", has_text=tr("dashboard.tab.log", lang)).first.click()
    log = page.locator(".raisus-log").first
    expect(log.locator(".raisus-log-entry").first).to_be_visible()
    expect(log).to_contain_text(tr("roll.tie", lang))
    entries = {e["text"]: e for e in log.evaluate(LOOK)}
    ann, ogre = rgb(colors[uids["Sir Ann"]]), rgb(colors[uids["Ogre"]])
    six, plain = "rgb(26, 127, 55)", "rgb(255, 255, 255)"

    round_1 = entries[tr("log.round", lang, n=1, a="Sir Ann", b="Ogre")]
    assert round_1["edge"] == ann and round_1["ties"] == [tr("roll.tie", lang)]  # won by Sir Ann, after a tie
    assert [r["swatch"] for r in round_1["rows"]] == [ann, ogre]
    assert round_1["rows"][0]["dice"] == [[f, plain, "none"] for f in "3333"] + [
        ["6", six, "none"], ["5", plain, "none"], ["1", plain, "none"], ["1", plain, "none"]]
    round_2 = entries[tr("log.round", lang, n=2, a="Sir Ann", b="Ogre")]
    assert round_2["edge"] == ogre and [d[1] for d in round_2["rows"][1]["dice"]] == [six, six]
    round_3 = entries[tr("log.round", lang, n=3, a="Sir Ann", b="Ogre")]  # undone: faded, dice struck through
    assert float(round_3["opacity"]) < 1 and all(d[2] == "line-through" for r in round_3["rows"] for d in r["dice"])
    chose = entries[tr("log.chose", lang, unit="Sir Ann", cliche="Knight")]
    assert chose["edge"] == ann
    guard.check()
    shot_of(page.locator(".raisus-log").first, f"log-look-{lang}")
    shot(page, f"log-tab-{lang}")
