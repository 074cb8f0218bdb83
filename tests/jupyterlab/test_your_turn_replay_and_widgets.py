"""The "your turn" parts of 09 (save, replay, undo), 12 (ipywidgets), 03 (inappropriate clichés, its
step 5) and 13 (fair dice, the early reveal), played in JupyterLab in Chromium the way their text says,
in Korean and in English (issue 22).

- 09: with Viking picked, three rounds are rolled; "Undo" takes back the last one (round 3, not the
  pick), the score chart and the log go back with it; "Save JSON" downloads the contest: the file holds
  the events in force (the undone round is not in it) and loads, outside the notebook, into the same
  contest; "Load JSON" puts that file on a new table the widgets move to, showing the same table
  (the same labels, round and chart), whose "Undo" takes back only what was done after the load;
  play goes on there while the old table keeps its state; a foreign file shows the refusal, in the
  learner's language, and changes nothing. (Picking the cliché before the roll is
  ``test_your_turn.test_09_pick_a_cliche_before_rolling``.)
- 12, steps 2 and 3: the ipywidgets dropdown puts a character's first rating on the slider; the slider
  moved (with the keyboard, on its handle) changes Olaf's Viking at the table, and the sheet in Olaf's
  tab follows; the Viking's rating changed on that sheet changes nothing before "Save", and after it
  the slider follows. (Step 1, the language switch, and step 4, the mob's tab, are
  ``test_learner_fixes.test_12_the_ipywidgets_language_switch_keeps_every_sheet``.)
- 03, step 5 (steps 1 to 4, the odds before and after the choice and the approval, are
  ``test_your_turn.test_03_the_odds_before_the_choice_then_after_it``): right after round 1 unticking
  "Inappropriate" leaves the odds as they are (the Demon King has one die left); "Undo" takes back
  round 1 (in English after an untick first: that is taken back first, as the text says); unticked
  then, the odds fall back to 10.5%, no approval is asked, Marta wins round 1 again and the Demon King
  loses only 1; played out, every win costs 1.
- 13, the early reveal (in Korean, ``test_learner_fixes`` has it up to the verified cell:
  ``test_13_the_gm_reveals_early_and_the_verify_cell_verifies``; here in English, from the copy with
  the language line edited, and in Korean too for what follows it): "Roll round 1", the GM reveals
  early, the verify cell verifies; rolling on commits a new seed, which the card shows and the verify
  cell calls "not revealed yet"; the card offers the reveal again, and then every roll is verified.

Every step is checked in the page and in the kernel, and every view agrees with the kernel
(``test_tutorials.agree``).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t
from raisus_panel.rules import Contest

from .conftest import TIMEOUT_MS, Lab
from .test_tutorials import agree
from .test_your_turn import (
    _DEEP_TEXT_JS,
    LANGS,
    button_state,
    cell_of,
    click,
    in_language,
    make_english_copies,
    pick,
    picker_shows,
    run,
    snap,
    text_of,
)

STEMS = ["09_save_replay_undo", "12_ipywidgets", "03_inappropriate_cliches", "13_fair_dice"]
NOTEBOOKS = [f"notebooks/{stem}.ipynb" for stem in STEMS]
#: The English copies' suffix: not another module's, as modules may share a server root.
EN = "-en-rw"

pytestmark = pytest.mark.timeout(900)

_LABELS = "[c.label for c in {}.characters()]"
_PERCENT = "__import__('raisus_panel.ui._base', fromlist=['percent']).percent"
_CHANCES = "__import__('raisus_panel.ui.live_odds', fromlist=['contest_chances']).contest_chances"


@pytest.fixture(scope="module", autouse=True)
def english_copies_rw(lab_server):
    make_english_copies(lab_server.root, STEMS, suffix=EN)


# -- helpers ------------------------------------------------------------------------------------------
def play(lab, stem: str, lang: str) -> Lab:
    """Run All of ``stem`` in ``lang``, on a tall screen: the screenshots show a whole output (table,
    chart and log), not the part a 1000-pixel window leaves of it."""
    nb = run(lab, stem, lang, EN)
    nb.page.set_viewport_size({"width": 1400, "height": 2800})
    return nb


def shows(nb: Lab, index: int, text: str, exact: bool = False) -> bool:
    """Whether the output ``index`` shows ``text`` on screen (hidden parts hold their texts too)."""
    found = nb.output(index).get_by_text(text, exact=exact)
    return any(found.nth(i).is_visible() for i in range(found.count()))


def visible(locator):
    """The first element of ``locator`` shown on screen (a tab's hidden sheets hold the same fields)."""
    for i in range(locator.count()):
        if locator.nth(i).is_visible():
            return locator.nth(i)
    raise AssertionError(f"nothing of {locator} is shown")


def reason_under(nb: Lab, index: int, reason: str) -> bool:
    """Whether a greyed control of output ``index`` has ``reason`` written under it."""
    found = nb.output(index).locator(".raisus-why").filter(has_text=reason)
    return any(found.nth(i).is_visible() for i in range(found.count()))


def until(nb: Lab, expr: str, want, tries: int = 100):
    """The kernel's value of ``expr`` once it is ``want`` (an ipywidgets message may reach the kernel
    after the test's next request: it goes through another channel than Panel's)."""
    for _ in range(tries):
        value = nb.kernel_json(expr)
        if value == want:
            break
        nb.page.wait_for_timeout(100)
    nb.settle()
    return nb.kernel_json(expr)


# -- 09: undo, save and load ----------------------------------------------------------------------
def chart_x(nb: Lab, index: int) -> list:
    """The rounds the score chart of output ``index`` draws: the ``x`` of its data source (the one with
    the dice faces) that the kernel's roots of that output reference, as the page holds it."""
    roots = nb.output(index).evaluate("out => [...out.querySelectorAll('[data-root-id]')].map(e => e.dataset.rootId)")
    ids = nb.kernel_json(f"sorted({{m.id for _, root, _, _ in list(__import__('panel').state._views.values()) "
                         f"if root.id in {roots!r} for m in root.references() "
                         f"if type(m).__name__ == 'ColumnDataSource' and 'faces' in m.data}})")
    assert len(ids) == 1, f"score chart sources of output {index}: {ids}"
    return nb.page.evaluate("""(id) => { for (const doc of Bokeh.documents) { const m = doc.get_model_by_id(id);
      if (m) return Array.from(m.data instanceof Map ? m.data.get('x') : m.data.x); } return null; }""", ids[0])


def state_09(nb: Lab, contest: str = "table.actions.contest") -> list:
    return nb.kernel_json(f"[{contest}.round, {_LABELS.format(contest)}, [p['x'] for p in {contest}.history]]")


@pytest.mark.parametrize("lang", LANGS)
def test_09_undo_then_save_and_load_back_the_same_table(lab, lang, tmp_path):
    stem = "09_save_replay_undo"
    nb = play(lab, stem, lang)
    said = nb.cell(cell_of(stem, "## 6. 직접 해 보기")).inner_text()
    for words in ("「되돌리기」", '"Undo"', "「JSON 저장」", '"Save JSON"', "「JSON 불러오기」", '"Load JSON"',
                  "되돌린 라운드는 들어 있지 않습니다", "a round you undid is not in it",
                  "불러온 뒤에 한 명령만 되돌립니다", "takes back only what was done after it"):
        assert words in said, f"the text does not say {words!r}"
    cell = cell_of(stem, "ContestTable(actions=actions")
    undo = t("contest.undo", lang)
    nothing = t("error.room.nothing_to_undo", lang)
    assert button_state(nb, cell, undo) == (True, False) and reason_under(nb, cell, nothing), "nothing to undo yet"

    # pick Viking, then roll a few rounds (SeededDice(5): Jack wins round 1, Olaf rounds 2 and 3)
    pick(nb, cell, "바이킹 (4)")
    for n in (1, 2, 3):
        click(nb, cell, t("contest.roll", lang, n=n))
    three = ["올라프: 바이킹 (3/4), 요리사 (2)", "잭: 해적 (1/3)"]
    assert state_09(nb) == [3, three, [0.0, 1.0, 2.0, 3.0]]
    assert chart_x(nb, cell) == [0.0, 1.0, 2.0, 3.0]
    agree(nb, "after three rounds")

    # "Undo": the last command, round 3, goes back (not the pick); the chart and the log with it
    assert button_state(nb, cell, undo) == (True, True)
    click(nb, cell, undo)
    two = ["올라프: 바이킹 (3/4), 요리사 (2)", "잭: 해적 (2/3)"]
    assert state_09(nb) == [2, two, [0.0, 1.0, 2.0]], "round 3 is taken back"
    assert chart_x(nb, cell) == [0.0, 1.0, 2.0], "the score chart goes back too"
    assert nb.kernel_json("game.chosen(game.sides[0][0].uid)") is not None and picker_shows(nb, cell) == "바이킹 (3/4)"
    assert nb.kernel_json("game.last_roll['round']") == 2
    assert button_state(nb, cell, t("contest.roll", lang, n=3)) == (True, True)
    undid = t("log.undid", lang, who=t("role.gm", lang), what=t("log.round", lang, n=3, a="올라프", b="잭"))
    assert shows(nb, cell, undid), "the log says round 3 was undone"
    snap(nb, cell, f"09-undone-{lang}")
    agree(nb, "after the undo")

    # "Save JSON": the contest as it is now, its events in force (round 3 undone is not in it)
    save = nb.output(cell).locator("a", has_text="JSON 저장 / Save JSON").first
    save.scroll_into_view_if_needed()
    with nb.page.expect_download(timeout=TIMEOUT_MS) as info:
        save.click()
    download = info.value
    assert download.suggested_filename == "contest.json"
    file = tmp_path / "contest.json"
    download.save_as(file)
    nb.settle()
    text = file.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == "raisus_panel/contest"
    assert [e["type"] for e in data["events"]] == ["contest_started", "cliche_chosen", "round_decided",
                                                   "round_decided"], "the undone round is not in the file"
    assert [e["round"] for e in data["events"] if e["type"] == "round_decided"] == [1, 2]
    assert text == nb.kernel_json("game.to_json()"), "the file is the contest as the kernel holds it"
    saved = Contest.from_json(text)  # the file loads outside the notebook too, into the same contest
    assert [saved.round, [c.label for c in saved.characters()]] == [2, two]
    assert saved.history == nb.kernel_json("game.history")

    # "Load JSON": a new table, the widgets move to it, showing the same contest
    before = nb.kernel_json("game.history")
    nb.output(cell).locator("input[type=file]").first.set_input_files(str(file))
    nb.settle()
    moved = nb.kernel_json("[actions.contest is not game, table.actions is actions, chart.actions is actions, "
                           "log.actions is actions, message.visible]")
    assert moved == [True, True, True, True, False], "the views moved to a new table"
    assert state_09(nb) == [2, two, [0.0, 1.0, 2.0]] and nb.kernel_json("actions.contest.history") == before
    assert chart_x(nb, cell) == [0.0, 1.0, 2.0]
    assert picker_shows(nb, cell) == "바이킹 (3/4)"
    assert nb.kernel_json("actions.contest.last_roll['round']") == 2
    assert button_state(nb, cell, t("contest.roll", lang, n=3)) == (True, True)
    # the new table's log starts with the load: nothing to undo there yet
    assert button_state(nb, cell, undo) == (True, False) and reason_under(nb, cell, nothing)
    assert nb.kernel_json("translate(actions.why_not_error('undo'))") == nothing
    snap(nb, cell, f"09-loaded-{lang}")
    agree(nb, "after loading the file")

    # play goes on at the new table; the old one keeps its state; undo takes back what came after the load
    click(nb, cell, t("contest.roll", lang, n=3))
    assert nb.kernel_json("[actions.contest.round, game.round]") == [3, 2]
    assert chart_x(nb, cell) == [0.0, 1.0, 2.0, 3.0]
    assert button_state(nb, cell, undo) == (True, True)
    click(nb, cell, undo)
    assert state_09(nb) == [2, two, [0.0, 1.0, 2.0]] and button_state(nb, cell, undo) == (True, False)
    agree(nb, "after playing on at the new table")

    # a foreign file: the refusal, in the learner's language, and nothing changes
    broken = tmp_path / "broken.json"
    broken.write_text('{"hello": "world"}', encoding="utf-8")
    nb.output(cell).locator("input[type=file]").first.set_input_files(str(broken))
    nb.settle()
    refusal = nb.kernel_json("message.object")
    assert nb.kernel_json("[message.visible, table.actions is actions, actions.contest.round]") == [True, True, 2]
    assert in_language(refusal, lang), refusal
    alert = visible(nb.output(cell).locator(".alert-danger"))
    assert alert.evaluate(_DEEP_TEXT_JS).strip() == refusal
    assert state_09(nb) == [2, two, [0.0, 1.0, 2.0]]
    snap(nb, cell, f"09-refused-{lang}")
    agree(nb, "after the refused file")


# -- 12: the slider and the sheet -----------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_12_the_slider_drives_the_sheet_and_the_sheet_the_slider(lab, lang):
    stem = "12_ipywidgets"
    nb = play(lab, stem, lang)
    said = nb.cell(cell_of(stem, "## 3. 직접 해 보기")).inner_text()
    assert "첫 클리셰(올라프는 바이킹)" in said and "(Olaf's Viking)" in said
    cell = cell_of(stem, "who, rating, said = rating_control(actions)")
    out = nb.output(cell)
    pressed = {"ko": "한국어", "en": "English"}[lang]
    expect(out.locator(".widget-toggle-button.mod-active", has_text=pressed)).to_have_count(1)
    readout = out.locator(".widget-readout").first
    handle = out.locator(".noUi-handle").first
    rating_field = visible(out.get_by_label(t("sheet.rating", lang), exact=True))
    current_field = visible(out.get_by_label(t("sheet.current", lang), exact=True))
    labels = "[c.label for c in party]"
    start = ["올라프: 바이킹 (4), 요리사 (2)", "시그리드: 방패 처녀 (3), 약초꾼 (2)"]
    assert nb.kernel_json(labels)[:2] == start
    assert nb.kernel_json("[who.value == party[0].uid, rating.value, said.value]") == [True, 4, ""]
    expect(readout).to_have_text("4")

    # 2. the dropdown puts the chosen character's first rating on the slider: Sigrid's, then Olaf's
    dropdown = out.locator("select").first
    dropdown.select_option(label="시그리드")
    assert until(nb, "rating.value", 3) == 3
    expect(readout).to_have_text("3")
    dropdown.select_option(label="올라프")
    assert until(nb, "rating.value", 4) == 4
    expect(readout).to_have_text("4")
    assert nb.kernel_json(labels)[:2] == start, "picking in the dropdown changes nobody"
    # ... and the slider moved (the keyboard on its handle: two steps right) changes Olaf's Viking
    handle.scroll_into_view_if_needed()
    handle.focus()
    handle.press("ArrowRight")
    handle.press("ArrowRight")
    six = ["올라프: 바이킹 (6), 요리사 (2)", "시그리드: 방패 처녀 (3), 약초꾼 (2)"]
    assert until(nb, f"{labels}[:2]", six) == six, "the slider sent the rating to the table"
    assert nb.kernel_json("[rating.value, said.value, party[0].cliche('바이킹').current]") == [6, "", 6]
    expect(readout).to_have_text("6")
    # the sheet in Olaf's tab follows: its Viking row says 6 (and 6 left), nothing to save
    expect(out.locator(".lm-TabBar-tab.lm-mod-current")).to_have_text("올라프")
    expect(rating_field).to_have_value("6")
    expect(current_field).to_have_value("6")
    assert nb.kernel_json("sheets[0].draft()") == nb.kernel_json("party[0].to_dict()")
    save = t("sheet.save", lang)
    assert button_state(nb, cell, save) == (True, False)
    nothing = t("error.room.nothing_to_change", lang, name="올라프")
    assert nb.kernel_json("sheets[0]._save.why") == nothing and reason_under(nb, cell, nothing)
    snap(nb, cell, f"12-slider-{lang}")

    # 3. the other way round: the Viking's rating changed on Olaf's sheet; nothing is sent before "Save"
    rating_field.scroll_into_view_if_needed()
    rating_field.fill("3")
    rating_field.press("Enter")
    nb.settle()
    expect(current_field).to_have_value("3")
    assert nb.kernel_json("sheets[0].draft()['cliches'][0]") == {"name": "바이킹", "rating": 3, "current": 3}
    assert nb.kernel_json(f"[{labels}[0], rating.value]") == [six[0], 6], "not sent before Save"
    expect(readout).to_have_text("6")
    assert button_state(nb, cell, save) == (True, True)
    click(nb, cell, save)
    three = "올라프: 바이킹 (3), 요리사 (2)"
    assert nb.kernel_json(f"{labels}[0]") == three
    assert until(nb, "rating.value", 3) == 3, "the slider follows the table"
    expect(readout).to_have_text("3")
    expect(handle).to_have_attribute("aria-valuenow", re.compile(r"^3(\.0)?$"))
    assert shows(nb, cell, t("sheet.saved", lang))
    assert button_state(nb, cell, save) == (True, False)
    assert nb.kernel_json(f"[{labels}[1], said.value]") == [six[1], ""], "Sigrid is left alone"
    snap(nb, cell, f"12-saved-{lang}")
    agree(nb, "after the slider and the sheet")


# -- 03, step 5: untick between rounds, then play it out ----------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_03_untick_between_rounds_then_play_it_out(lab, lang):
    stem = "03_inappropriate_cliches"
    nb = play(lab, stem, lang)
    said = nb.cell(cell_of(stem, "## 6. 직접 해 보기")).inner_text()
    assert "「되돌리기」" in said and '"Undo"' in said and "play it out" in said and "끝까지 굴려" in said
    cell = cell_of(stem, "ContestTable(actions=actions")
    odds_line = re.compile(re.escape(t("odds.p_win", lang, side=t("side.0", lang), names="마르타", p="@"))
                           .replace("@", r"([<>]?[\d.]+%)"))

    def odds_now() -> str:
        """The chance LiveOdds shows, which must be the kernel's (``contest_chances``)."""
        found = odds_line.search(text_of(nb, cell))
        assert found, f"no odds line in {text_of(nb, cell)[:400]!r}"
        assert found.group(1) == nb.kernel_json(f"{_PERCENT}({_CHANCES}(game).p_win)"), "LiveOdds and the kernel"
        return found.group(1)

    def box():
        return nb.output(cell).locator("label.raisus-checkbox", has_text=t("contest.inappropriate", lang)).first

    def tick() -> None:  # Marta's box: hers is the first card's
        box().click()
        nb.settle()

    state = "[game.round, marta2.label, king2.label, game.is_inappropriate(marta2.uid), game.needs_approval(marta2.uid)]"
    approve = t("contest.approve", lang)

    # steps 2 to 4, as the text says: tick, approve, roll round 1 (the Demon King loses 3)
    tick()
    click(nb, cell, approve)
    click(nb, cell, t("contest.roll", lang, n=1))
    assert nb.kernel_json(state) == [1, "마르타: 요리사 (3)", "마왕: 마왕 (1/4)", True, False]
    assert odds_now() == ">99.9%"

    # 5. right after round 1 unticking leaves the odds as they are: one die left, any win ends it
    if lang == "en":  # the learner who unticks first: "Undo" takes that back first, as the text says
        tick()
        assert nb.kernel_json(state) == [1, "마르타: 요리사 (3)", "마왕: 마왕 (1/4)", False, False]
        assert odds_now() == ">99.9%", "one die left: the odds stay"
        assert button_state(nb, cell, t("contest.roll", lang, n=2)) == (True, True), "no approval asked"
        assert button_state(nb, cell, approve) == (False, False)
        click(nb, cell, t("contest.undo", lang))
        assert nb.kernel_json(state) == [1, "마르타: 요리사 (3)", "마왕: 마왕 (1/4)", True, False], \
            "the first Undo takes back the untick"
        assert box().locator("input").is_checked()
    # "Undo" takes back round 1: the Demon King's 3 points come back; the approved choice stays
    click(nb, cell, t("contest.undo", lang))
    assert nb.kernel_json(state) == [0, "마르타: 요리사 (3)", "마왕: 마왕 (4)", True, False]
    assert box().locator("input").is_checked() and odds_now() == "23.3%"
    # unticked: the odds fall back to 10.5%, and no approval is asked
    tick()
    assert not box().locator("input").is_checked()
    assert nb.kernel_json(state) == [0, "마르타: 요리사 (3)", "마왕: 마왕 (4)", False, False]
    assert odds_now() == "10.5%", "the odds fall back"
    assert button_state(nb, cell, t("contest.roll", lang, n=1)) == (True, True)
    assert button_state(nb, cell, approve) == (False, False), "nothing to approve"
    snap(nb, cell, f"03-unticked-{lang}")
    agree(nb, "after unticking")
    # "Roll round 1": with the seed Marta wins again, and the Demon King loses only 1
    click(nb, cell, t("contest.roll", lang, n=1))
    assert nb.kernel_json(state) == [1, "마르타: 요리사 (3)", "마왕: 마왕 (3/4)", False, False]
    assert nb.kernel_json("[game.last_roll['winner'], game.last_roll['damage']]") == [0, 1]
    assert odds_now() == "50.0%"
    # play it out: every win costs 1
    rounds = []
    for n in range(2, 30):
        if nb.kernel_json("game.status") != "active":
            break
        click(nb, cell, t("contest.roll", lang, n=n))
        rounds.append(nb.kernel_json("[game.last_roll['winner'], game.last_roll['damage']]"))
        if nb.kernel_json("game.status") == "active":
            odds_now()
    assert all(damage == 1 for _, damage in rounds), rounds
    assert nb.kernel_json("[game.status, game.winner, game.round, marta2.label, king2.label]") == \
        ["ended", 0, 5, "마르타: 요리사 (2/3)", "마왕: 마왕 (0/4)"]
    assert shows(nb, cell, t("odds.decided", lang, side=t("side.0", lang))), "LiveOdds says who won"
    assert not any(button_state(nb, cell, t("contest.roll", lang, n=n))[1] for n in range(5, 7))
    snap(nb, cell, f"03-played-out-{lang}")
    agree(nb, "after playing it out")


# -- 13: reveal early, roll on, reveal again ----------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_13_reveal_early_roll_on_then_reveal_again(lab, lang):
    stem = "13_fair_dice"
    nb = play(lab, stem, lang)
    said = nb.cell(cell_of(stem, "## 8. 직접 해 보기")).inner_text()
    assert t("fair.reveal_dice", "ko") in said and t("fair.reveal_dice", "en") in said
    cell = cell_of(stem, "pn.Column(FairDice(actions=actions)")
    check = cell_of(stem, "for check in verify(game):")
    assert check == cell + 1, "the verify cell is the next one"
    reveal = t("fair.reveal_dice", lang)

    def verify_again() -> str:
        """Run the next cell again, as the text says; what it prints is the kernel's verification."""
        nb.cell(check).click()
        nb.command("notebook:run-cell")
        nb.wait_all_ran()
        printed = nb.output(check).inner_text().strip()
        assert printed == "\n".join(nb.kernel_json(f"[verification_text(c, {lang!r}) for c in verify(game)]"))
        return printed

    def statuses() -> list:
        return nb.kernel_json("[c.status for c in verify(game)]")

    def card_commitment() -> str:
        """The commitment in force, as the kernel holds it, shown on the card."""
        short = nb.kernel_json("game.dice_commitment['commitment'][:16]")
        assert shows(nb, cell, t("fair.committed", lang, commitment=short)), "the card shows the commitment"
        return short

    # 1. the next cell: nothing revealed yet
    assert statuses() == ["unrevealed"]
    assert verify_again() == "부두의 결투: " + t("verify.status.unrevealed", lang, rolls=0)
    card_commitment()
    assert button_state(nb, cell, reveal) == (True, True)

    # 2. "Roll round 1", then the GM reveals early
    click(nb, cell, t("contest.roll", lang, n=1))
    first = card_commitment()
    assert nb.kernel_json("[game.round, game.status]") == [1, "active"]
    assert button_state(nb, cell, reveal) == (True, True)
    click(nb, cell, reveal)
    assert nb.kernel_json("[game.round, game.status, game.dice_commitment['revealed']]") == [1, "active", True]
    assert shows(nb, cell, t("fair.revealed", lang))
    assert button_state(nb, cell, reveal) == (True, False), "nothing more to reveal"
    why = nb.kernel_json("translate(actions.why_not_error('reveal_dice'))")
    assert in_language(why, lang) and reason_under(nb, cell, why)
    # 3. the next cell again: every die rolled is verified
    assert "\n" not in verify_again() and statuses() == ["verified"]
    snap(nb, cell, f"13-revealed-early-{lang}")
    agree(nb, "after the early reveal")

    # rolling on commits a new seed: the card shows it, the next cell says "not revealed yet"
    click(nb, cell, t("contest.roll", lang, n=2))
    second = card_commitment()
    assert second != first, "a new seed is committed"
    assert nb.kernel_json("[game.round, game.status, game.dice_commitment['revealed']]") == [2, "active", False]
    verify_again()
    assert statuses() == ["unrevealed"]
    # the card offers the reveal again; then every roll is verified
    assert button_state(nb, cell, reveal) == (True, True)
    click(nb, cell, reveal)
    assert shows(nb, cell, t("fair.revealed", lang))
    verify_again()
    assert statuses() == ["verified"]
    assert nb.kernel_json("[c.ok for c in verify(actions.room)]") == [True], "the table's log verifies too"
    assert nb.kernel_json("game.status") == "active"
    assert button_state(nb, cell, t("contest.roll", lang, n=3)) == (True, True), "the contest goes on"
    snap(nb, cell, f"13-revealed-again-{lang}")
    agree(nb, "after the second reveal")
