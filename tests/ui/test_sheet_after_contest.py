"""Issue 9: a player's sheet of a character that has been in a contest locks its clichés and dice.

The room refuses a player's change to them (tests/room/test_character_changes.py); the sheet shows
them locked with a note saying why, still lets the player rename and describe the character, and a
forged draft is refused in place with the room's reason, changing nothing.
"""

from __future__ import annotations

from raisus_panel.ui import Actions, CharacterSheet

from .conftest import brawl_in_room, click


def after_a_contest():
    gm, ann, room, olaf, pirate = brawl_in_room([[1, 1, 1, 1], [6, 6, 6]])
    gm.act("roll_round")
    return gm, ann, room, olaf


def test_a_players_sheet_locks_the_dice_once_the_character_has_been_in_a_contest():
    gm, ann, room, olaf = after_a_contest()
    sheet = CharacterSheet(character=olaf, actions=Actions(ann), lang="en")
    assert not sheet._locked_note.visible and not sheet._rows[0]["current"].disabled  # still in the contest
    gm.act("end_contest", outcome="Last orders")
    gm.act("close_contest")
    row = sheet._rows[0]
    assert row["current"].disabled and row["rating"].disabled and row["remove"].disabled and sheet._add.disabled
    assert sheet._locked_note.visible and "Olaf has been in a contest" in sheet._locked_note.object
    assert not sheet._name.disabled and not sheet._description.disabled
    sheet._description.value = "Sore but proud"
    click(sheet._save)
    assert olaf.description == "Sore but proud" and olaf.cliche("Viking").current == 3
    # a forged draft (a tampered page) is refused in place, and nothing changes
    seq = room.seq
    sheet._rows[0]["current"].value = 4
    assert sheet._save.disabled
    sheet.save()
    assert sheet._error.visible and "only the GM changes its clichés and dice" in sheet._error.object
    assert olaf.cliche("Viking").current == 3 and room.seq == seq


def test_the_gms_sheet_keeps_everything_open():
    gm, ann, room, olaf = after_a_contest()
    gm.act("end_contest", outcome="Last orders")
    gm.act("close_contest")
    sheet = CharacterSheet(character=olaf, actions=Actions(gm), lang="ko")
    assert not sheet._locked_note.visible and not sheet._rows[0]["current"].disabled
    sheet._rows[0]["current"].value = 4
    click(sheet._save)
    assert olaf.cliche("Viking").current == 4
    last = room.log[-1]
    assert last["type"] == "character_updated" and last["actor"]["role"] == "gm"
