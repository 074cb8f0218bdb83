"""The "your turn" parts of 11 (the character sheet) and 01 (action checks), played in JupyterLab in
Chromium the way their text says, in Korean and in English (issue 22).

- 11, "Make your own": a name, a description and clichés typed in the sheet ("Add a cliché" adds a
  row); a wrong row shows a red message at once and locks "Save", the reason written under it;
  "Save" puts the character in the table's list; "Export JSON" downloads it; "New" empties the form,
  and a grunt mob is made; "Import JSON" brings the character's file back; the ContestTable's "New
  contest" form starts a contest of the character (side A) against the Ogre (side B), and while it
  runs the character cannot be saved (the reason under "Save").
- 01, "Roll it yourself": a character, a cliché, a TN and how well it fits are picked, the exact
  chance shows before the roll, and "Roll the check" shows the faces, the total and the result the
  kernel rolled.

After the clicks the kernel holds what the page shows, and every output still shows what the kernel
holds (``test_tutorials.agree``). The learner picks the language by editing the notebook's
``settings.lang = "ko"  # or "en"`` line: the English runs use copies with that line edited.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t
from raisus_panel.rules import odds
from raisus_panel.ui._base import percent

from .conftest import TIMEOUT_MS, Lab
from .test_tutorials import agree
from .test_your_turn import (
    _DEEP_TEXT_JS,
    button_state,
    cell_of,
    click,
    in_language,
    make_english_copies,
    run,
    snap,
    text_of,
)

STEMS = ["11_character_sheet", "01_action_checks"]
NOTEBOOKS = [f"notebooks/{stem}.ipynb" for stem in STEMS]
LANGS = ("ko", "en")
#: The English copies' suffix: not test_your_turn's "-en", should both modules ever share a server root.
EN = "-en2"

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module", autouse=True)
def english_copies(lab_server):
    make_english_copies(lab_server.root, STEMS, suffix=EN)


def type_in(nb: Lab, field, value) -> None:
    """Type ``value`` into a field as a person does: a one-line field is sent with Enter (in JupyterLab
    through ``notebook.ENTER_COMMITS_JS``); a text area, where Enter starts a new line, once left."""
    field.scroll_into_view_if_needed()
    field.fill(str(value))
    if field.evaluate("el => el.tagName") == "TEXTAREA":
        field.blur()
    else:
        field.press("Enter")
    nb.settle()


def reason_under(nb: Lab, index: int, reason: str):
    """The line of text under a greyed control of output ``index`` that says ``reason``."""
    return nb.output(index).locator(".raisus-why").filter(has_text=reason).first


def is_red(locator) -> bool:
    """Whether the element's text or background is red (more red than green and blue, clearly)."""
    colors = locator.evaluate("""el => { const s = getComputedStyle(el);
        return [s.color, s.backgroundColor, s.borderColor]; }""")
    for color in colors:
        rgb = [int(x) for x in re.findall(r"\d+", color)[:3]]
        if len(rgb) == 3 and rgb[0] > 120 and rgb[0] > rgb[1] + 40 and rgb[0] > rgb[2] + 40:
            return True
    return False


# -- 11: make your own ---------------------------------------------------------------------------
#: What the learner types, per language: a character and a grunt mob.
MADE = {"ko": {"name": "빌헬름", "description": "길 잃은 기사", "cliches": [("기사", 3), ("시인", 2)],
               "mob": "해골 쥐 떼", "mob_rating": 5, "count": 50},
        "en": {"name": "Wilhelm", "description": "A knight who lost his way", "cliches": [("Knight", 3), ("Poet", 2)],
               "mob": "Skeleton rats", "mob_rating": 5, "count": 50}}


