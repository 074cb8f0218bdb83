"""CharacterSheet: editing, validation in place, saving through the adapter, JSON in and out."""

from __future__ import annotations

import json

from raisus_panel.rules import Character, GruntMob
from raisus_panel.ui import Actions, CharacterSheet

from .conftest import click, duel, room_for_two
from .drivers import Sheet


def test_new_character_is_validated_and_saved():
    actions = Actions()
    s = Sheet(CharacterSheet(actions=actions, lang="en"))
    assert s.error is None  # an empty form is not an error yet
    s.name("Olaf")
    s.cliche(0).value = "Viking"
    s.cliche(0, "rating").value = 4
    assert s.cliche(0, "current").value == 4  # an untouched current follows the rating
    assert s.error is None and not s.save_button.disabled
    s.click(s.t("sheet.add_cliche"))
    s.cliche(1).value = "Viking"  # duplicate: the rules' message appears in place
    assert s.error and "Viking" in s.error and s.save_button.disabled
    s.cliche(1).value = "Swashbuckler"
    s.cliche(1, "rating").value = 2
    assert s.error is None
    s.click(s.t("sheet.save"))
    olaf = s.root.character
    assert olaf in actions.characters
    assert olaf.cliche("Viking").rating == 4 and olaf.cliche("Swashbuckler").current == 2
    assert "Saved" in s.success


def test_bad_values_show_the_rule_error_not_a_traceback():
    sheet = CharacterSheet(lang="en")
    s = Sheet(sheet)
    s.name("Olaf")
    s.cliche(0).value = "Viking"
    s.cliche(0, "rating").value = 3
    s.cliche(0, "current").value = 5  # above the rating
    assert s.error and s.save_button.disabled
    assert "Traceback" not in s.error
    assert sheet.save() is None
    click(s.cliche(0, "remove"))
    assert "at least one cliché" in s.error


def test_editing_updates_the_same_character():
    olaf = Character("Olaf", {"Viking": 4})
    actions = Actions.local(olaf)
    sheet = CharacterSheet(character=olaf, actions=actions)
    s = Sheet(sheet)
    assert s.name() == "Olaf" and s.cliche(0, "rating").value == 4
    s.type(s.t("sheet.description"), "Never ready")
    s.cliche(0, "current").value = 2
    saved = sheet.save()
    assert saved is olaf and olaf.description == "Never ready" and olaf.cliche("Viking").current == 2
    assert actions.characters == [olaf]


def test_a_character_in_a_running_contest_cannot_be_edited():
    contest, actions, viking, pirate = duel()
    sheet = CharacterSheet(character=viking, actions=actions)
    s = Sheet(sheet)
    s.name("Eric")
    assert sheet.save() is None and s.error and viking.name == "Viking"


def test_save_locks_when_the_character_being_edited_enters_a_contest():
    """Issue 22 (found playing 11's "make your own" in JupyterLab): with unsaved edits in the form, the
    character was put into a contest; Save stayed pressable, with no reason, until the next edit --
    and pressing it was refused. The sheet asks again whenever the room changes, edits or not."""
    actions = Actions.local(Character("Ogre", {"Ogre": 4}))
    sheet = CharacterSheet(actions=actions, lang="en")
    s = Sheet(sheet)
    s.name("Olaf")
    s.cliche(0).value = "Viking"
    s.cliche(0, "rating").value = 3
    olaf = sheet.save()
    assert olaf is not None
    s.name("Olaf the Bold")  # an edit not saved yet
    assert not s.save_button.disabled
    actions.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[actions.characters[0].uid])
    assert s.save_button.disabled
    refusal = actions.why_not_error("save_character", data=sheet.draft())
    assert refusal is not None and refusal.key == "error.room.in_contest" and s.why(s.t("sheet.save"))


def test_scores_follow_the_contest_while_not_editing():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    s = Sheet(CharacterSheet(character=pirate, actions=actions))
    actions.act("roll_round")
    assert s.cliche(0, "current").value == 2


def test_grunt_mob():
    actions = Actions()
    sheet = CharacterSheet(actions=actions)
    s = Sheet(sheet)
    s.pick(s.t("kind.grunt_mob"))
    count = s.t("sheet.count")
    assert s.has("number", count) and s.rows == 1 and not s.can_press(s.t("sheet.add_cliche"))
    s.name("700 Skeletal Rats")
    s.cliche(0).value = "700 Skeletal Rats"
    s.cliche(0, "rating").value = 7
    s.control("number", count).value = 700
    mob = sheet.save()
    assert isinstance(mob, GruntMob) and mob.count == 700 and mob.cliches[0].rating == 7
    s.pick("1")  # one extra member's rating (the 0/1 toggle)
    s.cliche(0, "rating").value = 0  # a mob is rated at least 1
    assert s.error


