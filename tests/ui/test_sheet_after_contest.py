"""Issue 9: a player's sheet of a character that has been in a contest locks its clichés and dice.

The room refuses a player's change to them (tests/room/test_character_changes.py); the sheet shows
them locked with a note saying why, still lets the player rename and describe the character, and a
forged draft is refused in place with the room's reason, changing nothing.
"""

from __future__ import annotations

from raisus_panel.ui import Actions, CharacterSheet

from .conftest import brawl_in_room
from .drivers import Sheet


def after_a_contest():
    gm, ann, room, olaf, pirate = brawl_in_room([[1, 1, 1, 1], [6, 6, 6]])
    gm.act("roll_round")
    return gm, ann, room, olaf


def test_a_players_sheet_locks_the_dice_once_the_character_has_been_in_a_contest():
    gm, ann, room, olaf = after_a_contest()
    sheet = CharacterSheet(character=olaf, actions=Actions(ann), lang="en")
    s = Sheet(sheet)
    locked = "raisus-sheet-locked"
    assert s.marked(locked) is None and not s.cliche(0, "current").disabled  # still in the contest
    gm.act("end_contest", outcome="Last orders")
    gm.act("close_contest")
    # the dice are the GM's now: the cliché rows are not shown, the note says why once, with them in words
    assert not s.controls("number", s.t("sheet.current")) and not s.can_press(s.t("sheet.add_cliche"))
    assert all(s.cliche(0, f, hidden=True).disabled for f in ("current", "rating", "remove"))
    assert "Olaf has been in a contest" in s.marked(locked) and "Viking" in s.marked(locked)
    assert not s.textbox(s.t("sheet.name")).disabled and not s.textbox(s.t("sheet.description")).disabled
    s.type(s.t("sheet.description"), "Sore but proud")
    s.click(s.t("sheet.save"))
    assert olaf.description == "Sore but proud" and olaf.cliche("Viking").current == 3
    # a forged draft (a tampered page) is refused in place, and nothing changes
    seq = room.seq
    s.cliche(0, "current", hidden=True).value = 4
    assert s.save_button.disabled
    sheet.save()
    assert s.error and "only the GM changes its clichés and dice" in s.error
    assert olaf.cliche("Viking").current == 3 and room.seq == seq


def test_the_gms_sheet_keeps_everything_open():
    gm, ann, room, olaf = after_a_contest()
    gm.act("end_contest", outcome="Last orders")
    gm.act("close_contest")
    s = Sheet(CharacterSheet(character=olaf, actions=Actions(gm), lang="ko"))
    assert s.marked("raisus-sheet-locked") is None and not s.cliche(0, "current").disabled
    s.cliche(0, "current").value = 4
    s.click(s.t("sheet.save"))
    assert olaf.cliche("Viking").current == 4
    last = room.log[-1]
    assert last["type"] == "character_updated" and last["actor"]["role"] == "gm"
