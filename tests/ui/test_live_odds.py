"""LiveOdds: exact odds from the contest's state after every round, drawn over the rounds."""

from __future__ import annotations

import logging
import math

import pytest
from bokeh.models import HoverTool, Legend, Line, Step

from raisus_panel.i18n import t
from raisus_panel.rules import Character, CharacterTeam, Contest, GruntMob, RulesProfile, ScriptedDice, odds
from raisus_panel.ui import Actions, LiveOdds, contest_chances

from .conftest import duel, free_trio_vs_ogre, room_for_two, team_vs_ogre


def words(live: LiveOdds) -> str:
    """The odds in words, first in the view (its markup)."""
    return live.__panel__().objects[0].object


def chart(live: LiveOdds):
    """What the plot shows: the figure, or with ``picture=True`` the one pane's picture (its markup)."""
    view = live.__panel__()
    return view.object if live.picture else view.objects[1].object


def key_of(live: LiveOdds) -> str:
    """The key under the plot (its markup)."""
    return live.__panel__().objects[2].object


def test_odds_after_every_round():
    rolls = [[6, 5, 1, 1], [4, 4, 4], [1, 1, 1, 1], [6, 6]]
    contest, actions, viking, pirate = duel(rolls=rolls)
    live = LiveOdds(actions=actions)
    assert live.chances.p_win == pytest.approx(float(odds.contest_odds(4, 3).p_win))
    assert live.chances.p_next == pytest.approx(float(odds.round_chance(4, 3)))
    actions.act("roll_round")  # Pirate 2
    assert live.chances.p_win == pytest.approx(float(odds.contest_odds(4, 2).p_win))
    actions.act("roll_round")  # Viking 3
    assert live.chances.p_win == pytest.approx(float(odds.contest_odds(3, 2).p_win))
    assert live.source.data["x"] == [0.0, 1.0, 2.0]
    assert live.source.data["p_win"] == pytest.approx(
        [float(odds.contest_odds(*s).p_win) for s in ((4, 3), (4, 2), (3, 2))])
    assert "%" in words(live)


