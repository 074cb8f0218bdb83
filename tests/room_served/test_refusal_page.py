"""A refused link's page speaks one language: the heading and the reason are both Korean (or English)."""

from __future__ import annotations

from raisus_panel import i18n
from raisus_panel.dashboard.app import page_for
from raisus_panel.room import MemoryStore, RoomRegistry


def test_a_bad_links_refusal_is_all_in_the_pages_language():
    registry = RoomRegistry(MemoryStore())
    _, links = registry.create_room("Tavern")
    before = i18n.settings.lang
    try:
        for lang in ("ko", "en"):
            i18n.settings.lang = lang
            shown = page_for(registry, links.gm + "x").object  # a mistyped link
            heading, reason = shown.split(":**")
            assert heading == f"**{i18n.t('dashboard.refused', lang).rstrip(':')}"
            hangul = any("\uac00" <= ch <= "\ud7a3" for ch in reason)
            assert hangul == (lang == "ko"), shown  # no English reason under a Korean heading
    finally:
        i18n.settings.lang = before
