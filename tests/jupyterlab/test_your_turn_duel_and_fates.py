"""The "your turn" parts of 04 (single-roll contests) and 10 (fates and recovery), played in JupyterLab
in Chromium the way their text says, in Korean and in English (issue 22).

- 04: "Roll round 1" with ``SeededDice(1)``: a tie, rolled again within the same round (two attempts
  under "Last roll"), Billy wins, the contest is over and nobody lost a point; then the form for a new
  contest, one character per side: ticked "Single-roll contest" starts a single-roll contest, unticked
  an ordinary one.
- 10: roll until the contest is over (Jack wins round 1, Olaf the next two); a fate that does not fit
  in Jack's row, the GM's veto, one that fits; the recovery row (all the way, then only some); with
  nothing to recover the button is locked and its reason is written under it; closing the contest
  shows the New contest form. And before rolling, "GM: end the contest" with an outcome and a winner.

Every step is checked in the page and in the kernel, and every view agrees with the kernel
(``test_tutorials.agree``).
"""

from __future__ import annotations

import re

import pytest

from raisus_panel.i18n import t

from .conftest import Lab
from .test_tutorials import agree
from .test_your_turn import LANGS, button_state, cell_of, click, in_language, make_english_copies, run, snap

STEMS = ["04_single_roll_contests", "10_fates_and_recovery"]
NOTEBOOKS = [f"notebooks/{stem}.ipynb" for stem in STEMS]

pytestmark = pytest.mark.timeout(900)

_TRANSLATE = "__import__('raisus_panel.i18n', fromlist=['translate']).translate"


@pytest.fixture(scope="module", autouse=True)
def english_copies_04_10(lab_server):
    make_english_copies(lab_server.root, STEMS)


# -- helpers ------------------------------------------------------------------------------------------
def checkbox(nb: Lab, index: int, label: str):
    """A :class:`LabelledCheckbox` (its text is its ``<label>``) in the output ``index``."""
    return nb.output(index).locator("label.raisus-checkbox", has_text=label).first


def tick(nb: Lab, index: int, label: str, ticked: bool) -> None:
    box = checkbox(nb, index, label)
    box.scroll_into_view_if_needed()
    box.locator("input").set_checked(ticked)
    nb.settle()


def select_with(nb: Lab, index: int, option: str):
    """The shown drop-down of the output ``index`` that offers ``option``."""
    return nb.output(index).locator("select:visible").filter(
        has=nb.page.locator("option", has_text=re.compile(f"^{re.escape(option)}$"))).first


def choose(nb: Lab, index: int, option: str, label: str | None = None) -> None:
    """In the drop-down offering ``option``, choose ``label`` (``option`` itself if not given)."""
    select = select_with(nb, index, option)
    select.scroll_into_view_if_needed()
    select.select_option(label=label or option)
    nb.settle()


def type_into(nb: Lab, index: int, placeholder: str, text: str) -> None:
    """Type ``text`` into the field with ``placeholder``, as a learner does (Enter sends it)."""
    field = nb.output(index).get_by_placeholder(placeholder).first
    field.scroll_into_view_if_needed()
    field.fill(text)
    field.press("Enter")
    nb.settle()


def confirm(nb: Lab, index: int, key: str, lang: str) -> None:
    """Press the inline "Are you sure?" step's Yes (``confirm.yes.*``), as a user would."""
    click(nb, index, t(key, lang))


def shows(nb: Lab, index: int, text: str, exact: bool = False) -> bool:
    """Whether the output ``index`` shows ``text`` on screen (hidden parts hold their texts too)."""
    found = nb.output(index).get_by_text(text, exact=exact)
    return any(found.nth(i).is_visible() for i in range(found.count()))


def reason_under(nb: Lab, index: int, name: str) -> str | None:
    """The line of text written under the shown button ``name`` (why it is locked), or None."""
    buttons = nb.output(index).get_by_role("button", name=name, exact=True)
    shown = [buttons.nth(i) for i in range(buttons.count()) if buttons.nth(i).is_visible()]
    assert shown, f"no button {name!r} shown"
    return shown[0].evaluate("""b => { const w = b.getRootNode().querySelector('.raisus-why');
                                       return w && w.offsetParent !== null ? w.textContent : null; }""")


def shown_buttons(nb: Lab, index: int, name: str) -> int:
    buttons = nb.output(index).get_by_role("button", name=name, exact=True)
    return sum(buttons.nth(i).is_visible() for i in range(buttons.count()))


