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


def parts(card: LinkCard):
    """A card's text, the field holding its link (marked with its role) and its QR pane, as laid out."""
    s = Screen(card)
    return (s.part("raisus-link-text", hidden=True), s.part(f"raisus-link-{card.role}", hidden=True),
            s.part("raisus-qr", hidden=True))


def shown(card: LinkCard) -> dict:
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
    # the lobby and the GM's link manager are dashboard pages: which cards they keep (the same ones,
    # relabelled, not new ones) is an inside, read here by name
    lobby._title.value = "Friday"
    lobby._make_room()
    intro, *views = lobby._links_box.objects
    assert t("dashboard.lobby.links_intro", lang) in intro.object
    cards = [lobby._cards[role] for role in ROLES]
    assert views == [card.__panel__() for card in cards]
    for card in cards:
        assert card.url == lobby.links[card.role] and card.url.startswith(f"{BASE}?token=")
        room, role = registry.resolve(card.url.split("token=")[1])
        assert room.title == "Friday" and role.value == card.role
        assert t(f"dashboard.link.{card.role}.who", lang).replace("'", "&#x27;") in shown(card)["text"]
    other = "en" if lang == "ko" else "ko"
    lobby.lang = other  # the same cards, in the other language
    assert lobby._links_box.objects[1:] == views and [lobby._cards[role] for role in ROLES] == cards
    assert all(t(f"dashboard.link.{c.role}", other).replace("'", "&#x27;") in shown(c)["text"] for c in cards)


def test_the_gm_gets_cards_for_the_links_made_again():
    registry = RoomRegistry(MemoryStore())
    _, links = registry.create_room("Tavern", gm_name="Gina")
    manager = LinkManager(session=registry.open_session(links.gm), base_url=BASE, lang="en")
    manager._do_reissue()
    alert, *views = manager._fresh.objects
    assert t("dashboard.links.reissued", "en").split(".")[0] in alert.object
    cards = list(manager._cards.values())
    assert views == [card.__panel__() for card in cards]
    assert [card.role for card in cards] == ["player", "spectator"]
    assert all("<h4 class='raisus-link-title'>" in shown(card)["text"] for card in cards)
    for card in cards:
        assert registry.resolve(card.url.split("token=")[1])[1].value == card.role
    manager.lang = "ko"
    assert manager._fresh.objects[1:] == views and list(manager._cards.values()) == cards
    assert shown(cards[0])["copy"] == "복사"
    manager._do_replace()
    (card,) = manager._cards.values()
    assert manager._fresh.objects[1:] == [card.__panel__()]
    assert card.role == "gm" and registry.resolve(card.url.split("token=")[1])[1].value == "gm"
