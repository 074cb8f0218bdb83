"""Issue 21 (faults and abuse): with two processes on Redis, the GM sees who is at the table through either.

Two real ``raisus serve --store redis://...`` processes share a real ``redis-server``. The GM's page is
on process A; Cleo joins with the invitation on process B. The GM's "who is here" line shows her
(her name from the room's log, her being online from the store), and no longer once her page closed
(Bokeh lets a closed page's session go within about half a minute; its presence goes with it).
"""

from __future__ import annotations

import pytest

from raisus_panel.room import RoomRegistry
from raisus_panel.room.redis_store import RedisStore

from .conftest import shot
from .helpers import button, commit, expect, t
from .test_reconnect import role_line
from .test_scale_out import served

pytestmark = pytest.mark.browser


@pytest.fixture
def two_servers(redis_url):
    servers = [served(redis_url), served(redis_url)]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.kill()


def seed(redis_url: str) -> dict:
    store = RedisStore(redis_url)
    try:
        _, links = RoomRegistry(store).create_room("Two servers", gm_name="Gina")
        return {"gm": links.gm, "invite": links.player}
    finally:
        store.close()


def test_the_gm_on_one_process_sees_a_player_online_through_the_other(two_servers, redis_url, new_page):
    a, b = two_servers
    links = seed(redis_url)
    gm = new_page(f"{a.url}/dashboard?token={links['gm']}")
    expect(role_line(gm, "GM · Gina")).to_be_visible(timeout=30_000)
    presence = gm.locator(".raisus-presence")
    expect(presence).to_contain_text("Gina")
    expect(presence).not_to_contain_text("Cleo")

    cleo = new_page(f"{b.url}/dashboard?token={links['invite']}")
    commit(cleo.get_by_placeholder(t("dashboard.join.name")), "Cleo")
    button(cleo, "dashboard.join.button").click()
    expect(role_line(cleo, "player · Cleo")).to_be_visible(timeout=30_000)
    # the GM's page, on the other process, shows her: joined (the log) and online (the store)
    expect(presence).to_contain_text(f"Cleo ({t('role.player')})", timeout=20_000)
    expect(cleo.locator(".raisus-presence")).to_contain_text("Gina")
    shot(gm, "shared-presence-gm-sees-cleo")

    cleo.context.close()
    expect(presence).not_to_contain_text("Cleo", timeout=70_000)
    expect(presence).to_contain_text("Gina")
