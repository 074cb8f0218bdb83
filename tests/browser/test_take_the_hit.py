"""Issue 22: "Take the hit" pressed in Chromium. With the "leader assigns" option, right after her team
lost a round, Ann (who plays its leader) hands the hit on to Squire Tim from her own served page: the
leader gets her die back, Tim loses one, the log says so, and the button is greyed with its reason --
in English and Korean. The rolls are the room's own committed dice, rolled until the team loses. With
both her characters in the team, the team builder then says that no other team can form."""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t as tr
from raisus_panel.room import RoomRegistry, SQLiteStore
from raisus_panel.ui._contest_text import member_label

from .conftest import Server, shot
from .helpers import expect, truth


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("take_the_hit") / "raisus.sqlite")
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db}).start()
    yield server, db
    server.kill()


def team_just_lost(db: str, base: str) -> tuple[str, str, dict[str, str]]:
    """Ann's team (Sir Ann, Knight 4, leading Squire Tim, Squire 2) against the GM's Ogre (8), on the
    "leader assigns" option, rolled until the team has just lost a round: the room, Ann's URL, the uids."""
    store = SQLiteStore(db)
    try:
        registry = RoomRegistry(store)
        for _ in range(5):  # an Ogre of 8 against 5 dice loses its first rounds seldom; never 5 times in a row
            room, links = registry.create_room("Friday", gm_name="Gina")
            ann, token = registry.join(links.player, "Ann")
            for name, cliche, rating in (("Sir Ann", "Knight", 4), ("Squire Tim", "Squire", 2)):
                ann.act("create_character", name=name, cliches=[{"name": cliche, "rating": rating}])
            gm = registry.open_session(links.gm)
            gm.act("create_character", name="Ogre", cliches=[{"name": "Ogre", "rating": 8}])
            knight, tim, ogre = (c.uid for c in room.characters)
            gm.act("start_contest", name="Bridge", side_a=[knight, tim], side_b=[ogre],
                   profile={"team_loss": "leader_assigns"})
            ann.act("form_team", members=[[knight, "Knight"], [tim, "Squire"]], leader=knight)
            gm.act("choose", unit=ogre, cliche="Ogre")
            while room.contest.status == "active" and not ann.can("assign_loss", member=tim):
                gm.act("roll_round")
            if ann.can("assign_loss", member=tim):
                return room.room_id, f"{base}?token={token}", {"knight": knight, "tim": tim}
        raise AssertionError("the team never lost a round in five contests")
    finally:
        store.close()


def labels(db: str, room_id: str, lang: str) -> list[str]:
    """The team's member lines as the room stands now."""
    contest = truth(db, room_id).contest
    [team] = contest.sides[0]
    return [member_label(team, m, lambda key, **f: tr(key, lang, **f)) for m in team.members]


def currents(db: str, room_id: str, uids: dict[str, str]) -> tuple[int, int]:
    """Sir Ann's Knight and Tim's Squire dice in the contest, as the room stands now."""
    by_uid = {c.uid: c for c in truth(db, room_id).contest.characters()}
    return by_uid[uids["knight"]].cliche("Knight").current, by_uid[uids["tim"]].cliche("Squire").current


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_leader_hands_the_hit_on_from_her_own_page(served, new_page, lang):
    server, db = served
    room_id, url, uids = team_just_lost(db, f"{server.url}/dashboard")
    knight_before, tim_before = currents(db, room_id, uids)
    page = new_page(f"{url}&lang={lang}")
    card = page.locator(".raisus-unit-card").filter(has_text="Squire Tim")
    for line in labels(db, room_id, lang):
        expect(card).to_contain_text(line, timeout=30_000)
    take = tr("contest.assign_loss", lang)
    buttons = card.get_by_role("button", name=take, exact=True)
    expect(buttons).to_have_count(2)  # one per member row (pressed on her own row, the leader keeps the hit)
    tims = buttons.nth(1)
    expect(tims).to_be_enabled()
    shot(page, f"take-the-hit-before-{lang}")
    tims.click()
    for _ in range(100):  # the room has it once its store does
        if currents(db, room_id, uids) != (knight_before, tim_before):
            break
        page.wait_for_timeout(100)
    assert currents(db, room_id, uids) == (knight_before + 1, tim_before - 1)  # her die back, his lost
    for line in labels(db, room_id, lang):
        expect(card).to_contain_text(line, timeout=10_000)
    expect(tims).to_be_disabled()  # the hit is handed on once
    shot(page, f"take-the-hit-after-{lang}")
    # both her characters are in the team: the team builder says no other team can form (no empty list)
    page.get_by_role("button", name=tr("contest.teams", lang), exact=True).click()
    expect(page.get_by_text(tr("team.none_left", lang)).first).to_be_visible()
    pick_two = page.get_by_text(tr("team.pick_two", lang))
    expect(pick_two).to_have_count(2)  # in both sides' builders, but not shown
    assert [pick_two.nth(i).is_visible() for i in range(2)] == [False, False]
    shot(page, f"team-builder-none-left-{lang}")
    # and the log says who took it
    page.locator(".bk-tab", has_text=tr("dashboard.tab.log", lang)).first.click()
    said = tr("log.loss_assigned", lang, name="Squire Tim", n="")
    expect(page.locator(".raisus-log-entry").filter(has_text=said.split(":")[0]).first).to_be_visible()
