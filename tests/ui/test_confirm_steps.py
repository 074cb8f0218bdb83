"""Issue 21: one-click actions nobody can take back from their own page ask "Are you sure?" first
(ui/_confirm.py), and the New-contest form is never under a contest in play.

The step's own behaviour (Yes acts once, Cancel, closing when its action is no longer offered, a Yes on
a state that changed meanwhile refused by the room as stale) on a shared room with a GM and a player;
the served pages, in Chromium, are in tests/browser/test_confirm_steps.py.
"""

from __future__ import annotations

import panel as pn

from raisus_panel import i18n
from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.rules import ScriptedDice
from raisus_panel.ui import Actions, ContestTable
from raisus_panel.ui._confirm import ConfirmStep

from .conftest import click, team_vs_ogre
from .drivers import Screen


def team_room():
    """Ann plays Olaf and Tim, a team against the GM's Ogre; the GM's and Ann's tables."""
    gm = Room.local("Tavern", dice=ScriptedDice([[6, 6, 6, 6, 6], [1, 1]] * 4))
    room = gm.room
    ann = RoomSession(room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    for name, rating, owner in (("Olaf", 4, "p1"), ("Tim", 2, "p1"), ("Ogre", 2, "")):
        gm.act("save_character", data={"name": name, "owner": owner, "cliches": [{"name": name, "rating": rating}]})
    olaf, tim, ogre = room.characters
    gm.act("start_contest", name="Ogre fight", side_a=[olaf.uid, tim.uid], side_b=[ogre.uid])
    gm.act("form_team", members=[olaf.uid, tim.uid], leader=olaf.uid)
    gm_table, ann_table = ContestTable(actions=Actions(gm), lang="en"), ContestTable(actions=Actions(ann), lang="en")
    return gm, ann, room, (olaf, tim, ogre), gm_table, ann_table


def member_row(table, name):
    """The row of team member ``name`` on the team's card: its label and its buttons."""
    s = Screen(table)
    team = next(c for c in s.cards() if s.t("contest.disband") in [b.name for b in c.buttons()])
    return team.within(f"{name} — ")


def test_the_step_asks_first_acts_once_and_cancels():
    trigger, done = pn.widgets.Button(), []
    step = ConfirmStep(trigger, done.append)
    step.relabel("Remove Sam?", "Yes, remove Sam", "Cancel")
    assert not step.opened and not step.__panel__().visible
    click(trigger)
    s = Screen(step)
    assert step.opened and step.__panel__().visible and done == []
    assert s.answers == ("Yes, remove Sam", "Cancel") and s.question == "Remove Sam?"
    yes = s.button("Yes, remove Sam")
    click(yes)
    click(yes)  # a second press of the answered question (a double tap): nothing more
    assert done == [None] and not step.opened
    click(trigger)
    s.cancel()
    assert done == [None] and not step.__panel__().visible


def test_the_step_closes_when_its_action_is_no_longer_offered():
    trigger, done = pn.widgets.Button(), []
    step = ConfirmStep(trigger, done.append)
    click(trigger)
    yes = Screen(step).controls("button")[0]  # Yes, first on the line
    trigger.disabled = True  # the table moved on: the action is greyed out
    assert not step.opened and Screen(step).question is None
    click(yes)  # a press that was on its way
    click(trigger)  # a greyed trigger opens nothing
    assert done == [] and not step.opened


def test_the_question_is_escaped():
    step = ConfirmStep(pn.widgets.Button(), lambda seen: None)
    step.relabel("Remove <img src=x onerror=alert(1)>?", "Yes", "Cancel")
    markup = Screen(step).objects(hidden=True)[1].object  # the question, first on the line
    assert "<img" not in markup and "&lt;img" in markup


def test_dropping_out_asks_first_in_both_languages_and_names_the_member():
    gm, ann, room, (olaf, tim, ogre), gm_table, ann_table = team_room()
    s = Screen(ann_table)
    member_row(ann_table, "Tim").click(s.t("contest.drop_out"))
    assert s.question and not room.contest.is_dropped(tim)
    assert s.answers[0] == "Yes, Tim drops out" and "Tim" in s.question
    ann_table.lang = "ko"
    assert s.answers == ("네, Tim 탈퇴", "취소")
    assert s.question.startswith("Tim을 팀에서 뺄까요?")  # "Tim": 을 after a final consonant
    s.confirm()
    assert room.contest.is_dropped(tim)


def test_a_yes_on_a_state_that_changed_meanwhile_is_refused_by_the_room():
    """The Yes names the state of the first press: if the table moved on in between, the room says so."""
    gm, ann, room, (olaf, tim, ogre), gm_table, ann_table = team_room()
    s = Screen(ann_table)
    drop = s.t("contest.drop_out")
    member_row(ann_table, "Tim").click(drop)
    gm.act("open_round", open=True)  # the GM moves the table on while Ann reads the question
    s.confirm()
    assert not room.contest.is_dropped(tim)
    assert s.error and "The table changed" in s.error
    member_row(ann_table, "Tim").click(drop)  # asked again on what the page shows now: it goes through
    s.confirm()
    assert room.contest.is_dropped(tim)


def test_ending_asks_with_the_outcome_and_closing_asks_too():
    gm, ann, room, chars, gm_table, ann_table = team_room()
    s = Screen(gm_table)
    outcome, end, close = s.t("contest.outcome"), s.t("contest.end"), s.t("contest.close")
    s.type(outcome, "The inn burns")
    s.click(end)
    assert room.contest.status == "active" and s.question
    assert s.question == "End the contest now for everyone, as “The inn burns”?"
    s.type(outcome, "The inn stands")  # the question named the old outcome: asked again
    assert s.question is None
    s.click(end)
    s.confirm()
    assert room.contest.status == "ended" and room.contest.outcome == "The inn stands"
    s.click(close)
    assert room.contest is not None and s.question
    s.cancel()
    assert room.contest is not None and s.question is None
    s.click(close)
    s.confirm()
    assert room.contest is None


def test_the_new_contest_form_is_never_under_a_contest_in_play():
    """Issue 21: under a contest being played there is no form; under a finished one it is for the next."""
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre()
    table = ContestTable(actions=actions, lang="en")
    s = Screen(table)

    def form() -> Screen | None:
        """The new-contest form, if shown: the part holding the Start button."""
        start = s.controls("button", s.t("contest.start"))
        return s.within(s.t("contest.start")) if start else None

    assert form() is None
    table.lang = "ko"
    assert form() is None
    actions.act("end", outcome="Called off", winner=0)
    assert form() is not None
    heading, note = form().texts()[:2]
    assert "Next" not in heading and heading == i18n.t("contest.next", "ko")
    assert "Fight은(는) 닫히고" in note  # a Latin name: both forms
    table.lang = "en"
    heading, note = form().texts()[:2]
    assert "Next contest" in heading and "closes Fight" in note
