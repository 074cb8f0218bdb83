"""Issue 21 (low): the GM's own page, closed because the GM replaced its link elsewhere, does not say "ask the GM"."""

from raisus_panel.dashboard.room_page import RoomPage
from raisus_panel.i18n import t
from raisus_panel.room import Actor, RoomSession
from raisus_panel.room.registry import _replaced
from raisus_panel.ui._base import md_esc

from .conftest import room_for_two


def test_the_gms_replaced_page_points_to_the_new_link_not_to_the_gm():
    gm, ann, _, _ = room_for_two()
    for lang in ("en", "ko"):
        page = RoomPage(RoomSession(gm.room, Actor.gm()), lang=lang)
        page._close(_replaced())  # what the room does to a page whose link was replaced: no click does it
        text = page.__panel__().objects[0].object
        assert md_esc(t("dashboard.closed.gm_replaced", lang)) in text and md_esc(t("error.link.replaced", lang)) not in text
    player = RoomPage(ann, lang="en")
    player._close(_replaced())
    assert md_esc(t("error.link.replaced", "en")) in player.__panel__().objects[0].object  # a player does ask the GM


def test_a_gm_page_closed_by_the_servers_owners_new_link_says_how_to_come_back(tmp_path):
    """``raisus links ROOM --new-gm`` (the owner's way back for a GM who lost their link) closes the
    GM's open pages: they say it was replaced, which link to open, and the command for the next time."""
    from raisus_panel.room import RoomRegistry, SQLiteStore

    registry = RoomRegistry(SQLiteStore(str(tmp_path / "rooms.sqlite")))
    room, links = registry.create_room("Lost seat", gm_name="Gina")
    pages = {lang: RoomPage(registry.open_session(links.gm), lang=lang) for lang in ("en", "ko")}
    registry.new_gm_link(room.room_id)
    for lang, page in pages.items():
        text = page.__panel__().objects[0].object
        assert md_esc(t("error.link.gm_replaced", lang, room_id=room.room_id)) in text, text
        assert md_esc(f"raisus links {room.room_id} --new-gm") in text
