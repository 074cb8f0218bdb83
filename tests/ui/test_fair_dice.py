"""FairDice at the table: the commitment, a player's own client seed (made in their browser), the GM's
reveals -- each a command through the room, offered as the room answers, refused with nothing changed."""

from __future__ import annotations

from raisus_panel.room import Actor
from raisus_panel.rules import verify
from raisus_panel.ui import Actions, FairDice
from raisus_panel.ui.fair_dice import BrowserSeed

from .conftest import room_for_two
from .drivers import Screen

BROWSER_SEED = "0123456789abcdef0123456789abcdef"


def table():
    """A local room on committed dice (the rooms' default): the GM, and Ann who owns Olaf."""
    return room_for_two(committed=True)


def start(gm, olaf, spy):
    gm.act("start_contest", name="Duel", side_a=[olaf.uid], side_b=[spy.uid])
    gm.act("choose", unit=olaf.uid, cliche="Viking")
    gm.act("choose", unit=spy.uid, cliche="Spy")


class Fair(Screen):
    """The fair-dice card as a person sees it: the status, the seed box and its button, the GM's reveals."""

    @property
    def seed_box(self):
        return self.textbox(self.t("fair.your_seed"))

    @property
    def set_button(self):
        return self.button(self.t("fair.set_seed"))

    def browser_sends(self, seed: str) -> None:
        """What the page's BrowserSeed sends once it is drawn (it draws nothing: no look of its own)."""
        self.first(BrowserSeed).seed = seed


def events_of(room, kind):
    return [e["event"] for e in room.visible_events(Actor.gm()) if e["type"] == "contest"
            and e["event"]["type"] == kind]


def test_a_player_mixes_in_the_seed_their_browser_made():
    gm, ann, olaf, spy = table()
    fair = Fair(FairDice(actions=Actions(ann), lang="en"))
    assert fair.shows("When a contest starts, the server commits")
    assert fair.seed_box.disabled and fair.set_button.disabled
    fair.browser_sends(BROWSER_SEED)
    start(gm, olaf, spy)
    commitment = gm.room.contest.dice_commitment["commitment"]
    assert fair.shows(f"SHA-256 of the secret seed {commitment[:16]}…")
    assert fair.seed_box.value == BROWSER_SEED and not fair.seed_box.disabled and not fair.set_button.disabled
    fair.click(fair.t("fair.set_seed"))
    event = events_of(gm.room, "client_seed_set")[-1]
    assert (event["who"], event["seed"]) == ("p1", BROWSER_SEED)
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == BROWSER_SEED
    assert fair.success and BROWSER_SEED in fair.success and "is mixed into the dice" in fair.success
    # the first roll fixes it: the field shows the seed in force, the button says why not
    gm.act("roll_round")
    assert fair.seed_box.disabled and fair.seed_box.value == BROWSER_SEED and fair.set_button.disabled
    assert "client seeds are fixed" in fair.reason(fair.t("fair.set_seed"))
    # the help is said under the greyed field, not twice
    assert "this is the seed of yours they use" in fair.seed_box.why and not fair.shows("this is the seed of yours they use")


def test_words_of_their_own_and_a_seed_that_is_refused_changes_nothing():
    gm, ann, olaf, spy = table()
    fair = Fair(FairDice(actions=Actions(ann), lang="en"))
    start(gm, olaf, spy)
    fair.type(fair.t("fair.your_seed"), "비 오는 화요일")          # typed in the page
    fair.click(fair.t("fair.set_seed"))
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == "비 오는 화요일"
    before = len(gm.room.visible_events(Actor.gm()))
    fair.type(fair.t("fair.your_seed"), "two\nlines")
    fair.click(fair.t("fair.set_seed"))
    assert fair.error and len(gm.room.visible_events(Actor.gm())) == before
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == "비 오는 화요일"


