"""Issue 21: the report's "dice at the start → at the end" is the contest's, not after the GM's recovery."""

from __future__ import annotations

import re

from raisus_panel.report import report


def kitchen(html: str) -> str:
    return next(s for s in re.findall(r"<section class=contest.*?</section>", html, re.S) if "Kitchen" in s)


def test_dice_at_the_end_are_read_before_the_gms_recovery(played):
    # the Kitchen ended with Olaf's Cook 2 → 0; the GM restores it after the end, before closing
    before = kitchen(report(played.room, "en").html())
    assert "Cook (2) <span class=soft>dice: 2 → 0</span>" in before
    played.room.apply(played.gm, "recover", {"character": played.olaf, "cliche": "Cook"})
    assert played.room.contest.characters()[0].cliche("Cook").current == 2  # recovered, as the issue saw
    after = kitchen(report(played.room, "en").html())
    assert "Cook (2) <span class=soft>dice: 2 → 0</span>" in after  # not "dice: 2", not a gain
    assert "dice: 0 → 2" not in after


def test_english_counts_are_singular_for_one():
    from raisus_panel.i18n import t

    assert t("past.rounds", "en", n=1) == "1 round" and t("past.rounds", "en", n=3) == "3 rounds"
    assert t("past.label", "en", name="Duel", rounds=1) == "Duel · 1 round"
    assert t("report.contests", "en", n=1) == "1 contest"