def test_team_bonus_and_revenge():
    rolls = [[1] * 6, [2] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    live = LiveOdds(actions=actions)
    assert live.chances.p_win == pytest.approx(float(odds.contest_odds(4, 8, a_bonus=2).p_win))
    assert live.chances.pools == (6, 8)
    actions.act("roll_round")
    actions.act("volunteer", member=viking.uid)  # Knight back to 4, Viking down, revenge armed
    expected = odds.contest_odds(4, 8, a_bonus=1, a_revenge=True)
    assert live.chances.p_win == pytest.approx(float(expected.p_win))
    assert live.chances.p_next == pytest.approx(float(odds.round_chance(9, 8)))


def test_inappropriate_damage():
    cook, king = Character("Cook", {"Cook": 3}), Character("Demon King", {"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, king, dice=ScriptedDice([]))
    actions = Actions.local(contest)
    live = LiveOdds(actions=actions)
    actions.act("choose", unit=cook.uid, cliche="Cook", appropriate=False, approved=True)
    assert live.chances.p_win == pytest.approx(float(odds.contest_odds(3, 4, a_damage=3).p_win))
    profile = RulesProfile(inappropriate_damage="vs_appropriate")
    both = Contest("Bout", Character("A", {"A": 3}), Character("B", {"B": 3}), profile=profile)
    for u in both.characters():
        both.choose(u, u.name, appropriate=False, approved=True)
    assert contest_chances(both).p_win == pytest.approx(0.5)


def test_single_roll_and_ended():
    contest, actions, a, b = duel(a=("Gunslinger", 3), b=("Outlaw", 2), rolls=[[5, 4, 2], [6, 3]],
                                  single_roll=True)
    live = LiveOdds(actions=actions)
    assert live.chances.p_win == pytest.approx(float(odds.round_chance(3, 2)))
    actions.act("roll_round")
    assert live.chances.mode == "ended" and live.chances.p_win == 1.0
    assert live.source.data["p_win"][-1] == 1.0


def test_exchanges_list_every_pair():
    contest, actions, (knight, viking, squire, ogre) = free_trio_vs_ogre()
    live = LiveOdds(actions=actions, lang="en")
    assert live.chances.mode == "exchanges"
    assert {(a, b) for a, b, _ in live.chances.pairs} == {(c.uid, ogre.uid) for c in (knight, viking, squire)}
    p = dict(((a, b), p) for a, b, p in live.chances.pairs)[(knight.uid, ogre.uid)]
    assert p == pytest.approx(float(odds.round_chance(4, 8)))
    assert "Knight against Ogre" in words(live)
    assert math.isnan(live.source.data["p_win"][0])


def test_unrated_cases_say_why():
    profile = RulesProfile(team_dice="member_sixes")
    knight, viking = Character("Knight", {"Knight": 3}), Character("Viking", {"Viking": 2})
    contest = Contest("Fight", CharacterTeam([knight, viking]), Character("Ogre", {"Ogre": 4}), profile=profile)
    live = LiveOdds(actions=Actions.local(contest), lang="en")
    assert live.chances.mode == "unavailable" and "sixes" in words(live)
    a = Character("Adventurer", {"Viking": 4, "Cook": 2})
    choose = Contest("Fight", a, Character("Guard", {"Guard": 5}))
    assert contest_chances(choose).p_win is None  # no cliché chosen yet


def test_odds_change_without_a_new_point_patch_the_last_row():
    cook, king = Character("Cook", {"Cook": 3}), Character("Demon King", {"Demon King": 4})
    contest = Contest("Bout", cook, king, dice=ScriptedDice([[6, 6, 5], [3, 3, 3, 3]]))
    actions = Actions.local(contest)
    live = LiveOdds(actions=actions)
    actions.act("choose", unit=cook.uid, cliche="Cook", appropriate=False)
    source = live.source
    n = len(source.data["x"])
    actions.act("approve", unit=cook.uid)  # no history point, but the odds do not change either
    assert live.source is source and len(source.data["x"]) == n
    actions.act("roll_round")
    assert len(source.data["x"]) == n + 1
    actions.act("undo")
    assert len(live.source.data["x"]) == n
    assert live.source.data["p_win"][-1] == pytest.approx(float(odds.contest_odds(3, 4, a_damage=3).p_win))


def odds_rows(live) -> list[tuple]:
    data = live.source.data
    return list(zip(data["x"], data["p_win"], data["p_next"], data["what"]))


def same(a, b) -> bool:
    """Rows equal, NaN equal to NaN."""
    return len(a) == len(b) and all(len(r) == len(s) and all(
        x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
        for x, y in zip(r, s)) for r, s in zip(a, b))


def test_between_round_events_are_steps_not_spikes():
    rolls = [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    live = LiveOdds(actions=actions, lang="en")
    actions.act("roll_round")  # the team loses: the Knight is hit, until someone volunteers
    actions.act("volunteer", member=viking.uid)
    actions.act("roll_round")
    fig = chart(live)
    lines = [r.glyph for r in fig.renderers if isinstance(r.glyph, (Step, Line))]
    # a chance holds from its point to the next one: drawn as steps, there is no slope between a
    # round and the event after it, so no spike
    assert [(type(g), g.mode, g.y) for g in lines] == [(Step, "after", "p_win"), (Step, "after", "p_next"),
                                                       (Step, "after", "p_exchange")]
    xs = live.source.data["x"]
    assert xs == [0.0, 1.0, 1.5, 2.0]
    win = live.source.data["p_win"]
    assert win[1] == pytest.approx(float(odds.contest_odds(3, 8, a_bonus=2).p_win))  # Knight hit
    assert win[2] == pytest.approx(float(odds.contest_odds(4, 8, a_bonus=1, a_revenge=True).p_win))
    assert live.source.data["what"][2] == "Viking volunteers for Knight+Viking+Squire"
    tips = [dict(h.tooltips) for h in fig.select(type=HoverTool)]
    # the hover says what happened (a second hover is on the exchange dots: see the exchanges test)
    assert len(tips) == 2 and all("@what" in tip.values() for tip in tips)


def test_a_page_opened_late_draws_the_odds_as_they_were():
    rolls = [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8, [6] * 5, [1] * 7]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    watching = LiveOdds(actions=actions, lang="en")
    for command, args in [("roll_round", {}), ("volunteer", {"member": viking.uid}), ("roll_round", {}),
                          ("roll_round", {})]:
        actions.act(command, **args)
    late = LiveOdds(actions=actions, lang="en")
    assert same(odds_rows(late), odds_rows(watching))
    assert len(set(late.source.data["p_win"])) > 2  # not today's odds repeated at every point
    actions.act("undo")
    assert same(odds_rows(LiveOdds(actions=actions, lang="en")), odds_rows(watching))
    assert len(watching.source.data["x"]) == len(contest.history)


def test_one_replay_serves_every_page(monkeypatch):
    replays = []
    original = Contest.from_events.__func__

    def counted(cls, events, **kwargs):
        replays.append(len(events))
        return original(cls, events, **kwargs)
    monkeypatch.setattr(Contest, "from_events", classmethod(counted))
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4], [1, 1, 1, 1], [6, 6]])
    actions.act("roll_round")
    pages = [LiveOdds(actions=actions, lang=lang) for lang in ("en", "ko", "en")]
    assert replays == [1]  # the first page replays the log once; the others reuse it
    actions.act("roll_round")
    assert replays == [1]  # a new event moves the kept copy on, it is not replayed again
    assert all(len(p.source.data["x"]) == 3 for p in pages)


def test_the_key_is_under_the_odds_plot():
    contest, actions, viking, pirate = duel()
    live = LiveOdds(actions=actions, lang="ko")
    fig = chart(live)
    assert not fig.legend and not [m for m in (*fig.left, *fig.right, *fig.center) if isinstance(m, Legend)]
    text, plot, key = live.__panel__().objects  # the words, the plot, and under it the key
    assert plot.object is fig and "%" in text.object
    assert "대결 승리" in key.object and "다음 라운드 승리" in key.object
    assert 'stroke-dasharray="5,3"' in key.object  # the next round's chance: dashed, as its line


def test_a_room_without_a_contest_changes_without_drawing_anything(caplog):
    gm, ann, olaf, spy = room_for_two()
    actions = Actions(gm)
    live = LiveOdds(actions=actions, lang="en")
    source = live.source
    actions.act("save_character", data={"name": "Bard", "cliches": [{"name": "Bard", "rating": 2}]})  # a new seq
    assert live.chances.mode == "none" and live.source is source and source.data["x"] == []
    assert "No contest yet" in words(live)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # the refresh did not fail


def test_the_odds_say_they_assume_nobody_switches_cliche():
    """Issue 21 (low): the live odds are of the clichés chosen now; the text says so while the contest runs."""
    from raisus_panel.rules import Character, Contest, ScriptedDice
    from raisus_panel.ui import Actions, LiveOdds

    contest = Contest("Brawl", Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3}),
                      dice=ScriptedDice([]))
    odds_view = LiveOdds(actions=Actions.local(contest), lang="en")
    assert "assume nobody switches cliché" in words(odds_view)


