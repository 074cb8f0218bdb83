"""A page's Bokeh and Panel models change only on its own document, whoever gives the command.

Served, every session's components watch the shared room; a command given by another page (on that
page's document) or by a room thread must reach this page only through its own update batch
(``ui/_batch.py``). Changed from outside, Bokeh raises (``_pending_writes should be non-None``) and
the page is left half updated. The autouse fixture of ``conftest.py`` fails the test on any server
traceback; these tests play what used to raise: characters created and a contest started and ended
while other pages have their Contest, Characters and Action checks tabs open.
"""

from __future__ import annotations

import pytest

from raisus_panel.room import Actor
from raisus_panel.ui._base import hint

from .conftest import _wait_for
from .test_live_updates import Clients, on_page_doc, pages_on, quiet

pytestmark = pytest.mark.timeout(120)

ROLES = ("gm", "player", "spectator")
TABS = {"table": 0, "characters": 2, "checks": 3}


@pytest.fixture
def table(served):
    room, links = served.registry.create_room("Own documents", gm_name="GM")
    _, ann_token = served.registry.join(links.player, "Ann")
    clients = Clients(served.url, [links.gm, ann_token, links.spectator])
    try:
        assert _wait_for(lambda: len(room.presence) == len(ROLES))
        quiet(clients)
        yield room, clients, pages_on(room)
    finally:
        clients.close()
        _wait_for(lambda: not room.presence)


def open_tab(page, tab: str) -> None:
    on_page_doc(page, lambda: setattr(page._tabs, "active", TABS[tab]))


def create(page, name: str, owner: str = "", rating: int = 4) -> str:
    data = {"name": name, "owner": owner, "cliches": [{"name": name, "rating": rating}]}
    return on_page_doc(page, lambda: page.actions.act("save_character", data=data)).uid


def _play(room, clients, pages, *, on_tab: str) -> None:
    for role in ("player", "spectator"):
        open_tab(pages[role], on_tab)
    for tab in TABS:  # the GM's page has every tab built, the Contest tab open
        open_tab(pages["gm"], tab)
    open_tab(pages["gm"], "table")
    ann = next(iter(room.players))
    uids = [create(pages["gm"], name, ann) for name in ("Knight", "Viking")]
    uids.append(create(pages["gm"], "Ogre", rating=6))
    quiet(clients)
    gm = pages["gm"]
    on_page_doc(gm, lambda: gm.actions.act("start_contest", name="Siege", side_a=uids[:2], side_b=uids[2:]))
    quiet(clients)
    on_page_doc(gm, lambda: gm.actions.act("end", outcome="The Ogre flees"))
    quiet(clients)
    # a room notification on another thread (no session's document current): a command given elsewhere
    room.apply(Actor.gm("GM"), "create_character", {"name": "Squire", "owner": ann,
                                                    "cliches": [{"name": "Squire", "rating": 2}]})
    quiet(clients)
    names = {c.name for c in room.characters}
    assert {"Knight", "Viking", "Ogre", "Squire"} <= names
    player = pages["player"]
    assert player.actions.seq == room.seq  # the player's page followed every change


@pytest.mark.parametrize("tab", ["characters", "table", "checks"])
def test_pages_watching_while_the_gm_creates_characters_and_plays_change_only_on_their_documents(table, tab):
    room, clients, pages = table
    _play(room, clients, pages, on_tab=tab)


def as_panel_processes_a_browser_change(served, page, fn):
    """Run ``fn`` as Panel runs a watcher of a change the browser sent (a typed name, a click): on the
    server's loop with the page's document current, but without its document lock (``_change_coroutine``)."""
    from panel.io.state import set_curdoc

    def run():
        with set_curdoc(page._doc):
            return fn()
    return served.on_loop(run)


def test_typing_a_new_characters_name_changes_the_save_buttons_title_on_the_page_only(served, table):
    room, clients, pages = table
    gm = pages["gm"]
    open_tab(gm, "characters")
    sheet = gm._sheet
    as_panel_processes_a_browser_change(served, gm, lambda: setattr(sheet._rows[0]["name"], "value", "Sword"))
    # the draft becomes valid: the Save button's title says what it does instead of what is missing
    as_panel_processes_a_browser_change(served, gm, lambda: setattr(sheet._name, "value", "Knight"))
    quiet(clients)
    assert _wait_for(lambda: hint(sheet._save) == gm._t("help.save_character"))
    assert sheet._save.description is None  # a title: no tooltip model to make or send back
    as_panel_processes_a_browser_change(served, gm, lambda: setattr(sheet._name, "value", ""))
    quiet(clients)
    assert _wait_for(lambda: hint(sheet._save) != gm._t("help.save_character"))


def test_a_click_that_gives_a_command_outside_the_document_lock_raises_nothing(served, table):
    room, clients, pages = table
    gm = pages["gm"]
    open_tab(gm, "characters")
    data = {"name": "Knight", "owner": "", "cliches": [{"name": "Knight", "rating": 4}]}
    as_panel_processes_a_browser_change(served, gm, lambda: gm.actions.act("save_character", data=data))
    quiet(clients)
    data = {"name": "Viking", "owner": "", "cliches": [{"name": "Viking", "rating": 3}]}
    as_panel_processes_a_browser_change(served, gm, lambda: gm.actions.act("save_character", data=data))
    quiet(clients)
    assert {c.name for c in room.characters} == {"Knight", "Viking"}
