"""Issue 26: the GM turns the campaign options on, starts and ends sessions; ending one offers each
character its advancement, which its player rolls (or invests) on their own page. In both languages."""

from __future__ import annotations

import pytest

from raisus_panel.ui import Actions, CampaignPanel

from .conftest import room_for_two
from .drivers import Screen


def pages(lang="en", rolls=()):
    gm, ann, olaf, spy = room_for_two(rolls)
    return gm, ann, olaf, spy, Screen(CampaignPanel(actions=Actions(gm), lang=lang)), \
        Screen(CampaignPanel(actions=Actions(ann), lang=lang))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_gm_sets_the_options_ends_the_session_and_the_player_rolls_her_advancement(lang):
    gm, ann, olaf, spy, g, a = pages(lang, rolls=[[3, 3, 3, 3], [2, 4, 6, 6]])
    assert g.shows(g.t("campaign.session", n=1)) and a.shows(a.t("campaign.session", n=1))
    assert not a.controls("checkbox") and not a.controls("button", a.t("campaign.end_session"))
    assert not g.can_press(g.t("campaign.apply_rules"))  # the form shows the table's rules as they are
    g.checkbox(g.t("campaign.option.lucky_shots")).value = True
    g.control("number", g.t("campaign.option.creation_dice")).value = 10
    g.choose(g.t("campaign.option.advancement"), g.t("campaign.advancement.rolls"))
    g.click(g.t("campaign.apply_rules"))
    rules = gm.room.profile
    assert (rules.lucky_shots, rules.creation_dice, rules.advancement, rules.pumps) == (True, 10, "rolls", False)
    assert not g.can_press(g.t("campaign.apply_rules"))
    ann.act("action_check", character=olaf.uid, cliche="Viking", tn=10)
    g.click(g.t("campaign.end_session"))
    assert a.shows(a.t("campaign.session_ended", n=1))
    roll = a.t("campaign.roll_advancement", name="Olaf", cliche="Viking", n=4)
    assert a.can_press(roll) and not g.buttons(g.t("campaign.roll_advancement", name="Spy", cliche="Spy", n=3))
    a.click(roll)
    assert olaf.cliche("Viking").rating == 5
    assert a.shows(a.t("campaign.rose", name="Olaf", cliche="Viking", faces="2, 4, 6, 6", n=5))
    assert not a.buttons(roll)  # rolled once
    g.click(g.t("campaign.new_session"))
    assert a.shows(a.t("campaign.session", n=2))


def test_pumps_in_checks_only_with_pumps():
    gm, ann, olaf, spy, g, a = pages()
    in_checks = g.checkbox(g.t("campaign.option.pump_checks"))
    assert in_checks.disabled and in_checks.why == g.t("campaign.why_pumps_off")  # said beside it
    g.checkbox(g.t("campaign.option.pumps")).value = True
    assert not in_checks.disabled and in_checks.why is None
    in_checks.value = True
    g.checkbox(g.t("campaign.option.pumps")).value = False
    assert in_checks.value is False and in_checks.disabled


def test_points_advancement_is_invested_in_a_typed_cliche():
    gm, ann, olaf, spy, g, a = pages()
    g.choose(g.t("campaign.option.advancement"), g.t("campaign.advancement.points"))
    g.click(g.t("campaign.apply_rules"))
    g.click(g.t("campaign.end_session"))
    invest = a.t("campaign.invest")
    assert not a.can_press(invest) and a.why(invest) == a.t("campaign.invest_pick")
    a.type(a.t("campaign.invest_in", name="Olaf"), "Sailor")
    a.click(invest)
    assert [(c.name, c.rating) for c in olaf.cliches] == [("Viking", 4), ("Sailor", 1)]
    assert a.shows(a.t("campaign.invested_new", name="Olaf", cliche="Sailor"))


def test_ending_a_session_with_a_contest_on_the_table_says_why_not():
    gm, ann, olaf, spy, g, a = pages()
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    end = g.t("campaign.end_session")
    assert not g.can_press(end) and "close it first" in g.why(end)