def test_in_exchanges_the_chart_draws_side_as_chance_in_an_exchange():
    """Issue 22: with several units on a side (05, 07) the odds chart stayed empty: no chance of the
    contest or of the next round is defined while the GM orders the exchanges. It draws side A's
    chance of winning an exchange between a pair picked at random, and its key says so."""
    from raisus_panel.rules import odds

    knight, bard = Character("Knight", {"Knight": 4}), Character("Bard", {"Bard": 2})
    goblins = GruntMob("Goblins", 5)
    contest = Contest("Raid", [knight, bard], goblins, dice=ScriptedDice([[6, 6, 6, 6], [1] * 5]))
    actions = Actions.local(contest)
    for picture in (False, True):
        live = LiveOdds(actions=actions, lang="en", picture=picture)
        want = (float(odds.round_chance(4, 5)) + float(odds.round_chance(2, 5))) / 2
        assert live.chances.mode == "exchanges" and abs(live.chances.p_exchange - want) < 1e-12
        key = t("odds.p_exchange_short", "en")
        if picture:
            assert key in chart(live) and f"{key} {want:.1%}" in chart(live)
        else:
            assert live.source.data["p_exchange"] == [want] and key in key_of(live)
    actions.act("exchange", attacker=knight.uid, target=goblins.uid)
    live = LiveOdds(actions=actions, lang="en")
    actions.act("end_round")
    data = live.source.data
    assert len(data["p_exchange"]) >= 2 and not any(math.isnan(v) for v in data["p_exchange"])
