"""The "who is here" line in Chromium: a spectator alone in the room sees itself counted, and a
GM sees the spectator arrive and leave; English and Korean.

One ``panel serve apps/dashboard.py`` on a SQLite file seeded through the room API before the server
opens it. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import pytest

from raisus_panel import i18n
from raisus_panel.room import RoomRegistry, SQLiteStore
from raisus_panel.room.redis_store import RedisStore

from .conftest import Server
from .helpers import expect, shot_of
from .test_scale_out import served as served_on


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("presence") / "raisus.sqlite")
    store = SQLiteStore(db)
    rooms = {}
    try:  # a room for each test and language: a closed page's presence lingers for half a minute
        registry = RoomRegistry(store)
        for case in ("alone", "alone-table", "arrive"):
            for lang in ("en", "ko"):
                rooms[case, lang] = registry.create_room(f"Watched {case} {lang}", gm_name="Gina")[1]
    finally:
        store.close()
    server = Server(["apps/dashboard.py"], env={"RAISUS_DB": db, "RAISUS_LANG": "en"}).start()
    base = f"{server.url}/dashboard"
    server.urls = {(case, lang, role): f"{links.url(role, base)}&lang={lang}"
                   for (case, lang), links in rooms.items() for role in ("gm", "spectator")}
    yield server
    server.kill()


def presence_line(lang: str, people: str) -> str:
    return f"{i18n.t('dashboard.presence', lang)}: {people}"


def first_drawing(page) -> str:
    """The "who is here" line as the page first draws it (not once it has caught up)."""
    line = page.locator(".raisus-presence p")
    line.wait_for()
    return line.inner_text()


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("view", ["", "table"])
def test_a_spectator_alone_sees_itself_counted(served, new_page, lang, view):
    case = f"alone-{view}" if view else "alone"
    spectator = new_page(served.urls[case, lang, "spectator"] + (f"&view={view}" if view else ""))
    one = i18n.t("dashboard.presence.spectators", lang, n=1)
    assert first_drawing(spectator) == presence_line(lang, one)  # at once: it used to say "-" at first
    shot_of(spectator.locator(".raisus-presence"), f"presence-lone-spectator-{view or 'page'}-{lang}")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_gm_sees_a_spectator_arrive_and_go(served, new_page, browser, lang):
    gm = new_page(served.urls["arrive", lang, "gm"])
    line = gm.locator(".raisus-presence")
    gina = f"Gina ({i18n.t('role.gm', lang)})"
    expect(line).to_have_text(presence_line(lang, gina))
    context = browser.new_context()
    spectator = context.new_page()
    spectator.goto(served.urls["arrive", lang, "spectator"])
    both = f"{gina}, {i18n.t('dashboard.presence.spectators', lang, n=1)}"
    expect(line).to_have_text(presence_line(lang, both), timeout=20_000)
    expect(spectator.locator(".raisus-presence")).to_have_text(presence_line(lang, both))
    context.close()
    expect(line).to_have_text(presence_line(lang, gina), timeout=70_000)


def test_a_spectator_alone_on_a_shared_store_sees_itself_counted(redis_url, new_page):
    # on Redis, presence is kept in the store and a link's page first shows a loading shell
    store = RedisStore(redis_url)
    try:
        _, links = RoomRegistry(store).create_room("Watched on Redis", gm_name="Gina")
    finally:
        store.close()
    server = served_on(redis_url).start()
    try:
        spectator = new_page(links.url("spectator", f"{server.url}/dashboard"))
        one = i18n.t("dashboard.presence.spectators", "en", n=1)
        assert first_drawing(spectator) == presence_line("en", one)
    finally:
        server.kill()
