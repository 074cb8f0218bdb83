"""Issue 21 (faults and abuse): a click whose store answer is lost says "not known yet", then what happened.

A real ``raisus serve`` on a real ``redis-server``, reached through a TCP relay (``tests/room``'s
:class:`StallingRelay`) that holds Redis's answers, as a network stall does: the GM's "open the
round" reaches Redis and is saved, its answer is lost. The page says it is not known yet whether it
was saved -- not "nothing was saved" -- and, once Redis's answers flow again, that it was, with the
round open on the page.
"""

from __future__ import annotations

import re

import pytest

from raisus_panel.i18n import t as tr

from ..room.test_outcome_unknown import StallingRelay
from .conftest import shot
from .helpers import expect
from .test_scale_out import seed, served

pytestmark = pytest.mark.browser


@pytest.fixture
def relay(redis_server, redis_url):
    made = StallingRelay(redis_server.port)
    yield made
    made.stalled.clear()
    made.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_click_whose_answer_was_lost_is_told_not_known_yet_then_saved(relay, redis_url, new_page, lang):
    links = seed(redis_url)
    server = served(relay.url)
    server.start()
    try:
        gm = new_page(f"{server.url}/dashboard?token={links['gm']}&lang={lang}")
        expect(gm.locator(".raisus-room-title")).to_contain_text("Gina", timeout=30_000)
        relay.stalled.set()
        gm.get_by_role("button", name=tr("contest.open_round", lang), exact=True).click()
        told = gm.get_by_text(tr("error.store.outcome_unknown", lang))
        expect(told).to_be_visible(timeout=30_000)
        expect(gm.get_by_text(tr("error.store.unavailable", lang))).to_have_count(0)  # never "nothing was saved"
        shot(gm, f"outcome-unknown-checking-{lang}")
        relay.stalled.clear()
        expect(gm.get_by_text(tr("outcome.saved", lang))).to_be_visible(timeout=40_000)
        # the round is open on the page: the GM's button to open it is gone
        expect(gm.get_by_role("button", name=tr("contest.open_round", lang), exact=True)).to_have_count(0)
        shot(gm, f"outcome-unknown-saved-{lang}")
    finally:
        relay.stalled.clear()
        server.kill()


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("stall, made_known", [(6.5, True), (12.0, False)])
def test_the_lobby_tells_the_truth_about_a_room_whose_answer_was_lost(relay, redis_url, new_page, lang, stall,
                                                                        made_known):
    """The create reaches Redis and runs; its answer is held past the server's timeout (5 s). Held
    6.5 s, the read-back after its deadline gets through: the room was made, and its links are shown.
    Held 12 s, the read-back is lost too: "not known yet" -- not "nothing was saved", which would be
    false, as the room is there."""
    from raisus_panel.room import RoomRegistry
    from raisus_panel.room.redis_store import RedisStore

    from ..room.test_create_outcome import CREATE_SHA

    truth = RedisStore(redis_url)
    server = served(relay.url)
    server.start()
    try:
        RoomRegistry(truth).create_room("Earlier")  # Redis knows the create script (as after any first room)
        before = set(truth.list_rooms())
        lobby = new_page(f"{server.url}/dashboard?lang={lang}")
        lobby.get_by_placeholder(tr("dashboard.lobby.room_title_placeholder", lang)).fill("Lost answer")
        relay.stall_after(CREATE_SHA, stall)
        lobby.get_by_role("button", name=tr("dashboard.lobby.create", lang), exact=True).click()
        if made_known:
            expect(lobby.locator(".raisus-link-gm input")).to_have_value(re.compile(r"\?token=\S+$"), timeout=30_000)
            gm_url = lobby.locator(".raisus-link-gm input").input_value()
            expect(lobby.get_by_text(tr("error.store.unavailable", lang))).to_have_count(0)
            shot(lobby, f"lobby-answer-lost-made-{lang}")
            gm = new_page(gm_url)
            expect(gm.locator(".raisus-room-title")).to_contain_text("Lost answer", timeout=30_000)
        else:
            expect(lobby.get_by_text(tr("error.store.create_unknown", lang))).to_be_visible(timeout=30_000)
            expect(lobby.get_by_text(tr("error.store.unavailable", lang))).to_have_count(0)  # never "nothing was saved"
            expect(lobby.get_by_text(tr("error.refused", lang))).to_have_count(0)  # a warning, not a refusal
            expect(lobby.locator(".raisus-link-gm")).to_have_count(0)
            shot(lobby, f"lobby-answer-lost-unknown-{lang}")
        assert {truth.room_meta(r)["title"] for r in set(truth.list_rooms()) - before} == {"Lost answer"}
    finally:
        relay.stalled.clear()
        server.kill()
        truth.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_join_whose_answer_was_lost_brings_the_player_to_the_table(relay, redis_url, new_page, lang):
    """The join reaches Redis and is saved; its answer is held past the server's timeout (5 s). The
    page says it is not known yet, then -- the room's log showing the join -- opens the table as the
    new player, on their personal link (saved before the join). Before, it could only say "ask the GM
    for a link", and joining again was refused: the name was taken."""
    from ..room.test_join_outcome import APPEND_SHA

    links = seed(redis_url)
    server = served(relay.url)
    server.start()
    try:
        page = new_page(f"{server.url}/dashboard?token={links['player']}&lang={lang}")
        name = page.get_by_role("textbox")
        expect(name).to_be_visible(timeout=30_000)
        name.fill("Cleo")
        relay.stall_after(APPEND_SHA, 6.5)
        page.get_by_role("button", name=tr("dashboard.join.button", lang), exact=True).click()
        expect(page.get_by_text(tr("error.store.outcome_unknown", lang))).to_be_visible(timeout=30_000)
        shot(page, f"join-answer-lost-checking-{lang}")
        expect(page.locator(".raisus-room-title")).to_contain_text("Two servers", timeout=40_000)
        expect(page).to_have_url(re.compile(r"[?&]token=(?!" + re.escape(links["player"]) + r")[^&]+"), timeout=10_000)
        shot(page, f"join-answer-lost-joined-{lang}")
        page.reload()  # the address is Cleo's own link: it brings her back
        expect(page.locator(".raisus-room-title")).to_contain_text("Two servers", timeout=30_000)
        expect(page.get_by_text("Cleo").first).to_be_visible()
    finally:
        relay.stalled.clear()
        server.kill()
