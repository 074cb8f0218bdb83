"""The "your turn" part of 16 (campaign play), played in JupyterLab in Chromium the way its text says,
in Korean and in English (issue 26):

- the refusals the lesson prints are in the learner's language;
- on the table, Olaf's card: the "Pump" field set to 1, then 3, then back to 0, and the LiveOdds line
  "... wins the contest, by pump on the next roll" with the contest's chance following each pump
  (89.5%, 86.6%, 49.2%, 5.0%); then a lucky shot (96.6%), and the roll: with the notebook's seed the
  first roll is a tie, the lucky shot is spent once (2 left) and Olaf wins the round;
- section 3's ``olaf_score, spy_score = 4, 3`` edited to ``2, 1`` in the cell's editor and run again:
  the printed table is the kernel's ``contest_odds``, and pump 1 now raises the chance.

Every printed value is compared with the kernel's, and every view agrees with the kernel
(``test_tutorials.agree``, which also asserts no error output and no console error).
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t

from .conftest import Lab
from .test_tutorials import agree
from .test_your_turn import LANGS, cell_of, click, in_language, make_english_copies, printed_lines, run, snap, text_of
from .test_your_turn_advisor import cell_errors, cell_lines, edit_and_run

STEM = "16_campaign_play"
STEMS = [STEM]
NOTEBOOKS = [f"notebooks/{stem}.ipynb" for stem in STEMS]
#: The English copies' suffix: not another module's, as modules may share a server root.
EN = "-en16"

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module", autouse=True)
def english_copies_16(lab_server):
    make_english_copies(lab_server.root, STEMS, suffix=EN)


# -- helpers ------------------------------------------------------------------------------------------
#: The LiveOdds lines in the kernel, in the learner's language (what the page must show).
_ODDS_LINES = ("__import__('raisus_panel.ui.live_odds', fromlist=['odds_lines']).odds_lines(game, "
               "__import__('raisus_panel.ui.live_odds', fromlist=['contest_chances']).contest_chances(game), "
               "lambda k, **kw: __import__('raisus_panel.i18n', fromlist=['t']).t(k, **kw))[0]")


def commit(field, value) -> None:
    """Type ``value`` into a Bokeh number field and send it, as a learner does (Enter)."""
    field.scroll_into_view_if_needed()
    field.fill(str(value))
    field.press("Enter")


def olaf_card(nb: Lab, index: int):
    return nb.output(index).locator(".raisus-unit-card").filter(has_text="올라프").first


def shown_text(nb: Lab, index: int) -> str:
    return " ".join(text_of(nb, index).split())


def odds_shown(nb: Lab, index: int) -> list[str]:
    """The kernel's LiveOdds lines, each asserted to be on the page."""
    lines = nb.kernel_json(_ODDS_LINES)
    page = shown_text(nb, index)
    missing = [line for line in lines if " ".join(line.split()) not in page]
    assert not missing, f"the page does not show the kernel's odds lines {missing}"
    return lines


