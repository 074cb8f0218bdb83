"""Issue 21 (low): English plurals and Korean wording a table reads without stumbling."""

import re

from raisus_panel.i18n import catalog, t


def test_one_round_is_one_round():
    assert t("past.rounds", "en", n=1) == "1 round" and t("past.rounds", "en", n=2) == "2 rounds"
    assert t("past.label", "en", name="Duel", rounds=1) == "Duel · 1 round"


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
