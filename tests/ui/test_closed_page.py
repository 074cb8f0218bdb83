"""Issue 21 (low): the GM's own page, closed because the GM replaced its link elsewhere, does not say "ask the GM"."""

from raisus_panel.dashboard.room_page import RoomPage
from raisus_panel.i18n import t
from raisus_panel.room import MemoryStore, RoomRegistry
from raisus_panel.ui._base import md_esc


def test_the_gms_replaced_page_points_to_the_new_link_not_to_the_gm():
    registry = RoomRegistry(MemoryStore())
    _, links = registry.create_room("Tavern", gm_name="Gina")
    ann, _ = registry.join(links.player, "Ann")
    pages = {lang: RoomPage(registry.open_session(links.gm), lang=lang) for lang in ("en", "ko")}
    # the GM replaces the GM link on another page (the Room tab's "Replace my GM link"): every other
    # page opened with the old link closes
    asking = registry.open_session(links.gm)
    registry.replace_gm_link(asking)
    for lang, page in pages.items():
        text = page.__panel__().objects[0].object
        assert md_esc(t("dashboard.closed.gm_replaced", lang)) in text and md_esc(t("error.link.replaced", lang)) not in text
    player = RoomPage(ann, lang="en")
    registry.reissue_player_link(asking, ann.actor.player_id)  # Ann's link made anew
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
