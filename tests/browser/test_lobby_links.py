"""Issue 12: the lobby hands out its three links with a Copy button and a QR code each.

The Copy button is pressed in a real Chromium (by mouse and by keyboard) and the clipboard is read
back; each QR code is photographed off the page and decoded with zbarimg (Debian's zbar-tools), and
must give exactly the link shown beside it. One ``panel serve apps/dashboard.py`` in English.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from .conftest import shot
from .helpers import expect, shot_of
from .table_pages import PHONE, create_room, open_page, serve_table

ROLES = ("gm", "player", "spectator")
CLIPBOARD = ["clipboard-read", "clipboard-write"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    table = serve_table(tmp_path_factory.mktemp("lobby-links"), "en")
    yield table
    table.server.kill()


def lobby_with_links(new_page, table, **context):
    page = new_page(**context)
    open_page(page, table, "lobby")
    return page, create_room(page, table, "Friday night")


def copy_button(page, role: str):
    return page.locator(f".raisus-link-card-{role}").get_by_role("button", name="Copy", exact=True)


def clipboard(page) -> str:
    return page.evaluate("() => navigator.clipboard.readText()")


def test_each_link_has_a_title_a_line_on_who_gets_it_and_a_copy_button(table, new_page):
    page, links = lobby_with_links(new_page, table)
    for role in ROLES:
        card = page.locator(f".raisus-link-card-{role}")
        expect(card.get_by_role("heading", name=table.t(f"dashboard.link.{role}"))).to_be_visible()
        expect(card.get_by_text(table.t(f"dashboard.link.{role}.who"))).to_be_visible()
        field = card.get_by_role("textbox", name=table.t(f"dashboard.link.{role}"), exact=True)
        expect(field).to_have_value(links[role])
        expect(field).not_to_be_editable()  # read-only: a slip of the finger cannot break the link
        expect(card.get_by_role("img", name=table.t("dashboard.link.qr", title=table.t(f"dashboard.link.{role}"))))\
            .to_be_visible()
    assert len(set(links.values())) == 3


def test_copy_puts_exactly_the_link_shown_on_the_clipboard(table, new_page):
    page, links = lobby_with_links(new_page, table, permissions=CLIPBOARD)
    for role in ROLES:
        button = copy_button(page, role)
        button.click()
        expect(page.locator(f".raisus-link-card-{role} .raisus-copy")).to_have_text(table.t("dashboard.link.copied"))
        assert clipboard(page) == links[role] == page.locator(f".raisus-link-{role} input").input_value()
    # the announcement for screen readers, and the button's own text back after a moment
    expect(page.locator(".raisus-link-card-spectator [role=status]")).to_have_text(table.t("dashboard.link.copied"))
    shot(page, "lobby-links-copied-en")
    expect(copy_button(page, "spectator")).to_be_visible(timeout=5_000)
    expect(page.locator(".raisus-link-card-spectator [role=status]")).to_have_text("")


def test_copy_works_from_the_keyboard(table, new_page):
    page, links = lobby_with_links(new_page, table, permissions=CLIPBOARD)
    page.locator(".raisus-link-player input").focus()
    page.keyboard.press("Tab")  # from the link to its Copy button
    expect(page.locator(".raisus-link-card-player .raisus-copy")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".raisus-link-card-player .raisus-copy")).to_have_text(table.t("dashboard.link.copied"))
    assert clipboard(page) == links["player"]
    page.keyboard.press("Tab")  # on to the next card's link, then its button: Space presses it too
    page.keyboard.press("Tab")
    expect(page.locator(".raisus-link-card-spectator .raisus-copy")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator(".raisus-link-card-spectator .raisus-copy")).to_have_text(table.t("dashboard.link.copied"))
    assert clipboard(page) == links["spectator"]


def test_without_the_clipboard_api_copy_copies_the_selected_link(table, new_page):
    """A page reached at http://<the GM's LAN address>:5006 is no secure context: browsers give it no
    ``navigator.clipboard``. The button then selects the link and copies the selection."""
    page = new_page(permissions=CLIPBOARD)
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {get: () => false})")
    open_page(page, table, "lobby")
    links = create_room(page, table, "Over the LAN")
    assert page.evaluate("() => window.isSecureContext") is False
    copy_button(page, "gm").click()
    expect(page.locator(".raisus-link-card-gm .raisus-copy")).to_have_text(table.t("dashboard.link.copied"))
    assert clipboard(page) == links["gm"]
    selected = page.locator(".raisus-link-gm input").evaluate("el => el.value.slice(el.selectionStart, el.selectionEnd)")
    assert selected == links["gm"]


def zbarimg() -> str:
    found = shutil.which("zbarimg")
    if not found:
        if os.environ.get("RAISUS_REQUIRE_BROWSER") == "1":
            pytest.fail("zbarimg is required to decode the QR codes: apt-get install zbar-tools")
        pytest.skip("no zbarimg: apt-get install zbar-tools")
    return found


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_each_qr_code_decodes_to_exactly_its_link(table, browser, size):
    decoder = zbarimg()
    context = browser.new_context(**(PHONE if size == "phone" else {"viewport": {"width": 1400, "height": 1000}}))
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        open_page(page, table, "lobby")
        links = create_room(page, table, "Scan me")
        for role in ROLES:
            image = shot_of(page.locator(f".raisus-link-card-{role} .raisus-qr"), f"lobby-qr-{role}-{size}")
            out = subprocess.run([decoder, "--quiet", "--raw", str(image)], capture_output=True, text=True,
                                 timeout=60)
            assert out.returncode == 0, f"zbarimg found no code in {image}: {out.stderr}"
            assert out.stdout.rstrip("\n") == links[role]
    finally:
        context.close()