def test_export_and_import_json():
    olaf = Character("올라프", {"바이킹": 4, "검객": 2}, description="준비 안 됨")
    s = Sheet(CharacterSheet(character=olaf))
    download = s.control("download", s.t("sheet.export"))
    text = download.callback().read()  # what pressing Export downloads
    data = json.loads(text)
    assert data["name"] == "올라프" and "올라프" in text  # not \\u-escaped
    assert download.filename == "올라프.json"
    other_sheet = CharacterSheet()
    other = Sheet(other_sheet)
    other.controls("file")[0].value = text.encode("utf-8")  # the file chosen to import
    assert other.name() == "올라프" and [other.cliche(i).value for i in range(other.rows)] == ["바이킹", "검객"]
    assert other.error is None
    assert other_sheet.load_json(b"not json") is False and other.error
    assert other_sheet.load_json(json.dumps({"name": "X", "cliches": [], "rank": 3})) is False
    assert other.name() == "올라프"  # a bad file changes nothing


def test_new_empties_the_form():
    sheet = CharacterSheet(character=Character("Olaf", {"Viking": 4}))
    s = Sheet(sheet)
    s.click(s.t("sheet.new"))
    assert sheet.character is None and s.name() == "" and s.rows == 1


def test_in_a_room_the_save_button_says_whose_character_it_is():
    gm, ann, olaf, spy = room_for_two()
    mine = Sheet(CharacterSheet(actions=Actions(ann), character=olaf, lang="en"))
    save = mine.t("sheet.save")
    assert mine.save_button.disabled and "Nothing to change" in mine.reason(save)
    mine.name("Olaf the Bold")
    assert not mine.save_button.disabled and mine.reason(save) == "Save this character for everyone at the table."
    theirs = Sheet(CharacterSheet(actions=Actions(ann), character=spy, lang="en"))
    theirs.name("Spymaster")
    assert theirs.save_button.disabled and "GM" in theirs.reason(save)  # the room's reason, on hover
    gms = Sheet(CharacterSheet(actions=Actions(gm), character=spy))
    gms.name("Spymaster")
    assert not gms.save_button.disabled


def test_an_empty_sheet_switched_to_a_grunt_mob_refuses_nothing_yet():
    """Issue 21 (low): switching an empty sheet to Grunt mob shows no refusal before anything is typed
    (Save stays unavailable); typing, then clearing the name shows it. The 0/1 toggle is labelled."""
    s = Sheet(CharacterSheet(actions=Actions.local(), lang="en"))
    s.pick(s.t("kind.grunt_mob"))
    assert s.error is None and s.save_button.disabled
    assert s.has("number", s.t("sheet.count")) and s.shows("Rating of one extra")
    s.name("Rats")
    s.name("")
    assert s.error  # the user acted: now the empty name is refused


def test_after_an_import_the_sheet_s_character_is_the_one_save_will_write():
    """Issue 22 (left open): after Import JSON the form showed the imported character while
    ``sheet.character`` still named the one saved before, so a notebook reading it got the other
    character. It is now the room's character the import will save over, or None for a new one;
    Save then makes it the saved character, and the character edited before is unchanged."""
    gm, ann, olaf, spy = room_for_two()
    exported = CharacterSheet(character=olaf).to_json()
    sheet = CharacterSheet(actions=Actions(gm), character=spy, lang="en")
    s = Sheet(sheet)
    new = json.dumps({"name": "Sigrid", "cliches": [{"name": "Skald", "rating": 3}]})
    s.controls("file")[0].value = new.encode("utf-8")
    assert s.name() == "Sigrid" and sheet.character is None  # a new character, not saved yet
    s.click(s.t("sheet.save"))
    sigrid = sheet.character
    assert sigrid is not None and sigrid.name == "Sigrid" and sigrid in gm.room.characters
    assert spy.name == "Spy" and spy.cliche("Spy").rating == 3
    s.controls("file")[0].value = exported.encode("utf-8")  # Olaf's own export: saves over Olaf
    assert s.name() == "Olaf" and sheet.character is olaf and s.name() == "Olaf"
