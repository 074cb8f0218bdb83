"""Issue 21 (low): English plurals and Korean wording a table reads without stumbling."""

import re

from raisus_panel.i18n import catalog, t


def test_one_round_is_one_round():
    assert t("past.rounds", "en", n=1) == "1 round" and t("past.rounds", "en", n=2) == "2 rounds"
    assert t("past.label", "en", name="Duel", rounds=1) == "Duel · 1 round"


def test_one_die_is_one_die():
    assert t("contest.dice_left", "en", n=0, of=1) == "0 of 1 die left"
    assert t("contest.dice_left", "en", n=2, of=4) == "2 of 4 dice left"
    assert "asked for 1 die with" in t("error.dice.script_empty", "en", n=1)
    # a count before a plural word takes the catalog's plural form, unless it can never be 1
    never_one = {"error.dice.too_many", "error.input.too_long", "error.odds.exact_too_big",
                 "error.odds.pool_too_big", "term.file.text_too_long"}
    bare = [k for k, s in catalog("en").items()
            if re.search(r"\{[a-z_]+\} (dice|rounds|points|players|members|characters|clichés|tickets)\b", s)]
    assert sorted(set(bare) - never_one) == []


def test_korean_reads_naturally():
    ko = catalog("ko")
    texts = list(ko.values())
    assert not [s for s in texts if "커밋" in s]  # jargon: the seed is "sealed" (봉인)
    assert not [s for s in texts if "클라이언트 씨앗" in s]  # one name for the client seed: 플레이어 씨앗
    # a Korean page speaks of the reader as 내 / 우리 (내 차례, 우리 편), never the stiff 당신
    assert not [s for s in texts if "당신" in s]
    assert not [s for s in texts if re.search(r"\} 라운드", s)]  # 1라운드, not 1 라운드
    assert not [s for s in texts if "기를 기다리고" in s]
    assert t("contest.round", "ko", n=1) == "1라운드"
    assert t("what_now.you.roll", "ko", n=2).startswith("내 차례: 2라운드가 열렸습니다.")


def test_one_korean_word_for_the_team_leader():
    # the cards, the what-now lines and the errors say 리더; the advisor and a button's help said 대장
    # too. 대장 stays only in the glossary's term for a lost leader (대장 손실)
    en, ko = catalog("en"), catalog("ko")
    daejang = sorted(k for k, s in ko.items() if "대장" in s.replace("대장 손실", ""))
    assert daejang == []
    words = {k: re.sub(r"\{[^{}]*\}", "", s).lower() for k, s in en.items()}  # not the {leader} placeholders
    leader = [k for k, s in words.items() if "leader" in s and "lost its leader" not in s]
    assert len(leader) > 10 and [k for k in leader if "리더" not in ko[k]] == []