# -- 04 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_04_a_tie_is_rolled_again_in_the_one_round_then_a_new_contest(lab, lang):
    stem = "04_single_roll_contests"
    nb = run(lab, stem, lang)
    said = nb.cell(cell_of(stem, "## 6. 직접 해 보기")).inner_text()
    assert "SeededDice(1)" in said and "Single-roll contest" in said and "한방 대결" in said
    table = cell_of(stem, "table = ContestTable(actions=actions")
    assert nb.kernel_json("[duel.single_roll, duel.status, duel.round]") == [True, "active", 0]
    assert shows(nb, table, f"{t('contest.single_roll', lang)} · {t('contest.next_round', lang, n=1)}"), \
        "the header says it is a single-roll contest, not rolled yet"

    # 1. Roll round 1: a tie, rolled again in the same round; Billy wins; over; nobody loses points
    click(nb, table, t("contest.roll", lang, n=1))
    assert nb.kernel_json("[duel.status, duel.round, duel.winner, len(duel.last_roll['attempts'])]") == \
        ["ended", 1, 0, 2], "one round, two attempts, Billy (side A) wins"
    assert nb.kernel_json("[[a['total'] for a in p] for p in duel.last_roll['attempts']]") == [[8, 8], [14, 7]]
    assert nb.kernel_json("[billy.label, black_hat.label]") == ["빌리: 총잡이 (3)", "검은 모자: 무법자 (3)"], \
        "nobody loses points"
    last = nb.output(table).locator(".raisus-last-roll").first
    last_text = last.inner_text()
    assert t("roll.title", lang) in last_text
    assert t("roll.attempt_n", lang, n=1) in last_text and t("roll.attempt_n", lang, n=2) in last_text
    assert t("roll.attempt_n", lang, n=3) not in last_text
    assert last_text.count(t("roll.tie", lang)) == 1, "the first attempt is the tie"
    assert last.locator("tr").count() == 3, "a header and one row per side"
    assert "= 8" in last_text and "= 14" in last_text and "= 7" in last_text
    assert t("roll.winner", lang, round=1, name="빌리") in last_text
    assert shows(nb, table, t("contest.ended_winner", lang, side=t("side.0", lang), names="빌리"))
    assert shows(nb, table, f"{t('contest.status_ended', lang)} · {t('contest.round', lang, n=1)}")
    assert button_state(nb, table, t("contest.roll", lang, n=2)) == (False, False), "no second round"
    agree(nb, "after the single roll")

    # 2. the form for the next contest appears below it
    assert button_state(nb, table, t("contest.start", lang))[0], "the form appears once the duel is over"
    assert shows(nb, table, t("contest.next", lang), exact=True), "titled for the next contest"
    snap(nb, table, f"04-duel-over-{lang}")
    start_single = {"side_a": "늙은 보안관", "side_b": "떠돌이"}
    boxes = {name: nb.output(table).get_by_role("checkbox", name=name, exact=True)
             for name in start_single.values()}
    assert all(b.count() == 2 for b in boxes.values()), "each character once per side"
    assert button_state(nb, table, t("contest.start", lang)) == (True, False), "nobody on a side yet"
    boxes["늙은 보안관"].nth(0).check()
    nb.settle()
    boxes["떠돌이"].nth(1).check()
    nb.settle()
    tick(nb, table, t("contest.single_roll", lang), True)
    assert button_state(nb, table, t("contest.start", lang)) == (True, True)
    click(nb, table, t("contest.start", lang))
    now = "[actions.contest.single_roll, actions.contest.status, [[u.name for u in s] for s in actions.contest.sides]]"
    assert nb.kernel_json(now) == [True, "active", [["늙은 보안관"], ["떠돌이"]]], "a single-roll contest starts"
    assert shows(nb, table, f"{t('contest.single_roll', lang)} · {t('contest.next_round', lang, n=1)}")
    assert button_state(nb, table, t("contest.start", lang)) == (False, False), "no form under a contest in play"
    agree(nb, "after starting a single-roll contest")

    # ... one roll ends it too; then, left unticked, an ordinary contest starts
    click(nb, table, t("contest.roll", lang, n=1))
    assert nb.kernel_json("[actions.contest.status, actions.contest.round]") == ["ended", 1]
    boxes = {name: nb.output(table).get_by_role("checkbox", name=name, exact=True) for name in ("빌리", "검은 모자")}
    assert not checkbox(nb, table, t("contest.single_roll", lang)).locator("input").is_checked(), \
        "the next form starts unticked"
    boxes["빌리"].nth(0).check()
    nb.settle()
    boxes["검은 모자"].nth(1).check()
    nb.settle()
    click(nb, table, t("contest.start", lang))
    assert nb.kernel_json(now) == [False, "active", [["빌리"], ["검은 모자"]]], "an ordinary contest starts"
    assert shows(nb, table, f"{t('contest.rounds_mode', lang)} · {t('contest.next_round', lang, n=1)}")
    assert button_state(nb, table, t("contest.roll", lang, n=1)) == (True, True)
    snap(nb, table, f"04-ordinary-{lang}")
    agree(nb, "after starting an ordinary contest")


