"""FairDice at the table: the commitment, a player's own client seed (made in their browser), the GM's
reveals -- each a command through the room, offered as the room answers, refused with nothing changed."""

from __future__ import annotations

from raisus_panel.room import Actor
from raisus_panel.rules import verify
from raisus_panel.ui import Actions, FairDice

from .conftest import click, room_for_two

BROWSER_SEED = "0123456789abcdef0123456789abcdef"


def table():
    """A local room on committed dice (the rooms' default): the GM, and Ann who owns Olaf."""
    return room_for_two(committed=True)


def start(gm, olaf, spy):
    gm.act("start_contest", name="Duel", side_a=[olaf.uid], side_b=[spy.uid])
    gm.act("choose", unit=olaf.uid, cliche="Viking")
    gm.act("choose", unit=spy.uid, cliche="Spy")


def events_of(room, kind):
    return [e["event"] for e in room.visible_events(Actor.gm()) if e["type"] == "contest"
            and e["event"]["type"] == kind]


def test_a_player_mixes_in_the_seed_their_browser_made():
    gm, ann, olaf, spy = table()
    fair = FairDice(actions=Actions(ann), lang="en")
    assert "When a contest starts, the server commits" in fair._status.object
    assert fair._seed.disabled and fair._set.disabled
    fair._browser.seed = BROWSER_SEED          # what the page's BrowserSeed sends once drawn
    start(gm, olaf, spy)
    commitment = gm.room.contest.dice_commitment["commitment"]
    assert f"SHA-256 of the secret seed {commitment[:16]}…" in fair._status.object
    assert fair._seed.value == BROWSER_SEED and not fair._seed.disabled and not fair._set.disabled
    click(fair._set)
    event = events_of(gm.room, "client_seed_set")[-1]
    assert (event["who"], event["seed"]) == ("p1", BROWSER_SEED)
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == BROWSER_SEED
    assert fair._info.visible and BROWSER_SEED in fair._info.object and "is mixed into the dice" in fair._info.object
    # the first roll fixes it: the field shows the seed in force, the button says why not
    gm.act("roll_round")
    assert fair._seed.disabled and fair._seed.value == BROWSER_SEED and fair._set.disabled
    assert "client seeds are fixed" in fair._set.title
    assert "this is the seed of yours they use" in fair._seed.why and not fair._help.visible  # said under the field


def test_words_of_their_own_and_a_seed_that_is_refused_changes_nothing():
    gm, ann, olaf, spy = table()
    fair = FairDice(actions=Actions(ann), lang="en")
    start(gm, olaf, spy)
    fair._seed.value_input = "비 오는 화요일"          # typed in the page
    click(fair._set)
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == "비 오는 화요일"
    before = len(gm.room.visible_events(Actor.gm()))
    fair._seed.value_input = "two\nlines"
    click(fair._set)
    assert fair._error.visible and len(gm.room.visible_events(Actor.gm())) == before
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == "비 오는 화요일"


def test_the_gm_reveals_the_dice_early_and_the_checks_seed():
    gm, ann, olaf, spy = table()
    fair = FairDice(actions=Actions(gm), lang="en")
    assert not hasattr(fair, "_seed")             # the GM sets no seed of their own here
    assert fair._reveal.disabled and fair._reveal_checks.disabled
    start(gm, olaf, spy)
    gm.act("roll_round")
    assert not fair._reveal.disabled
    click(fair._reveal)
    assert events_of(gm.room, "dice_revealed") and "The seed is revealed" in fair._status.object
    assert [c.status for c in verify(gm.room) if c.kind == "contest"] == ["verified"]
    assert fair._reveal.disabled                  # nothing left to reveal until the next roll commits again
    gm.act("action_check", character=olaf.uid, cliche="Viking", tn=10)
    assert not fair._reveal_checks.disabled
    click(fair._reveal_checks)
    assert [c.status for c in verify(gm.room) if c.kind == "checks"] == ["verified"]
    assert fair._reveal_checks.disabled


def test_a_player_cannot_reveal_and_the_texts_are_korean_by_default():
    gm, ann, olaf, spy = table()
    fair = FairDice(actions=Actions(ann))
    assert not hasattr(fair, "_reveal")
    assert fair._card.title == "공정한 주사위" and fair._set.name == "내 씨앗 섞기"
    start(gm, olaf, spy)
    assert "주사위가 약속되었습니다" in fair._status.object
    fair.lang = "en"
    assert fair._card.title == "Fair dice" and "The dice are committed" in fair._status.object


def test_the_browsers_seed_is_mixed_in_by_itself_once_and_never_over_the_players_own():
    gm, ann, olaf, spy = table()
    fair = FairDice(actions=Actions(ann), lang="en")
    fair._browser.seed = BROWSER_SEED
    fair._mix_in_browser_seed()                   # no contest yet: nothing to mix into
    assert not events_of(gm.room, "client_seed_set")
    start(gm, olaf, spy)
    fair._mix_in_browser_seed()                   # what a served page runs when a contest commits
    fair._mix_in_browser_seed()
    assert [(e["who"], e["seed"]) for e in events_of(gm.room, "client_seed_set")] == [("p1", BROWSER_SEED)]
    assert "your browser made it at random" in fair._help.object
    gm.act("end_contest", outcome="Called off.")
    gm.act("start_contest", name="Rematch", side_a=[olaf.uid], side_b=[spy.uid])
    fair._seed.value_input = "my own words"
    click(fair._set)
    fair._mix_in_browser_seed()                   # the player's own seed stays
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == "my own words"
    gm.act("end_contest", outcome="Called off.")
    gm.act("start_contest", name="Third", side_a=[olaf.uid], side_b=[spy.uid])
    gm.act("roll_round")
    before = len(gm.room.visible_events(Actor.gm()))
    fair._mix_in_browser_seed()                   # too late: refused quietly, nothing changed
    assert len(gm.room.visible_events(Actor.gm())) == before and not fair._error.visible
