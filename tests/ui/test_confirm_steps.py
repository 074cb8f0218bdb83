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
from raisus_panel.rules import CharacterTeam, ScriptedDice
from raisus_panel.ui import Actions, ContestTable
from raisus_panel.ui._confirm import ConfirmStep

from .conftest import click, confirm, team_vs_ogre


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


def team_card(table):
    return next(c for uid, c in table._cards.items() if isinstance(_unit(table, uid), CharacterTeam))


def _unit(table, uid):
    return next(u for s in table.contest.sides for u in s if u.uid == uid)


def test_the_step_asks_first_acts_once_and_cancels():
    trigger, done = pn.widgets.Button(), []
    step = ConfirmStep(trigger, done.append)
    step.relabel("Remove Sam?", "Yes, remove Sam", "Cancel")
    assert not step.opened and not step.__panel__().visible
    click(trigger)
    assert step.opened and step.__panel__().visible and done == []
    assert step._yes.name == "Yes, remove Sam" and "Remove Sam?" in step._question.object
    click(step._yes)
    click(step._yes)  # a second press of the answered question (a double tap): nothing more
    assert done == [None] and not step.opened
    click(trigger)
    click(step._cancel)
    assert done == [None] and not step.__panel__().visible


def test_the_step_closes_when_its_action_is_no_longer_offered():
    trigger, done = pn.widgets.Button(), []
    step = ConfirmStep(trigger, done.append)
    click(trigger)
    trigger.disabled = True  # the table moved on: the action is greyed out
    assert not step.opened
    click(step._yes)
    click(trigger)  # a greyed trigger opens nothing
    assert done == [] and not step.opened


def test_the_question_is_escaped():
    step = ConfirmStep(pn.widgets.Button(), lambda seen: None)
    step.relabel("Remove <img src=x onerror=alert(1)>?", "Yes", "Cancel")
    assert "<img" not in step._question.object and "&lt;img" in step._question.object


def test_dropping_out_asks_first_in_both_languages_and_names_the_member():
    gm, ann, room, (olaf, tim, ogre), gm_table, ann_table = team_room()
    row = team_card(ann_table)["members"][tim.uid]
    click(row["drop"])
    step = row["drop_confirm"]
    assert step.opened and not room.contest.is_dropped(tim)
    assert step.yes_label == "Yes, Tim drops out" and "Tim" in step.question
    ann_table.lang = "ko"
    assert step.yes_label == "네, Tim 탈퇴" and step.cancel_label == "취소"
    assert step.question.startswith("Tim을 팀에서 뺄까요?")  # "Tim": 을 after a final consonant
    confirm(step)
    assert room.contest.is_dropped(tim)


def test_a_yes_on_a_state_that_changed_meanwhile_is_refused_by_the_room():
    """The Yes names the state of the first press: if the table moved on in between, the room says so."""
    gm, ann, room, (olaf, tim, ogre), gm_table, ann_table = team_room()
    row = team_card(ann_table)["members"][tim.uid]
    click(row["drop"])
    gm.act("open_round", open=True)  # the GM moves the table on while Ann reads the question
    confirm(row["drop_confirm"])
    assert not room.contest.is_dropped(tim)
    assert ann_table._error.visible and "The table changed" in ann_table._error.object
    click(row["drop"])  # asked again on what the page shows now: it goes through
    confirm(row["drop_confirm"])
    assert room.contest.is_dropped(tim)


def test_ending_asks_with_the_outcome_and_closing_asks_too():
    gm, ann, room, chars, gm_table, ann_table = team_room()
    gm_table._outcome.value = "The inn burns"
    click(gm_table._end)
    assert room.contest.status == "active" and gm_table._end_confirm.opened
    assert gm_table._end_confirm.question == "End the contest now for everyone, as “The inn burns”?"
    gm_table._outcome.value = "The inn stands"  # the question named the old outcome: asked again
    assert not gm_table._end_confirm.opened
    click(gm_table._end)
    confirm(gm_table._end_confirm)
    assert room.contest.status == "ended" and room.contest.outcome == "The inn stands"
    click(gm_table._close)
    assert room.contest is not None and gm_table._close_confirm.opened
    click(gm_table._close_confirm._cancel)
    assert room.contest is not None
    click(gm_table._close)
    confirm(gm_table._close_confirm)
    assert room.contest is None


def test_the_new_contest_form_is_never_under_a_contest_in_play():
    """Issue 21: under a contest being played there is no form; under a finished one it is for the next."""
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre()
    table = ContestTable(actions=actions, lang="en")
    assert not table._setup_box.visible
    table.lang = "ko"
    assert not table._setup_box.visible
    actions.act("end", outcome="Called off", winner=0)
    assert table._setup_box.visible
    assert "Next" not in table._setup_title.object and i18n.t("contest.next", "ko") in table._setup_title.object
    assert table._setup_note.visible and "Fight은(는) 닫히고" in table._setup_note.object  # a Latin name: both forms
    table.lang = "en"
    assert "Next contest" in table._setup_title.object and "closes Fight" in table._setup_note.object
