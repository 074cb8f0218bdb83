"""CharacterSheet: editing, validation in place, saving through the adapter, JSON in and out."""

from __future__ import annotations

import json

from raisus_panel.rules import Character, GruntMob
from raisus_panel.ui import CharacterSheet, Actions
from raisus_panel.ui._base import hint

from .conftest import click, duel, room_for_two


def test_new_character_is_validated_and_saved():
    actions = Actions()
    sheet = CharacterSheet(actions=actions, lang="en")
    assert not sheet._error.visible  # an empty form is not an error yet
    sheet._name.value = "Olaf"
    sheet._rows[0]["name"].value = "Viking"
    sheet._rows[0]["rating"].value = 4
    assert sheet._rows[0]["current"].value == 4  # an untouched current follows the rating
    assert not sheet._error.visible and not sheet._save.disabled
    click(sheet._add)
    sheet._rows[1]["name"].value = "Viking"  # duplicate: the rules' message appears in place
    assert sheet._error.visible and "Viking" in sheet._error.object and sheet._save.disabled
    sheet._rows[1]["name"].value = "Swashbuckler"
    sheet._rows[1]["rating"].value = 2
    assert not sheet._error.visible
    click(sheet._save)
    olaf = sheet.character
    assert olaf in actions.characters
    assert olaf.cliche("Viking").rating == 4 and olaf.cliche("Swashbuckler").current == 2
    assert "Saved" in sheet._info.object


def test_bad_values_show_the_rule_error_not_a_traceback():
    sheet = CharacterSheet(lang="en")
    sheet._name.value = "Olaf"
    sheet._rows[0]["name"].value = "Viking"
    sheet._rows[0]["rating"].value = 3
    sheet._rows[0]["current"].value = 5  # above the rating
    assert sheet._error.visible and sheet._save.disabled
    assert "Traceback" not in sheet._error.object
    assert sheet.save() is None
    click(sheet._rows[0]["remove"])
    assert "at least one cliché" in sheet._error.object


def test_editing_updates_the_same_character():
    olaf = Character("Olaf", {"Viking": 4})
    actions = Actions.local(olaf)
    sheet = CharacterSheet(character=olaf, actions=actions)
    assert sheet._name.value == "Olaf" and sheet._rows[0]["rating"].value == 4
    sheet._description.value = "Never ready"
    sheet._rows[0]["current"].value = 2
    saved = sheet.save()
    assert saved is olaf and olaf.description == "Never ready" and olaf.cliche("Viking").current == 2
    assert actions.characters == [olaf]


def test_a_character_in_a_running_contest_cannot_be_edited():
    contest, actions, viking, pirate = duel()
    sheet = CharacterSheet(character=viking, actions=actions)
    sheet._name.value = "Eric"
    assert sheet.save() is None and sheet._error.visible and viking.name == "Viking"


def test_scores_follow_the_contest_while_not_editing():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    sheet = CharacterSheet(character=pirate, actions=actions)
    actions.act("roll_round")
    assert sheet._rows[0]["current"].value == 2


def test_grunt_mob():
    actions = Actions()
    sheet = CharacterSheet(actions=actions)
    sheet._kind.value = "grunt_mob"
    assert sheet._mob_box.visible and len(sheet._rows) == 1 and sheet._add.disabled
    sheet._name.value = "700 Skeletal Rats"
    sheet._rows[0]["name"].value = "700 Skeletal Rats"
    sheet._rows[0]["rating"].value = 7
    sheet._count.value = 700
    mob = sheet.save()
    assert isinstance(mob, GruntMob) and mob.count == 700 and mob.cliches[0].rating == 7
    sheet._member_rating.value = 1
    sheet._rows[0]["rating"].value = 0  # a mob is rated at least 1
    assert sheet._error.visible


def test_export_and_import_json():
    olaf = Character("올라프", {"바이킹": 4, "검객": 2}, description="준비 안 됨")
    sheet = CharacterSheet(character=olaf)
    text = sheet._export_json().read()
    data = json.loads(text)
    assert data["name"] == "올라프" and "올라프" in text  # not \\u-escaped
    assert sheet._export.filename == "올라프.json"
    other = CharacterSheet()
    other._import.value = text.encode("utf-8")
    assert other._name.value == "올라프" and [r["name"].value for r in other._rows] == ["바이킹", "검객"]
    assert not other._error.visible
    assert other.load_json(b"not json") is False and other._error.visible
    assert other.load_json(json.dumps({"name": "X", "cliches": [], "rank": 3})) is False
    assert other._name.value == "올라프"  # a bad file changes nothing


def test_new_empties_the_form():
    sheet = CharacterSheet(character=Character("Olaf", {"Viking": 4}))
    click(sheet._new)
    assert sheet.character is None and sheet._name.value == "" and len(sheet._rows) == 1


def test_in_a_room_the_save_button_says_whose_character_it_is():
    gm, ann, olaf, spy = room_for_two()
    mine = CharacterSheet(actions=Actions(ann), character=olaf, lang="en")
    assert mine._save.disabled and "Nothing to change" in hint(mine._save)
    mine._name.value = "Olaf the Bold"
    assert not mine._save.disabled and hint(mine._save) == "Save this character for everyone at the table."
    theirs = CharacterSheet(actions=Actions(ann), character=spy, lang="en")
    theirs._name.value = "Spymaster"
    assert theirs._save.disabled and "GM" in hint(theirs._save)  # the room's reason, on hover
    gms = CharacterSheet(actions=Actions(gm), character=spy)
    gms._name.value = "Spymaster"
    assert not gms._save.disabled


def test_an_empty_sheet_switched_to_a_grunt_mob_refuses_nothing_yet():
    """Issue 21 (low): switching an empty sheet to Grunt mob shows no refusal before anything is typed
    (Save stays unavailable); typing, then clearing the name shows it. The 0/1 toggle is labelled."""
    from raisus_panel.ui import Actions, CharacterSheet

    sheet = CharacterSheet(actions=Actions.local(), lang="en")
    sheet._kind.value = "grunt_mob"
    assert not sheet._error.visible and sheet._save.disabled
    assert sheet._mob_box.visible and "Rating of one extra" in sheet._member_rating_label.object
    sheet._name.value = "Rats"
    sheet._name.value = ""
    assert sheet._error.visible  # the user acted: now the empty name is refused