@pytest.mark.parametrize("lang", LANGS)
def test_11_make_your_own_character_and_mob_then_a_contest(lab, lang, tmp_path):
    stem = "11_character_sheet"
    nb = run(lab, stem, lang, EN)
    said = nb.cell(cell_of(stem, "## 6. 직접 해 보기")).inner_text()
    for key in ("sheet.add_cliche", "sheet.save", "sheet.new", "kind.grunt_mob", "sheet.export", "contest.new"):
        assert t(key, "ko") in said and t(key, "en") in said, f"the text names no {t(key, lang)!r}"
    out = cell_of(stem, "sheet = CharacterSheet(actions=actions)")
    sheet = nb.output(out)
    made = MADE[lang]
    save = sheet.get_by_role("button", name=t("sheet.save", lang), exact=True)
    ratings = sheet.get_by_label(t("sheet.rating", lang), exact=True)
    cliches = sheet.get_by_placeholder(t("sheet.cliche_placeholder", lang))
    name = sheet.get_by_placeholder(t("sheet.name_placeholder", lang))
    description = sheet.get_by_label(t("sheet.description", lang), exact=True)
    # an empty sheet, and a table with only an Ogre (4)
    assert nb.kernel_json("[sheet.character, [c.label for c in actions.characters]]") == [None, ["오우거: 오우거 (4)"]]
    assert ratings.count() == 1 and cliches.count() == 1
    assert button_state(nb, out, t("sheet.save", lang)) == (True, False)

    # 1. a name, a description, a cliché; "Add a cliché" adds a row; a row without a name is refused at once
    type_in(nb, name, made["name"])
    type_in(nb, description, made["description"])
    (first, rating), (second, rating2) = made["cliches"]
    type_in(nb, cliches.nth(0), first)
    type_in(nb, ratings.nth(0), rating)
    expect(sheet.get_by_label(t("sheet.current", lang), exact=True).first).to_have_value(str(rating))
    click(nb, out, t("sheet.add_cliche", lang))
    expect(ratings).to_have_count(2)
    expect(cliches).to_have_count(2)
    type_in(nb, ratings.nth(1), rating2)  # its name still empty: something wrong
    refused = sheet.locator(".alert-danger").filter(has_text=t("error.refused", lang)).first
    expect(refused).to_be_visible()
    shown = refused.evaluate(_DEEP_TEXT_JS)
    assert in_language(shown.split(t("error.refused", lang), 1)[1].strip(), lang), shown
    assert nb.kernel_json("[sheet._error.visible, sheet._error.alert_type]") == [True, "danger"]
    assert is_red(refused), "the message is not red"
    assert button_state(nb, out, t("sheet.save", lang)) == (True, False), "Save is not locked"
    reason = nb.kernel_json("sheet._save.why")
    assert reason == t("help.first.save_character", lang)
    expect(reason_under(nb, out, reason)).to_be_visible()
    assert save.evaluate("b => b.getRootNode().getElementById('raisus-why').textContent") == reason
    snap(nb, out, f"11-refused-{lang}")
    type_in(nb, cliches.nth(1), second)  # put right: the message goes, Save opens
    expect(refused).to_be_hidden()
    assert button_state(nb, out, t("sheet.save", lang)) == (True, True)
    expect(reason_under(nb, out, reason)).to_be_hidden()

    # 2. "Save": the character shows in the table's list below
    click(nb, out, t("sheet.save", lang))
    label = f"{made['name']}: {first} ({rating}), {second} ({rating2})"
    assert nb.kernel_json("[c.label for c in actions.characters]") == ["오우거: 오우거 (4)", label]
    assert nb.kernel_json("[sheet.character.label, sheet.character.description]") == [label, made["description"]]
    expect(sheet.get_by_text(t("sheet.saved", lang))).to_be_visible()
    expect(sheet.locator("li", has_text=label).first).to_be_visible()
    uid = nb.kernel_json("sheet.character.uid")

    # 2 (its second half). "Export JSON" downloads the character (before step 3's "New", as the text
    # says: after it the form holds the mob, and only the file brings the character back)
    export = sheet.locator("a", has_text=t("sheet.export", lang)).first
    export.scroll_into_view_if_needed()
    with nb.page.expect_download(timeout=TIMEOUT_MS) as info:
        export.click()
    download = info.value
    assert download.suggested_filename == f"{made['name']}.json"
    file = tmp_path / download.suggested_filename
    download.save_as(file)
    data = json.loads(file.read_text(encoding="utf-8"))
    assert (data["kind"], data["uid"], data["name"], data["description"]) == \
        ("character", uid, made["name"], made["description"])
    assert [(c["name"], c["rating"], c["current"]) for c in data["cliches"]] == \
        [(first, rating, rating), (second, rating2, rating2)]
    assert data == nb.kernel_json("sheet.character.to_dict()") | {"owner": data["owner"]}
    nb.settle()

    # 3. "New" empties the form; the kind switched to "Grunt mob", a mob is made too
    click(nb, out, t("sheet.new", lang))
    expect(name).to_have_value("")
    expect(description).to_have_value("")
    expect(cliches).to_have_count(1)
    expect(cliches.first).to_have_value("")
    assert nb.kernel_json("[sheet.character, sheet.draft()['name'], sheet.draft()['cliches']]") == \
        [None, "", [{"name": "", "rating": 1, "current": 1}]]
    click(nb, out, t("kind.grunt_mob", lang))
    expect(sheet.get_by_label(t("sheet.count", lang), exact=True)).to_be_visible()
    assert button_state(nb, out, t("sheet.add_cliche", lang)) == (True, False), "a mob has one cliché"
    type_in(nb, name, made["mob"])
    type_in(nb, cliches.first, made["mob"])
    type_in(nb, ratings.first, made["mob_rating"])
    type_in(nb, sheet.get_by_label(t("sheet.count", lang), exact=True), made["count"])
    assert button_state(nb, out, t("sheet.save", lang)) == (True, True)
    click(nb, out, t("sheet.save", lang))
    mob = nb.kernel_json("[sheet.character.kind, sheet.character.name, sheet.character.count, sheet.character.label]")
    assert mob[:3] == ["grunt_mob", made["mob"], made["count"]]
    assert nb.kernel_json("[c.name for c in actions.characters]") == ["오우거", made["name"], made["mob"]]
    expect(sheet.locator("li", has_text=mob[3]).first).to_be_visible()
    expect(sheet.locator("li", has_text=label).first).to_be_visible()

    # 4. "Import JSON" brings the character's file back into the form
    sheet.locator("input[type=file]").first.set_input_files(str(file))
    nb.settle()
    expect(name).to_have_value(made["name"])
    expect(description).to_have_value(made["description"])
    expect(cliches).to_have_count(2)
    expect(cliches.nth(1)).to_have_value(second)
    assert nb.kernel_json("sheet.draft()") == data
    assert nb.kernel_json("len(actions.characters)") == 3, "importing adds no character: Save does"

    # 5. the ContestTable's "New contest" form: the character on side A, the Ogre on side B, start
    expect(sheet.get_by_text(t("contest.new", lang), exact=True).first).to_be_visible()
    mine = sheet.get_by_role("checkbox", name=made["name"], exact=True)
    ogre = sheet.get_by_role("checkbox", name="오우거", exact=True)
    expect(mine).to_have_count(2)  # one per side
    mine.nth(0).check()
    nb.settle()
    ogre.nth(1).check()
    nb.settle()
    ogre_uid = nb.kernel_json("actions.characters[0].uid")
    assert nb.kernel_json("[list(b.value) for b in table._setup_sides]") == [[uid], [ogre_uid]]
    assert button_state(nb, out, t("contest.start", lang)) == (True, True)
    # an edit not saved yet when the contest starts (it left "Save" open, with no reason, until the next
    # edit: CharacterSheet._refresh asked nothing of a form with unsaved edits)
    type_in(nb, description, made["description"] + "!")
    click(nb, out, t("contest.start", lang))
    assert nb.kernel_json("[actions.contest.status, [[u.uid for u in s] for s in actions.contest.sides]]") == \
        ["active", [[uid], [ogre_uid]]]
    # while it runs, the character cannot be saved: "Save" is locked, with the reason under it
    assert button_state(nb, out, t("sheet.save", lang)) == (True, False), "Save is open during the contest"
    reason = nb.kernel_json("sheet._save.why")
    assert reason == nb.kernel_json("translate(actions.why_not_error('save_character', data=sheet.draft()))")
    assert made["name"] in reason and in_language(reason, lang), reason
    expect(reason_under(nb, out, reason)).to_be_visible()
    assert not nb.kernel_json("actions.can('save_character', data=sheet.draft())")
    assert nb.kernel_json(f"actions.character({uid!r}).description") == made["description"]
    snap(nb, out, f"11-{lang}")
    agree(nb, "after the learner's character, mob and contest")