def test_the_gm_reveals_the_dice_early_and_the_checks_seed():
    gm, ann, olaf, spy = table()
    fair = Fair(FairDice(actions=Actions(gm), lang="en"))
    assert not fair.controls("text", hidden=True)  # the GM sets no seed of their own here
    reveal, reveal_checks = fair.t("fair.reveal_dice"), fair.t("fair.reveal_checks")
    assert not fair.can_press(reveal) and not fair.can_press(reveal_checks)
    start(gm, olaf, spy)
    gm.act("roll_round")
    assert fair.can_press(reveal)
    fair.click(reveal)
    assert events_of(gm.room, "dice_revealed") and fair.shows("The seed is revealed")
    assert [c.status for c in verify(gm.room) if c.kind == "contest"] == ["verified"]
    assert not fair.can_press(reveal)             # nothing left to reveal until the next roll commits again
    gm.act("action_check", character=olaf.uid, cliche="Viking", tn=10)
    assert fair.can_press(reveal_checks)
    fair.click(reveal_checks)
    assert [c.status for c in verify(gm.room) if c.kind == "checks"] == ["verified"]
    assert not fair.can_press(reveal_checks)


def test_a_player_cannot_reveal_and_the_texts_are_korean_by_default():
    gm, ann, olaf, spy = table()
    component = FairDice(actions=Actions(ann))
    fair = Fair(component)
    assert not fair.controls("button", fair.t("fair.reveal_dice"), hidden=True)
    assert fair.title == "공정한 주사위" and fair.has("button", "내 씨앗 섞기")
    start(gm, olaf, spy)
    assert fair.shows("주사위가 약속되었습니다")
    component.lang = "en"
    assert fair.title == "Fair dice" and fair.shows("The dice are committed")


def test_the_browsers_seed_is_mixed_in_by_itself_once_and_never_over_the_players_own(served):
    # a served page (its redraws and the mixing in run on its ticks, ``served.run()``)
    gm, ann, olaf, spy = table()
    component = FairDice(actions=Actions(ann), lang="en")
    fair = Fair(component)
    fair.browser_sends(BROWSER_SEED)
    served.run()                                  # no contest yet: nothing to mix into
    assert not events_of(gm.room, "client_seed_set")
    start(gm, olaf, spy)
    served.run()                                  # the contest commits: the page mixes the browser's seed in
    gm.act("choose", unit=olaf.uid, cliche="Viking")  # another change of the same commitment: not again
    served.run()
    assert [(e["who"], e["seed"]) for e in events_of(gm.room, "client_seed_set")] == [("p1", BROWSER_SEED)]
    assert fair.shows("your browser made it at random")
    gm.act("end_contest", outcome="Called off.")
    gm.act("start_contest", name="Rematch", side_a=[olaf.uid], side_b=[spy.uid])
    served.tick()                                 # the page shows the commitment; its mixing in is next
    fair.type(fair.t("fair.your_seed"), "my own words")
    fair.click(fair.t("fair.set_seed"))           # the player is quicker
    served.run()                                  # the player's own seed stays
    assert gm.room.contest.dice_commitment["client_seeds"]["p1"] == "my own words"
    gm.act("end_contest", outcome="Called off.")
    gm.act("start_contest", name="Third", side_a=[olaf.uid], side_b=[spy.uid])
    served.tick()
    gm.act("roll_round")                          # the first roll comes before the mixing in
    before = len(gm.room.visible_events(Actor.gm()))
    served.run()                                  # too late: refused quietly, nothing changed
    assert len(gm.room.visible_events(Actor.gm())) == before and fair.error is None


def test_in_a_notebook_the_revealed_card_points_at_what_the_notebook_has():
    """Issue 22 (13 in JupyterLab): once revealed, the card sent a learner to "the Log tab", which a
    notebook has not. It names the round log, and a RoundLog on the same table shows the check."""
    from raisus_panel.i18n import t
    from raisus_panel.rules import Character, CommittedDice, Contest
    from raisus_panel.ui import RoundLog

    for lang in ("en", "ko"):
        game = Contest("Duel", Character("Olaf", {"Viking": 4}), Character("Jack", {"Pirate": 3}), dice=CommittedDice())
        actions = Actions.local(game)
        fair, log = Fair(FairDice(actions=actions, lang=lang)), Screen(RoundLog(actions=actions, lang=lang))
        actions.act("roll_round")
        fair.click(t("fair.reveal_dice", lang))
        assert fair.shows(t("fair.revealed", lang))
        assert t("log.title", lang).lower() in t("fair.revealed", lang).lower()  # "round log", "라운드 기록"
        assert "Log tab" not in t("fair.revealed", lang) and "기록 탭" not in t("fair.revealed", lang)
        [check] = verify(game)
        assert check.status == "verified" and log.shows(t("log.dice_verified", lang, rolls=check.rolls, dice=check.dice))
