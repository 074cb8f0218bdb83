"""The link cards of the lobby and of the GM's link management: title, who gets the link, the link to
copy and its QR code, in both languages (no server: the served Copy button and QR scan are in
tests/browser/test_lobby_links.py)."""

from __future__ import annotations

import re

import pytest

from raisus_panel.dashboard.link_card import ROLES, LinkCard, qr_svg
from raisus_panel.dashboard.links import LinkManager
from raisus_panel.dashboard.lobby import Lobby
from raisus_panel.i18n import LANGUAGES, t
from raisus_panel.room import MemoryStore, RoomRegistry

from .drivers import Screen

BASE = "http://table.example:5006/dashboard"
URL = f"{BASE}?token=room1.AbC-dEf_123"


def role_of(card) -> str:
    """Whose link a card is: a LinkCard's role, or what a shown card is marked (``raisus-link-card-<role>``)."""
    if isinstance(card, LinkCard):
        return card.role
    (role,) = [c.removeprefix("raisus-link-card-") for c in card.css_classes if c.startswith("raisus-link-card-")]
    return role


def parts(card):
    """A card's text, the field holding its link (marked with its role) and its QR pane, as laid out."""
    s = Screen(card)
    return (s.part("raisus-link-text", hidden=True), s.part(f"raisus-link-{role_of(card)}", hidden=True),
            s.part("raisus-qr", hidden=True))


def url_of(card) -> str:
    """The link a card holds (its field's, as the browser copies it)."""
    return parts(card)[1].url


def link_cards(screen: Screen) -> list:
    """The link cards a page shows, in page order."""
    return [o for o in screen.objects() if "raisus-link-card" in (getattr(o, "css_classes", None) or [])]


def shown(card) -> dict:
    """What a card shows: its text, its field's texts and link, and its QR pane."""
    text, field, qr = parts(card)
    return {"text": text.object, "url": field.url, "label": field.label, "copy": field.copy_label,
            "copied": field.copied_label, "selected": field.selected_label, "qr": qr.object,
            "qr_visible": qr.visible, "classes": field.css_classes}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_a_card_says_what_the_link_is_and_who_gets_it(role, lang):
    got = shown(LinkCard(role=role, url=URL, lang=lang))
    title = t(f"dashboard.link.{role}", lang)
    assert f"<h3 class='raisus-link-title'>{title.replace(chr(39), '&#x27;')}</h3>" in got["text"]
    assert t(f"dashboard.link.{role}.who", lang).replace("'", "&#x27;") in got["text"]
    assert got["url"] == URL and got["label"] == title
    assert (got["copy"], got["copied"], got["selected"]) == (
        t("dashboard.link.copy", lang), t("dashboard.link.copied", lang), t("dashboard.link.selected", lang))
    assert f"raisus-link-{role}" in got["classes"]  # the field that holds the URL, as the browser tests read it
    assert got["qr_visible"] and "<svg" in got["qr"]
    label = t("dashboard.link.qr", lang, title=title).replace("'", "&#x27;")
    assert f"role='img' aria-label='{label}'" in got["qr"]


def test_who_gets_which_link_reads_as_it_should():
    assert t("dashboard.link.gm.who", "en").startswith("Only you: the GM's seat.")
    assert t("dashboard.link.player.who", "en").startswith("Send it to each player: they type a name")
    assert t("dashboard.link.spectator.who", "en").startswith("For anyone who only watches")
    assert "GM인 나만" in t("dashboard.link.gm.who", "ko")
    assert "플레이어마다 보내세요" in t("dashboard.link.player.who", "ko")


def test_a_card_switches_language_and_link_in_place():
    card = LinkCard(role="spectator", url=URL, lang="ko")
    _, field, qr = parts(card)
    card.lang = "en"
    assert t("dashboard.link.spectator", "en") in shown(card)["text"] and field.copy_label == "Copy"
    before = qr.object
    card.url = URL + "x"
    assert parts(card)[1] is field and field.url == URL + "x" and qr.object != before
    card.url = ""
    assert not shown(card)["qr_visible"]


def test_the_qr_code_holds_no_text_of_the_link_and_nothing_is_put_into_html_unescaped():
    hostile = f"{BASE}?token=\"><img src=x onerror=alert(1)>"
    card = LinkCard(role="gm", url=hostile, lang="en")
    svg, size = qr_svg(hostile)
    assert "token" not in svg and "<img" not in svg and "onerror" not in svg
    assert re.fullmatch(r'<svg width="(\d+)" height="\1" class="segno"><g transform="scale\(4\)">'
                        r'<path fill="#fff" d="[^"]+"/><path class="qrline" stroke="#000" d="[^"]+"/></g></svg>', svg)
    assert size == int(re.match(r'<svg width="(\d+)"', svg).group(1)) and size >= 21 * 4 + 8 * 4
    assert "<img" not in shown(card)["text"] and "<img" not in shown(card)["qr"]
    assert shown(card)["url"] == hostile  # a property of the field, set as the input's value in the browser


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_shows_a_card_for_each_link_of_the_new_room(lang):
    registry = RoomRegistry(MemoryStore())
    lobby = Lobby(registry=registry, base_url=BASE, lang=lang)
    page = Screen(lobby)
    page.type(t("dashboard.lobby.room_title", lang), "Friday")
    page.click(t("dashboard.lobby.create", lang))
    cards = link_cards(page)
    assert [role_of(card) for card in cards] == list(ROLES)
    intro = t("dashboard.lobby.links_intro", lang)
    assert intro in page.texts() and page.texts().index(intro) < page.texts().index(Screen(cards[0]).texts()[0])
    for card in cards:
        url = url_of(card)
        assert url == lobby.links[role_of(card)] and url.startswith(f"{BASE}?token=")
        room, role = registry.resolve(url.split("token=")[1])
        assert room.title == "Friday" and role.value == role_of(card)
        assert t(f"dashboard.link.{role_of(card)}.who", lang).replace("'", "&#x27;") in shown(card)["text"]
    other = "en" if lang == "ko" else "ko"
    lobby.lang = other  # the same cards, relabelled in the other language, not new ones
    assert all(a is b for a, b in zip(link_cards(page), cards, strict=True))
    assert all(t(f"dashboard.link.{role_of(c)}", other).replace("'", "&#x27;") in shown(c)["text"] for c in cards)


def test_the_gm_gets_cards_for_the_links_made_again():
    registry = RoomRegistry(MemoryStore())
    _, links = registry.create_room("Tavern", gm_name="Gina")
    manager = LinkManager(session=registry.open_session(links.gm), base_url=BASE, lang="en")
    page = Screen(manager)
    page.click(t("dashboard.links.reissue", "en"))
    page.confirm()
    fresh = Screen(page.part("raisus-fresh-links"), "en")  # the new links, under a warning to hand them on
    assert t("dashboard.links.reissued", "en").split(".")[0] in fresh.texts()[0]
    cards = link_cards(fresh)
    assert [role_of(card) for card in cards] == ["player", "spectator"]
    assert all("<h4 class='raisus-link-title'>" in shown(card)["text"] for card in cards)
    for card in cards:
        assert registry.resolve(url_of(card).split("token=")[1])[1].value == role_of(card)
    manager.lang = "ko"  # the same cards, relabelled, not new ones
    assert all(a is b for a, b in zip(link_cards(fresh), cards, strict=True))
    assert shown(cards[0])["copy"] == "복사"
    page.click(t("dashboard.links.replace_gm", "ko"))
    page.confirm()
    (card,) = link_cards(fresh)
    assert role_of(card) == "gm" and registry.resolve(url_of(card).split("token=")[1])[1].value == "gm"
