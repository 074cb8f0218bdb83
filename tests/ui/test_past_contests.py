"""PastContests: closed contests stay in the room, with their result, fates and log."""

from __future__ import annotations

from raisus_panel.room import Actor, RoomSession
from raisus_panel.rules import Character, Contest, ScriptedDice
from raisus_panel.ui import Actions, PastContests

from .drivers import Screen


def played_room():
    """A room whose first contest, "<b>Brawl</b>", was won by Olaf and closed with a fate."""
    olaf, jack = Character("Olaf", {"Viking": 4}), Character("Jack <i>", {"Pirate": 1})
    game = Contest("<b>Brawl</b>", olaf, jack, dice=ScriptedDice([[6, 6, 6, 6], [1]]))
    actions = Actions.local(game)
    actions.act("roll_round")
    actions.act("decide_fate", character=jack.uid, text="Swims home")
    return actions, olaf, jack


def test_a_closed_contest_is_listed_with_its_result_and_log():
    actions, olaf, jack = played_room()
    past = PastContests(actions=actions, lang="en")
    s = Screen(past)
    pick = s.t("past.pick")
    assert s.shows("No contest has been closed") and not s.has("select", pick)
    actions.act("close_contest")
    assert actions.contest is None
    shown = s.html()
    assert "&lt;b&gt;Brawl&lt;/b&gt;" in shown and "<b>Brawl</b>" not in shown  # typed text is text
    assert "Winner: Side A" in shown and "Swims home" in shown and "Jack &lt;i&gt;" in shown
    assert s.has("select", pick) and s.select(pick).value == ""
    (choice,) = [o for o in s.options(pick) if "Brawl" in o]
    s.choose(pick, choice)
    log = past.log
    headings = [h for h, _ in log.entries()]
    assert any("Round 1" in h for h in headings) and ("Fate of Jack <i>", ["Swims home"]) in log.entries()
    assert olaf in actions.room.characters and log.contest.characters()[0] is not olaf  # a copy


def test_spectators_see_past_contests_in_their_language():
    actions, *_ = played_room()
    actions.act("close_contest")
    watcher = Actions(RoomSession(actions.room, Actor.spectator()))
    s = Screen(PastContests(actions=watcher, lang="ko"))
    assert "지난 대결" in s.texts()[0] and s.shows("승리")
