"""Issue 21, "Rules and inputs": contest-only state after the end, rounds of an exchange contest,
refused winners, ratings and rosters of the wrong type, and names that hide or fake their letters;
and the volunteer window of "Medium 3" (the exact team of the report)."""

import pytest

from raisus_panel.rules import Character, CharacterTeam, Contest, RuleError, ScriptedDice

from .conftest import c, char


# -- the volunteer window (Medium 3): Gunnar (Skald 1) leads Brother Monk (Monk 1) ----------------
def gunnar_and_monk(rolls):
    gunnar, monk = char("Gunnar", Skald=1), char("Brother Monk", Monk=1)
    team = CharacterTeam([gunnar, monk], leader=gunnar)
    ogre = char("Ogre", Ogre=3)
    return gunnar, monk, team, Contest("Ogre fight", team, ogre, dice=ScriptedDice(rolls))


def test_a_lost_round_opens_the_window_before_the_leaders_hit_has_consequences():
    gunnar, monk, team, contest = gunnar_and_monk([[1, 1], [2, 2, 2]])
    events = contest.roll_round()
    assert [e["type"] for e in events] == ["round_decided"]  # no lost leader, no disband, no end yet
    assert contest.status == "active"
    window = contest.volunteer_window
    assert window["team"] == team.uid and window["leader_down"]
    assert contest.is_active(team) and c(monk) == 1
    assert contest.why_not_error("volunteer", monk) is None  # Monk is offered the window


def test_monk_volunteers_instead_of_the_leaders_hit():
    gunnar, monk, team, contest = gunnar_and_monk([[1, 1], [2, 2, 2]])
    contest.roll_round()
    contest.volunteer(monk)
    assert (c(gunnar), c(monk)) == (1, 0)  # the leader's hit is taken back; Monk loses 2 (only 1 left)
    assert contest.status == "active" and team.revenge and contest.volunteer_window is None


def test_only_when_nobody_volunteers_the_leader_falls_and_the_team_disbands():
    gunnar, monk, team, contest = gunnar_and_monk([[1, 1], [2, 2, 2]])
    contest.roll_round()
    events = contest.roll_round()  # the next round: nobody volunteered
    assert [e["type"] for e in events][:1] == ["team_disbanded"]
    assert contest.status == "ended" and contest.winner == 1


# -- contest-only state is gone at the end (RULES.md §3) -------------------------------------------
def test_a_pending_revenge_bonus_is_not_reported_after_the_end():
    knight, viking, monk = char("Knight", Knight=2), char("Viking", Viking=2), char("Monk", Monk=2)
    team = CharacterTeam([knight, viking, monk], leader=knight)
    contest = Contest("Troll bridge", team, char("Troll", Troll=6), dice=ScriptedDice([[1] * 4, [2] * 6]))
    contest.roll_round()
    contest.volunteer(knight)  # the leader falls volunteering: the revenge bonus waits for a new team
    assert contest.pending_revenge(0)
    contest.end("The troll lets them pass.", winner=None)
    assert not contest.pending_revenge(0) and not contest.pending_revenge(1)


def test_a_contest_decided_by_an_exchange_in_round_1_reports_1_round():
    viking, pirate, ogre = char("Viking", Viking=4), char("Pirate", Pirate=1), char("Ogre", Ogre=1)
    contest = Contest("Brawl", viking, [pirate, ogre], dice=ScriptedDice([[6] * 4, [1], [6] * 4, [1]]))
    contest.exchange(viking, pirate)
    assert contest.round == 0  # the round is not over yet
    contest.exchange(viking, ogre)
    assert contest.status == "ended" and contest.round == 1


@pytest.mark.parametrize("winner", [True, False, 2, "0"])
def test_end_refuses_a_winner_that_is_no_side(winner):
    contest = Contest("Brawl", char("Viking", Viking=4), char("Pirate", Pirate=3), dice=ScriptedDice())
    with pytest.raises(RuleError, match="side 0, side 1, or None") as refused:
        contest.end("It ended.", winner=winner)
    assert refused.value.key == "error.contest.winner"
    assert contest.status == "active" and contest.events[-1]["type"] == "contest_started"


# -- wrong types get a RuleError that says what to give -------------------------------------------
@pytest.mark.parametrize("cliches", [42, 4.5, object()])
def test_a_character_with_cliches_of_the_wrong_type_is_refused_clearly(cliches):
    with pytest.raises(RuleError, match=r"Give the clichés as a list") as refused:
        Character("Olaf", cliches)
    assert refused.value.key == "error.character.cliches_type"


@pytest.mark.parametrize("members", [5, "Olaf", None])
def test_a_team_of_the_wrong_type_is_refused_clearly(members):
    with pytest.raises(RuleError, match="list of characters") as refused:
        CharacterTeam(members)
    assert refused.value.key == "error.team.members_type"


# -- names that hide or fake their letters ---------------------------------------------------------
@pytest.mark.parametrize("name", ["Olaf\u2028the Bold", "Olaf\u2029Bold"])
def test_line_and_paragraph_separators_are_not_one_line(name):
    with pytest.raises(RuleError, match="one line") as refused:
        Character(name, {"Viking": 4})
    assert refused.value.key == "error.input.one_line"


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200c\u200d\u2060\ufeff", "G\u200bM", "Ann\u200b",
                                  "\u202eflO", "Olaf\u2066x\u2069", "\u3164"])
def test_invisible_and_direction_characters_are_refused(name):
    with pytest.raises(RuleError, match="invisible or text-direction") as refused:
        Character(name, {"Viking": 4})
    assert refused.value.key == "error.input.invisible"


@pytest.mark.parametrize("name", ["Ann\u034f", "\u034f", "Ann\ufe0f", "A\ufe00nn", "\ufe0f", "Ann\U000e0100",
                                  "G\u180bM", "Bob\u17b4", "\u2694\ufe0f\ufe0f", "아린\ufe0f"])
def test_marks_that_draw_nothing_are_refused(name):
    """Default-ignorable marks (category Mn, so not caught as format characters): the combining
    grapheme joiner, a variation selector where nothing takes one, Mongolian free variation selectors
    outside Mongolian, Khmer's inherent vowels. "Ann\u034f" draws exactly as "Ann"."""
    with pytest.raises(RuleError, match="invisible or text-direction") as refused:
        Character(name, {"Viking": 4})
    assert refused.value.key == "error.input.invisible"


@pytest.mark.parametrize("name", ["\u2694\ufe0f Knight", "Olaf \u2764\ufe0f", "\u263a\ufe0e", "\u1824\u180b",
                                  "\u845b\U000e0100"])
def test_a_variation_selector_that_picks_a_symbols_look_still_passes(name):
    """An emoji's presentation selector (⚔️ is U+2694 U+FE0F) and a Mongolian letter's variant draw
    what they select, as does a Han character's variant (葛 U+845B with U+E0100): a name typed from a
    phone's emoji keyboard still passes."""
    assert Character(name, {"Viking": 4}).name == name


@pytest.mark.parametrize("name", ["아린", "Sir Ann", "Ólafur", "Брат Монах"])
def test_names_in_any_script_still_pass(name):
    assert Character(name, {"Viking": 4}).name == name
