"""Issue 26: the live odds count a declared pump and lucky shots exactly, and answer the question
players ask under the pumps option -- "pump 0, 1, 2: my chance of winning the contest"."""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t
from raisus_panel.rules import odds
from raisus_panel.ui import Actions, LiveOdds

from .conftest import room_for_two


def brawl(**rules):
    """Ann's Olaf (Viking 4, 3 lucky shots) against the GM's Spy (Spy 3), on the table's rules."""
    gm, ann, olaf, spy = room_for_two([])
    if rules:
        gm.act("set_rules", profile=rules)
    gm.act("update_character", uid=olaf.uid, lucky_shots=3, lucky_left=3)
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    return gm, ann, olaf, spy


def p_win(a=4, b=3, **extras) -> float:
    return float(odds.contest_odds(a, b, **extras).p_win)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_pump_olaf_could_declare_is_rated_and_said_in_words(lang):
    gm, ann, olaf, spy = brawl(pumps=True, lucky_shots=True)
    live = LiveOdds(actions=Actions(ann), lang=lang)
    by_side = {side: (name, options) for side, name, options in live.chances.pumps}
    assert by_side[0][0] == "Olaf"
    assert dict(by_side[0][1]) == pytest.approx({0: p_win(), 1: p_win(a_extra=1, a_pump=1),
                                                 2: p_win(a_extra=2, a_pump=2), 3: p_win(a_extra=3, a_pump=3)})
    assert dict(by_side[1][1]) == pytest.approx({0: 1 - p_win(), 1: 1 - p_win(b_extra=1, b_pump=1),
                                                 2: 1 - p_win(b_extra=2, b_pump=2)})
    shown = live.__panel__().objects[0].object
    assert t("odds.pump_option", lang, n=1, p=f"{p_win(a_extra=1, a_pump=1):.1%}") in shown
    assert t("odds.by_pump", lang, name="Olaf", options="").rstrip(": ") in shown


def test_a_declared_pump_and_lucky_shots_are_in_the_odds_of_the_contest_and_the_next_round():
    gm, ann, olaf, spy = brawl(pumps=True, lucky_shots=True)
    live = LiveOdds(actions=Actions(ann))
    ann.act("pump", unit=olaf.uid, amount=2)
    ann.act("spend_lucky", character=olaf.uid, amount=1)
    assert live.chances.p_win == pytest.approx(p_win(a_extra=3, a_pump=2))
    assert live.chances.pools == (7, 3)
    assert live.chances.p_next == pytest.approx(float(odds.round_chance(7, 3)))
    # the other pumps are rated with Olaf's lucky shot kept
    olaf_options = dict(next(o for side, _, o in live.chances.pumps if side == 0))
    assert olaf_options[0] == pytest.approx(p_win(a_extra=1))
    assert olaf_options[2] == pytest.approx(live.chances.p_win)
    spy_options = dict(next(o for side, _, o in live.chances.pumps if side == 1))
    assert spy_options[1] == pytest.approx(1 - p_win(a_extra=3, a_pump=2, b_extra=1, b_pump=1))


def test_without_the_pumps_option_no_pump_line_and_the_odds_as_before():
    gm, ann, olaf, spy = brawl(lucky_shots=True)
    live = LiveOdds(actions=Actions(ann))
    assert live.chances.pumps == () and live.chances.p_win == pytest.approx(p_win())
    assert t("odds.pump_option", "en", n=0, p="").split(":")[0] not in live.__panel__().objects[0].object
    ann.act("spend_lucky", character=olaf.uid, amount=2)  # lucky shots alone still count
    assert live.chances.p_win == pytest.approx(p_win(a_extra=2))