# -- 10 -------------------------------------------------------------------------------------------
#: The fates typed: one that does not fit a drinking contest, then one that fits.
SHARKS = {"ko": "상어 밥이 된다", "en": "thrown to the sharks"}
ASLEEP = {"ko": "탁자 밑에서 코를 골며 잠든다", "en": "snores under the table"}


@pytest.mark.parametrize("lang", LANGS)
def test_10_fates_veto_recovery_and_closing(lab, lang):
    stem = "10_fates_and_recovery"
    nb = run(lab, stem, lang)
    said = nb.cell(cell_of(stem, "## 7. 직접 해 보기")).inner_text()
    assert "SeededDice(2)" in said and "the reason is written under it" in said
    table = cell_of(stem, "table = ContestTable(actions=actions")
    assert nb.kernel_json("[game.status, game.round]") == ["active", 0]

    # 1. roll until the contest is over: Jack wins round 1, Olaf rounds 2 and 3
    winners = []
    for n in range(1, 10):
        if nb.kernel_json("game.status") != "active":
            break
        assert button_state(nb, table, t("contest.roll", lang, n=n)) == (True, True)
        click(nb, table, t("contest.roll", lang, n=n))
        winners.append(nb.kernel_json("game.last_roll['winner']"))
    assert winners == [1, 0, 0], "Jack wins round 1, Olaf the next two"
    assert nb.kernel_json("[game.status, game.winner, olaf2.label, jack2.label, game.owed_fates == [jack2.uid]]") == \
        ["ended", 0, "올라프: 바이킹 (2/3)", "잭: 해적 (0/2)", True]
    assert shows(nb, table, t("contest.ended_winner", lang, side=t("side.0", lang), names="올라프"))
    assert shows(nb, table, t("contest.fate_owed", lang))
    agree(nb, "after the contest")

    # 2. a fate that does not fit, the GM's veto, one that fits
    placeholder = t("contest.fate_placeholder", lang)
    decide, veto = t("contest.decide_fate", lang), t("contest.veto_fate", lang)
    assert button_state(nb, table, veto) == (True, False), "nothing to veto yet"
    type_into(nb, table, placeholder, SHARKS[lang])
    click(nb, table, decide)
    assert nb.kernel_json("game.fates.get(jack2.uid)") == SHARKS[lang]
    assert shows(nb, table, t("contest.fate_written", lang, text=SHARKS[lang]))
    assert button_state(nb, table, decide) == (True, False), "a written fate is changed only after a veto"
    reason = nb.kernel_json(f"{_TRANSLATE}(actions.why_not_error('decide_fate', character=jack2.uid, text='x'))")
    assert in_language(reason, lang) and reason_under(nb, table, decide) == reason, "its reason is written under it"
    assert button_state(nb, table, veto) == (True, True)
    click(nb, table, veto)
    assert nb.kernel_json("[game.fates.get(jack2.uid), game.owed_fates == [jack2.uid]]") == [None, True]
    assert shows(nb, table, t("contest.fate_vetoed", lang, text=SHARKS[lang]))
    type_into(nb, table, placeholder, ASLEEP[lang])
    click(nb, table, decide)
    assert nb.kernel_json("game.fates.get(jack2.uid)") == ASLEEP[lang]
    assert shows(nb, table, t("contest.fate_written", lang, text=ASLEEP[lang]))
    agree(nb, "after the fates")

    # 3. recovery: Olaf's Viking all the way; then nothing left, the button locked and why under it
    recover = t("contest.recover", lang)
    choose(nb, table, "잭", "올라프")
    choose(nb, table, t("contest.all_cliches", lang), "바이킹 (2/3)")
    assert checkbox(nb, table, t("contest.recover_all", lang)).locator("input").is_checked()
    assert button_state(nb, table, recover) == (True, True)
    click(nb, table, recover)
    assert nb.kernel_json("[olaf2.label, jack2.label]") == ["올라프: 바이킹 (3)", "잭: 해적 (0/2)"]
    assert button_state(nb, table, recover) == (True, False), "nothing left to recover: locked"
    reason = nb.kernel_json(f"{_TRANSLATE}(actions.why_not_error('recover', character=olaf2.uid, cliche='바이킹'))")
    assert in_language(reason, lang) and "올라프" in reason
    assert reason_under(nb, table, recover) == reason, "the reason is written under the locked button"
    snap(nb, table, f"10-nothing-to-recover-{lang}")
    # ... Jack's Pirate, "all the way" unticked: only the dice asked for (1 of the 2 lost)
    choose(nb, table, "올라프", "잭")
    choose(nb, table, t("contest.all_cliches", lang), "해적 (0/2)")
    tick(nb, table, t("contest.recover_all", lang), False)
    assert nb.kernel_json("[table._recover_all.value, table._recover_amount.visible, table._recover_amount.value]") \
        == [False, True, 1], "unticked, the number of dice shows (1)"
    assert shows(nb, table, t("contest.recover_amount", lang)), "the number of dice is shown"
    click(nb, table, recover)
    assert nb.kernel_json("[olaf2.label, jack2.label]") == ["올라프: 바이킹 (3)", "잭: 해적 (1/2)"], \
        "only one die given back"
    assert button_state(nb, table, recover) == (True, True), "Jack still has a die to recover"
    agree(nb, "after the recovery")

    # 4. close the contest (asked once more): the New contest form
    close = t("contest.close", lang)
    click(nb, table, close)
    assert nb.kernel_json("actions.contest is not None"), "closing asks first"
    assert shows(nb, table, t("confirm.close", lang))
    confirm(nb, table, "confirm.yes.close", lang)
    assert nb.kernel_json("actions.contest") is None
    assert shows(nb, table, t("contest.new", lang), exact=True)
    assert button_state(nb, table, t("contest.start", lang))[0], "the New contest form"
    assert nb.output(table).get_by_role("checkbox", name="올라프", exact=True).count() == 2
    assert shown_buttons(nb, table, close) == 0
    snap(nb, table, f"10-closed-{lang}")
    agree(nb, "after closing the contest")