# -- the tests ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_16_pump_and_lucky_shot_on_olafs_card_move_the_odds_then_the_roll_pays(lab, lang):
    nb = run(lab, STEM, lang, suffix=EN)
    # the lesson's refusals (over the budget, no pump from 1, none in a single-roll contest, none in a
    # check without pump_checks) are printed in the learner's language
    refusals = [line.split("거절 / refused:", 1)[1].strip() for line in printed_lines(nb) if "거절 / refused:" in line]
    assert len(refusals) == 4 and all(in_language(m, lang) for m in refusals), refusals
    said = nb.cell(cell_of(STEM, "## 8. 직접 해 보기")).inner_text()
    assert "「펌프」 칸을 1로" in said and 'Set the "Pump" field on Olaf\'s card to 1, then to 3' in said
    table = cell_of(STEM, "table = ContestTable(actions=actions")
    olaf = nb.kernel_json("olaf2.uid")
    side_a = t("side.0", lang)

    # Run All left the table fresh: the by-pump line as the kernel rates it
    assert nb.kernel_json("[game.round, game.bonus(olaf2.uid)['dice'], olaf2.lucky_left]") == [0, 0, 3]
    by_pump = t("odds.by_pump", lang, name="올라프", options=" · ".join(
        t("odds.pump_option", lang, n=n, p=p) for n, p in enumerate(["89.5%", "86.6%", "49.2%", "5.0%"])))
    assert by_pump in odds_shown(nb, table), "the by-pump line says the lesson's four chances"

    card = olaf_card(nb, table)
    pump = card.get_by_label(t("campaign.pump", lang), exact=True)
    for n, p in ((1, "86.6%"), (3, "5.0%"), (0, "89.5%")):
        commit(pump, n)
        nb.settle()
        assert nb.kernel_json("game.bonus(olaf2.uid)") == {"pump": n, "pump_dice": n, "lucky": {}, "dice": n}
        lines = odds_shown(nb, table)
        assert t("odds.p_win", lang, side=side_a, names="올라프", p=p) in lines, f"pump {n}"
        pump_line = t("campaign.pump_line", lang, n=n, dice=n, cliche="바이킹")
        assert (pump_line in shown_text(nb, table)) == (n > 0), "the card says what the pump costs"
        if n == 3:
            snap(nb, table, f"16-pump-3-{lang}")

    commit(card.get_by_label(t("campaign.lucky", lang, n=3), exact=True), 1)
    nb.settle()
    assert nb.kernel_json("game.bonus(olaf2.uid)") == {"pump": 0, "pump_dice": 0, "lucky": {olaf: 1}, "dice": 1}
    assert t("odds.p_win", lang, side=side_a, names="올라프", p="96.6%") in odds_shown(nb, table)
    assert t("campaign.lucky_line", lang, n=1) in shown_text(nb, table)

    click(nb, table, t("contest.roll", lang, n=1))
    attempts, left, viking, spy = nb.kernel_json(
        "[len([e for e in game.events if e['type'] == 'round_decided'][0]['attempts']), olaf2.lucky_left, "
        "olaf2.cliche('바이킹').current, spy2.cliche('첩자').current]")
    assert attempts == 2, "with the notebook's seed the first roll is a tie"
    assert (left, viking, spy) == (2, 4, 2), "one lucky shot spent through the tie; Olaf wins the round"
    assert olaf_card(nb, table).get_by_label(t("campaign.lucky", lang, n=2), exact=True).is_visible(), \
        "the card says 2 lucky shots are left"
    assert t("campaign.lucky_line", lang, n=1) not in shown_text(nb, table), "the shot is spent"
    odds_shown(nb, table)
    snap(nb, table, f"16-after-roll-{lang}")
    agree(nb, "after the pump, the lucky shot and the roll")


@pytest.mark.parametrize("lang", LANGS)
def test_16_olaf_at_2_against_a_spy_at_1_pump_1_raises_the_chance(lab, lang):
    nb = run(lab, STEM, lang, suffix=EN)
    said = nb.cell(cell_of(STEM, "## 8. 직접 해 보기")).inner_text()
    assert "olaf_score, spy_score = 2, 1" in said
    cell = cell_of(STEM, "olaf_score, spy_score = 4, 3")
    before = cell_lines(nb, cell)
    assert [line.split()[-1] for line in before[2:]] == ["89.5%", "86.6%", "49.2%", "5.0%"]

    edit_and_run(nb, cell, "olaf_score, spy_score = 4, 3", "olaf_score, spy_score = 2, 1")
    assert cell_errors(nb, cell) == []
    kernel = nb.kernel_json("[float(__import__('raisus_panel.rules.odds', fromlist=['contest_odds']).contest_odds("
                            "2, 1, a_extra=n, a_pump=n, exact=True).p_win) for n in range(2)]")
    assert nb.kernel_json("[[n, float(p)] for n, p in pump_table]") == [[0, kernel[0]], [1, kernel[1]]], \
        "the cell's table is contest_odds for Olaf 2 against a Spy at 1"
    assert nb.kernel_json("[type(p).__name__ for n, p in pump_table]") == ["Fraction", "Fraction"], "exact"
    lines = cell_lines(nb, cell)
    assert lines[0] == "올라프 / Olaf 2 대 / vs 첩자 / Spy 1"
    assert lines[2:] == [f"{n:>4} {2 + n:>8} {p:>12.1%}" for n, p in enumerate(kernel)]
    assert kernel[1] > kernel[0] and [f"{p:.1%}" for p in kernel] == ["95.0%", "98.8%"], "pump 1 raises it"
    snap(nb, cell, f"16-olaf-2-spy-1-{lang}")
    agree(nb, "after Olaf 2 against a Spy at 1")
