"""The room page's header says whether the table is live: "Table unavailable" while the room's
Redis store cannot be reached, "Live" again once it answers (a real redis-server, really killed)."""

from __future__ import annotations

from raisus_panel.dashboard.room_page import RoomPage
from raisus_panel.i18n import t
from raisus_panel.room import Actor, RoomSession
from raisus_panel.room.redis_store import RedisStore

from .conftest import Table
from .test_stores import eventually


def state(page: RoomPage) -> str:
    return page._connection.object


def test_the_header_says_the_table_is_unavailable_while_redis_is_away(redis_url, redis_server):
    store = RedisStore(redis_url)
    try:
        table = Table(store=store)
        pages = {lang: RoomPage(session=RoomSession(table.room, Actor.spectator()), lang=lang, session_id=lang)
                 for lang in ("en", "ko")}
        for lang, page in pages.items():
            assert "data-state=live" in state(page) and t("dashboard.connection.live", lang) in state(page)
        redis_server.kill()
        for lang, page in pages.items():
            assert eventually(lambda page=page: "data-state=unavailable" in state(page), timeout=20), state(page)
            assert t("dashboard.connection.unavailable", lang) in state(page)
        redis_server.start()
        for page in pages.values():
            assert eventually(lambda page=page: "data-state=live" in state(page), timeout=20), state(page)
            page.dispose()
        assert not store._status_callbacks  # a closed page stops listening
    finally:
        store.close()


def test_an_embedded_store_is_always_live():
    table = Table()
    page = RoomPage(session=RoomSession(table.room, Actor.spectator()), lang="en")
    assert "data-state=live" in state(page)
    page.dispose()