@pytest.mark.parametrize("lang", LANGS)
def test_10_the_gm_ends_the_contest_before_rolling(lab, lang):
    stem = "10_fates_and_recovery"
    nb = run(lab, stem, lang)
    table = cell_of(stem, "table = ContestTable(actions=actions")
    end = t("contest.end", lang)
    outcome = {"ko": "둘 다 술집에서 쫓겨난다", "en": "both are thrown out of the tavern"}[lang]
    # no outcome yet: pressing it says what is missing, and nothing ends
    click(nb, table, end)
    assert nb.kernel_json("game.status") == "active"
    assert shown_buttons(nb, table, t("confirm.yes.end", lang)) == 0, "no question without an outcome"
    missing = nb.kernel_json(f"{_TRANSLATE}(actions.why_not_error('end', outcome=''))")
    assert in_language(missing, lang) and shows(nb, table, missing), "it says the outcome is missing"
    type_into(nb, table, t("contest.outcome_placeholder", lang), outcome)
    choose(nb, table, t("contest.no_winner", lang), t("side.0", lang))
    click(nb, table, end)
    assert nb.kernel_json("game.status") == "active", "ending asks first"
    assert shows(nb, table, t("confirm.end", lang, outcome=outcome))
    confirm(nb, table, "confirm.yes.end", lang)
    assert nb.kernel_json("[game.status, game.winner, game.outcome, game.round]") == ["ended", 0, outcome, 0]
    assert shows(nb, table, t("contest.ended_winner", lang, side=t("side.0", lang), names="올라프"))
    assert shows(nb, table, outcome)
    assert button_state(nb, table, t("contest.roll", lang, n=1)) == (False, False)
    assert button_state(nb, table, t("contest.close", lang)) == (True, True)
    snap(nb, table, f"10-ended-early-{lang}")
    agree(nb, "after ending early")
