"""Korean particles are chosen by the last syllable of what comes before them, as a person writes."""

from __future__ import annotations

import pytest

from raisus_panel.i18n import josa, t, translate
from raisus_panel.rules import Character, Contest, RuleError


@pytest.mark.parametrize("before, after", [
    ("점수은(는)", "점수는"), ("바이킹은(는)", "바이킹은"),          # no final consonant / one
    ("오우거이(가)", "오우거가"), ("기사 롤랑이(가)", "기사 롤랑이"),
    ("요리사을(를)", "요리사를"), ("검을(를)", "검을"),
    ("칼(으)로", "칼로"), ("물(으)로", "물로"), ("창(으)로", "창으로"), ("도끼(으)로", "도끼로"),  # ㄹ takes 로
    ("빌리와(과)", "빌리와"), ("늑대와(과)", "늑대와"), ("곰과(와)", "곰과"),
    ("“검”은(는)", "“검”은"), ("(기사)은(는)", "(기사)는"),                # quotes and brackets skipped
    # a Latin name or a number, as a Korean reader says it
    ("Viking은(는)", "Viking은"), ("Ogre이(가)", "Ogre가"), ("Sir Ann을(를)", "Sir Ann을"),
    ("Paul(으)로", "Paul로"), ("Tom와(과)", "Tom과"), ("Jane이(가)", "Jane이"), ("Thor은(는)", "Thor는"),
    ("7은(는)", "7은"), ("2을(를)", "2를"), ("10(으)로", "10으로"), ("1(으)로", "1로"), ("“Ogre”은(는)", "“Ogre”는"),
    # read either way (Jack 잭, Mark 마크), or not a word at all: both forms stay, never wrong
    ("Jack이(가)", "Jack이(가)"), ("Knight은(는)", "Knight은(는)"), ("?은(는)", "?은(는)"),
])
def test_the_particle_fits_the_word(before, after):
    assert josa(before) == after


def test_catalog_texts_and_refusals_read_naturally():
    assert t("error.room.already_joined", "ko", name="서연").startswith("서연은 ")
    assert t("error.room.already_joined", "ko", name="지아").startswith("지아는 ")
    viking = Character("바이킹", {"바이킹": 4})
    pirate = Character("해적", {"해적": 3})
    refusal = Contest("난투", viking, pirate).why_not_error("volunteer", viking)
    assert isinstance(refusal, RuleError)
    shown = translate(refusal, "ko")
    assert "(는)" not in shown and "(가)" not in shown and "(를)" not in shown
    assert translate(refusal, "en") == str(refusal)  # English is untouched