# -- 01: roll it yourself ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_01_roll_it_yourself(lab, lang):
    stem = "01_action_checks"
    nb = run(lab, stem, lang, EN)
    out = cell_of(stem, "check_panel = ActionCheckPanel(actions=table_actions)")
    assert cell_of(stem, "## 7. 직접 굴려 보기") == out - 1, "the your-turn text is right above the panel"
    panel = nb.output(out)
    # no check has been rolled yet
    assert nb.kernel_json("len(table_actions.checks)") == 0
    assert t("check.log_empty", lang) in text_of(nb, out)
    roll = t("check.roll", lang)

    # pick a character, a cliché, a TN and how well it fits
    selects = panel.locator("select")
    selects.nth(0).select_option(label="시그리드")
    nb.settle()
    cliche = nb.kernel_json("[k for k, v in check_panel._cliche.options.items() if v == '약초꾼'][0]")
    selects.nth(1).select_option(label=cliche)
    nb.settle()
    click(nb, out, f"5 {t('tn.easy', lang)}")
    fits = nb.kernel_json("[k for k, v in check_panel._suitability.options.items() if v == 'unsuitable'][0]")
    click(nb, out, fits)
    args = nb.kernel_json("check_panel.check_args()")
    sigrid = nb.kernel_json("sigrid.uid")
    assert (args["character"], args["cliche"], args["tn"], args["suitability"]) == (sigrid, "약초꾼", 5, "unsuitable")
    # the exact chance shows before the roll: 2 dice against TN 5 + 5
    chance = percent(odds.check_chance(2, 10))
    assert chance == "16.7%" and nb.kernel_json("str(check_panel.chance())") == str(odds.check_chance(2, 10))
    shown = text_of(nb, out)
    assert t("check.chance", lang, p=chance) in shown and t("check.effective_tn", lang, tn=10) in shown
    assert nb.kernel_json("len(table_actions.checks)") == 0, "picking rolls nothing"
    assert button_state(nb, out, roll) == (True, True)

    # "Roll the check": the faces, the total and the result, as the kernel rolled them
    click(nb, out, roll)
    checks = nb.kernel_json("table_actions.checks")
    result = nb.kernel_json("check_panel.result")
    assert len(checks) == 1 and result["character"] == sigrid and result["cliche"] == "약초꾼"
    assert len(result["faces"]) == 2 and result["total"] == sum(result["faces"]) and result["tn"] == 10
    assert result["success"] == (result["total"] >= 10)
    faces = t("check.faces", lang, faces=", ".join(map(str, result["faces"])), total=result["total"], tn=10)
    verdict = t("check.success" if result["success"] else "check.failure", lang)
    outcome = panel.locator(".raisus-check-result").first
    expect(outcome).to_be_visible()
    said = outcome.evaluate(_DEEP_TEXT_JS)
    assert said.strip().startswith(verdict) and faces in said and "시그리드 · 약초꾼" in said, said
    assert outcome.evaluate("el => el.classList.contains('success')") == result["success"]
    log = panel.locator(".raisus-check-log li")
    expect(log).to_have_count(1)
    assert faces in log.first.evaluate(_DEEP_TEXT_JS)
    assert t("check.log_empty", lang) not in text_of(nb, out)
    snap(nb, out, f"01-{lang}")
    agree(nb, "after the learner's check")
