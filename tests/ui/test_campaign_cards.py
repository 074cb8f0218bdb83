"""Issue 26 at the table: a unit's pump and lucky shots are set on its own card before the roll, with
the dice they add said in words; the log says who pumped or spent what and what it cost. Without the
options a card looks as before."""

from __future__ import annotations

import pytest

from raisus_panel.ui import Actions, ContestTable, RoundLog

from .conftest import room_for_two
from .drivers import Screen


def brawl(lang="en", rolls=(), **rules):
    """Ann's Olaf (Viking 4, 3 lucky shots) against the GM's Spy (Spy 3), on the table's rules."""
    gm, ann, olaf, spy = room_for_two(rolls)
    if rules:
        gm.act("set_rules", profile=rules)
    gm.act("update_character", uid=olaf.uid, lucky_shots=3, lucky_left=3)
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    return gm, ann, olaf, spy, ContestTable(actions=Actions(ann), lang=lang)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_player_pumps_and_spends_lucky_shots_on_her_own_card_and_sees_the_dice_they_add(lang):
    gm, ann, olaf, spy, table = brawl(lang, rolls=[[6] * 7, [1] * 3], pumps=True, lucky_shots=True)
    s = Screen(table)
    card = s.card("Olaf")
    pump = card.control("number", s.t("campaign.pump"))
    lucky = card.control("number", s.t("campaign.lucky", n=3))
    assert not Screen(table).card("Spy").controls("number")  # the GM's NPC: not hers to pump
    pump.value = 2
    lucky.value = 1
    card = Screen(table).card("Olaf")
    assert gm.room.contest.bonus(olaf.uid) == {"pump": 2, "pump_dice": 2, "lucky": {olaf.uid: 1}, "dice": 3}
    assert card.shows(s.t("campaign.pump_line", n=2, dice=2, cliche="Viking"))
    assert card.shows(s.t("campaign.lucky_line", n=1))
    gm.act("roll_round")  # 4 + 2 + 1 = 7 dice
    assert olaf.cliche("Viking").current == 2 and olaf.lucky_left == 2 and spy.cliche("Spy").current == 2
    card = Screen(table).card("Olaf")
    assert card.control("number", s.t("campaign.pump")).value == 0
    assert card.control("number", s.t("campaign.lucky", n=2)).value == 0
    assert not card.shows(s.t("campaign.lucky_line", n=1))


def test_a_cliche_at_1_says_why_it_cannot_pump():
    gm, ann, olaf, spy, table = brawl(pumps=True)
    gm.act("end_contest", outcome="Called off")
    gm.act("close_contest")
    gm.act("update_character", uid=olaf.uid, cliches=[{"name": "Viking", "rating": 4, "current": 1}])
    gm.act("start_contest", name="Brawl again", side_a=[olaf.uid], side_b=[spy.uid])
    s = Screen(table)
    pump = s.card("Olaf").control("number", s.t("campaign.pump"))
    assert pump.disabled and "no pump from 1" in pump.why


def test_without_the_options_a_card_has_no_pump_or_lucky_fields():
    gm, ann, olaf, spy, table = brawl()
    assert Screen(table).card("Olaf").controls("number") == []


def test_the_log_says_who_pumped_and_spent_what_and_what_it_cost():
    gm, ann, olaf, spy, table = brawl(rolls=[[6] * 7, [1] * 3], pumps=True, lucky_shots=True)
    ann.act("pump", unit=olaf.uid, amount=2)
    ann.act("spend_lucky", character=olaf.uid, amount=1)
    gm.act("roll_round")
    log = RoundLog(actions=Actions(ann), lang="en")
    headings = [h for h, _ in log.entries()]
    details = [line for _, lines in log.entries() for line in lines]
    assert "Olaf pumps by 2 for the next roll" in headings
    assert "Olaf spends 1 lucky shot on the next roll" in headings
    assert any("Olaf rolls Viking: 7 dice" in line and "pump 2" in line and "1 lucky shot" in line for line in details)
    assert "Olaf's Viking pays the pump: −2" in details and "Olaf spent 1 lucky shot" in details


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_32_a_lucky_shot_in_the_check_panel_adds_its_die_to_the_odds_and_the_roll(lang):
    from fractions import Fraction

    from raisus_panel.rules import odds
    from raisus_panel.ui import ActionCheckPanel

    gm, ann, olaf, spy = room_for_two([[4, 3, 3]])
    gm.act("set_rules", profile={"lucky_shots": True})
    gm.act("update_character", uid=olaf.uid, cliches=[{"name": "Viking", "rating": 2}], lucky_shots=3, lucky_left=3)
    panel = ActionCheckPanel(actions=Actions(ann), lang=lang)
    s = Screen(panel)
    s.choose(s.t("check.character"), "Olaf")
    assert panel.chance() == odds.check_chance(2, 10)
    s.control("number", s.t("campaign.lucky", n=3)).value = 1
    assert panel.chance() == odds.check_chance(3, 10) == Fraction(135, 216)
    assert not s.controls("number", s.t("campaign.pump"))  # pumps in checks are off
    s.click(s.t("check.roll"))
    assert panel.result["dice"] == 3 and panel.result["success"] and olaf.lucky_left == 2
    assert s.control("number", s.t("campaign.lucky", n=2)).value == 0
    assert s.t("log.with_lucky", n=1) in s.text()


def test_the_check_panel_offers_nothing_extra_without_the_options():
    from raisus_panel.ui import ActionCheckPanel

    gm, ann, olaf, spy = room_for_two()
    s = Screen(ActionCheckPanel(actions=Actions(ann), lang="en"))
    s.choose(s.t("check.character"), "Olaf")
    assert s.controls("number", s.t("campaign.pump")) == [] and not [
        c for c in s.controls("number") if "Lucky" in (c.name or "")]
