"""A command reaches every open page as one small update: one message, only what changed, no re-walk.

Headless sessions (``bokeh.client.pull_session``) open the room page as a GM, a player and a
spectator; the GM's roll is given the way a click gives it, on the GM page's own document. What is
checked is what each session receives and what the server does for it -- counts, never timings:

* every page gets the round: the score chart's new row arrives in each client's document;
* as **one** PATCH-DOC message per page (all components' changes batched in one hold); a page
  that shows the odds advisor's lines (the GM's, a player's) gets them in at most one more message,
  which changes those lines only: they are worked out off the loop and follow the dice, never delay them;
* without Bokeh walking any page's whole model graph (nothing is added or removed for a round:
  buttons keep their tooltip model and change its text);
* tabs are dynamic: a tab is made when first opened; a closed tab is not refreshed and catches up
  when it opens again.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from bokeh.document.models import DocumentModelManager

from raisus_panel.dashboard import RoomPage
from raisus_panel.dashboard.room_page import PRESENCE_EVERY_S
from raisus_panel.i18n import t
from raisus_panel.room import Actor
from raisus_panel.rules import SeededDice
from raisus_panel.ui._base import hint

from ..wire import WireSession
from .conftest import _wait_for, make_room

pytestmark = pytest.mark.timeout(120)

ROLES = ("gm", "player", "spectator")


class Clients:
    """Headless pages (:class:`tests.wire.WireSession`) on an asyncio loop of their own (a thread)."""

    def __init__(self, url: str, tokens: list[str], ready: bool = True):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        ws_url = url.replace("http://", "ws://") + "/ws"
        self.sessions = [WireSession(i) for i in range(len(tokens))]
        for session, token in zip(self.sessions, tokens):
            self._run(session.open(ws_url, token, ready=ready))

    def say_ready(self) -> None:
        """Every page says it is drawn (for clients opened with ``ready=False``)."""
        for session in self.sessions:
            self._run(session.say_ready())

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(60)

    def since(self, t0: float) -> list[list[tuple]]:
        """Each page's messages (arrival, type, bytes, events) that arrived after ``t0``."""
        return [[m for m in list(s.messages) if m[0] >= t0] for s in self.sessions]

    def close(self) -> None:
        for s in self.sessions:
            self.loop.call_soon_threadsafe(s.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def streamed(messages, pictures: set[str] = frozenset()) -> bool:
    """Whether ``messages`` bring a chart its new point: rows streamed into a figure (a ColumnsStreamed
    event), or a watching page's chart picture (one of the models ``pictures``) drawn anew."""
    return any(kind == "ColumnsStreamed" or (kind == "ModelChanged" and model_id in pictures)
               for m in messages for kind, model_id, *_ in m[3])


def pictures_of(page: RoomPage) -> set[str]:
    """The ids of a watching page's score chart picture's models (ui/_svg_chart.py); none for a figure."""
    chart = page._chart
    return {model.id for model, _ in chart._pane._models.values()} if chart.picture else set()


def every_page_charted(clients, pages: dict, t0: float) -> bool:
    """Whether every page's score chart got its new point since ``t0``."""
    return all(streamed(ms, pictures_of(pages[role])) for role, ms in zip(ROLES, clients.since(t0)))


def advice_models(page: RoomPage) -> set[str]:
    """The ids of the models of the odds advisor's lines on ``page``'s unit cards (none on a watching page)."""
    return {model.id for card in getattr(page._table, "_cards", {}).values() if "advice" in card
            for model, _ in card["advice"]._models.values()}


def texts(messages) -> str:
    """Every changed text in ``messages`` (as JSON)."""
    return " ".join(str(m[3]) for m in messages)


def quiet(clients: Clients, since: float | None = None, seconds: float = 0.5, timeout: float = 30) -> None:
    """Wait until every page got something after ``since`` (if given), then nothing for ``seconds``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = clients.since(since if since is not None else 0)
        last = max((m[0] for ms in got for m in ms), default=0)
        if (since is None or all(got)) and time.monotonic() - last >= seconds:
            return
        time.sleep(0.05)
    raise AssertionError("the pages did not settle")


def on_page_doc(page, fn):
    """Run ``fn`` on ``page``'s own document (as its session's click handlers run) and wait for it."""
    done, out = threading.Event(), {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:
            out["error"] = exc
        done.set()
    page._doc.add_next_tick_callback(run)
    assert done.wait(60), "the page's document did not run the call"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def pages_on(room) -> dict[str, RoomPage]:
    import gc
    gc.collect()
    return {o.session.actor.role.value: o for o in gc.get_objects()
            if isinstance(o, RoomPage) and o.session.room is room and not o._disposed}


@pytest.fixture
def game(served):
    served.registry.dice_factory = lambda: SeededDice(7)  # the same rounds every time
    try:
        room, links, uids = make_room(served.registry)
    finally:
        served.registry.dice_factory = None
    clients = Clients(served.url, [links[role] for role in ROLES])
    try:
        assert _wait_for(lambda: len(room.presence) == len(ROLES))
        quiet(clients)
        yield room, clients, pages_on(room)
    finally:
        clients.close()
        _wait_for(lambda: not room.presence)


class Walks:
    """Counts Bokeh's whole-document model walks (``DocumentModelManager.recompute``) meanwhile."""

    def __enter__(self):
        self.count = 0
        self._original = DocumentModelManager.recompute
        walks = self

        def counting(manager):
            walks.count += 1
            return walks._original(manager)
        DocumentModelManager.recompute = counting
        return self

    def __exit__(self, *exc):
        DocumentModelManager.recompute = self._original


def roll(pages) -> float:
    """The GM clicks Roll; returns when it was given (``time.monotonic``)."""
    t0 = time.monotonic()
    on_page_doc(pages["gm"], lambda: pages["gm"].session.act("roll_round"))
    return t0


def test_a_round_reaches_every_page_as_one_message_without_a_document_walk(game):
    room, clients, pages = game
    for n in (1, 2, 3):
        with Walks() as walks:
            t0 = roll(pages)
            assert _wait_for(lambda t0=t0: every_page_charted(clients, pages, t0), timeout=30), \
                f"round {n} did not reach every page"
            quiet(clients, t0)
        assert room.contest.round == n
        got = clients.since(t0)
        assert [len(ms[:1]) for ms in got] == [1, 1, 1], f"round {n}: a page got nothing"
        for role, ms in zip(ROLES, got):  # anything after the round's message is the advisor's lines
            advice = advice_models(pages[role])
            assert len(ms) <= (2 if advice else 1), f"round {n}: {len(ms)} messages to the {role}"
            assert all(model_id in advice for m in ms[1:] for _, model_id, *_ in m[3]), \
                f"round {n}: the {role}'s second message changed more than the advice"
        assert advice_models(pages["gm"]) and advice_models(pages["player"])  # they are advised
        assert not advice_models(pages["spectator"])
        assert walks.count == 0, f"round {n}: Bokeh walked a whole document {walks.count} times"


def test_a_round_rolled_while_pages_are_still_drawing_reaches_their_charts(served):
    """Issue 10: a page's document is pulled, and a round is decided before the page says it is drawn
    (``document_ready``), as when a page's websocket reaches a process that had to make its session.
    Panel drops what changes in between; the page's batch must wait for it, not lose the round."""
    served.registry.dice_factory = lambda: SeededDice(7)
    try:
        room, links, uids = make_room(served.registry)
    finally:
        served.registry.dice_factory = None
    clients = Clients(served.url, [links[role] for role in ROLES], ready=False)
    try:
        assert _wait_for(lambda: len(pages_on(room)) == len(ROLES))
        pages = pages_on(room)
        t0 = roll(pages)
        time.sleep(1)  # the round is decided and every page's views have been asked to follow
        assert room.contest.round == 1
        # nothing goes before the page is drawn
        assert not any(streamed(ms, pictures_of(pages[role])) for role, ms in zip(ROLES, clients.since(t0)))
        clients.say_ready()
        assert _wait_for(lambda t0=t0: every_page_charted(clients, pages, t0), timeout=30), \
            "a page drawn after the round never got the round's chart row"
        quiet(clients, t0)
        # the round reaches each page as one update, after the page said it is drawn (and an advised
        # page the advisor's lines in at most one more)
        got = [sum(m[1] == "PATCH-DOC" for m in ms) for ms in clients.since(t0)]
        assert [min(n, 1) for n in got] == [1, 1, 1]
        assert all(n <= (2 if advice_models(pages[role]) else 1) for role, n in zip(ROLES, got)), got
    finally:
        clients.close()
        _wait_for(lambda: not room.presence)


def test_buttons_change_their_title_and_make_no_tooltip_model(game):
    room, clients, pages = game
    table = pages["player"]._table
    team = room.contest.sides[0][0]
    volunteer = table._cards[team.uid]["members"][team.members[1].uid]["volunteer"]
    texts = set()
    for _ in range(4):
        quiet(clients, roll(pages))
        texts.add(hint(volunteer))
        assert volunteer.description is None
    assert len(texts) == 2, texts  # refused after a won round, "what it does" after a lost one


def test_tabs_are_made_when_first_opened_and_a_closed_tab_catches_up_when_opened_again(game):
    room, clients, pages = game
    page = pages["spectator"]
    assert "log" not in page._tab_children  # nobody looked at the log yet: it does not exist

    def open_tab(i):
        on_page_doc(page, lambda: setattr(page._tabs, "active", i))

    open_tab(1)  # the spectator opens the Log tab ...
    log = page._log
    assert not log._behind and log.entries()[0][0] in log._body.object
    open_tab(0)  # ... and goes back to the table
    quiet(clients, roll(pages))
    heading = log.entries()[0][0]  # what the log says first now
    assert log._behind and heading not in log._body.object  # the Log tab is closed: not redrawn

    t0 = time.monotonic()
    open_tab(1)
    assert not log._behind and heading in log._body.object
    assert _wait_for(lambda: clients.since(t0)[ROLES.index("spectator")], timeout=30)  # and it is sent


def test_korean_travels_as_utf8_not_as_escapes(game):
    """Bokeh escapes non-ASCII text by default (six bytes a syllable); the dashboard sends UTF-8."""
    room, clients, pages = game
    page = clients.sessions[ROLES.index("spectator")].pull_text
    title = t("dashboard.tab.table", "ko")
    assert title in page and "\\u" + format(ord(title[0]), "04x") not in page


def test_a_page_on_the_log_tab_gets_each_new_entry_not_the_whole_log(game):
    room, clients, pages = game
    page = pages["spectator"]
    on_page_doc(page, lambda: setattr(page._tabs, "active", 1))  # the spectator reads the log
    for _ in range(6):
        quiet(clients, roll(pages))
    log = page._log
    assert room.contest.status == "active"
    t0 = roll(pages)
    quiet(clients, t0)
    got = clients.since(t0)[ROLES.index("spectator")]
    assert log.entries()[0][0] in log._body.object
    sent, whole = sum(m[2] for m in got), len(log._body.object.encode("utf-8"))
    assert whole > 2000 and sent < whole / 2, f"{sent} bytes for one new entry of a {whole}-byte log"
    assert any(kind == "MessageSent" for m in got for kind, *_ in m[3])  # streamed, not replaced


def test_a_burst_of_arrivals_redraws_who_is_here_once_per_page_not_once_per_arrival(game, monkeypatch):
    room, clients, pages = game
    drawn = []
    show = RoomPage._show_presence
    monkeypatch.setattr(RoomPage, "_show_presence", lambda page: drawn.append(page) or show(page))
    made = []
    people = RoomPage._people
    monkeypatch.setattr(RoomPage, "_people", lambda page, r, here: made.append(page) or people(page, r, here))
    t0 = time.monotonic()
    for i in range(20):  # twenty spectators arrive one after another (a streamed game's audience)
        room.connect(Actor.spectator(), f"audience-{i}")
        time.sleep(0.05)
    span = time.monotonic() - t0
    try:
        audience = {page: t("dashboard.presence.spectators", page.language, n=21) for page in pages.values()}
        assert _wait_for(lambda: all(seen in page._presence.object for page, seen in audience.items()),
                         timeout=30), "a page did not show the audience"
        quiet(clients, t0)
        # each page drew the line every PRESENCE_EVERY_S at most while they came, not once per arrival
        most = int(span / PRESENCE_EVERY_S) + 2
        assert most < 20, f"the arrivals took {span:.1f} s: too slow to tell"
        assert len(drawn) <= most * len(pages), f"{len(drawn)} redraws on {len(pages)} pages for 20 arrivals"
        assert len(made) <= most  # one language: made once per redraw, shared by every page
        assert all(len(ms) <= most for ms in clients.since(t0))
    finally:
        for i in range(20):
            room.disconnect(f"audience-{i}")


def test_a_new_contest_reaches_every_page_with_at_most_one_document_walk_each(game):
    """Issue 21: starting a contest took 2-9 s to show on the GM's own page (a round 0.1-0.3 s). The
    server's part was Bokeh walking a page's whole model graph once per layout change of the new
    cards; a start that makes every card and chart in one batch walks each page's document once.
    Counts, not timings (benchmarks/bench_start_contest.py measures the time in Chromium)."""
    room, clients, pages = game
    gm = pages["gm"]
    on_page_doc(gm, lambda: gm.session.act("end_contest", outcome="Called off"))
    on_page_doc(gm, lambda: gm.session.act("close_contest"))
    quiet(clients)
    assert room.contest is None
    uids = {c.name: c.uid for c in room.characters}
    with Walks() as walks:
        t0 = time.monotonic()
        on_page_doc(gm, lambda: gm.session.act("start_contest", name="Second siege", side_a=[uids["Knight"]],
                                               side_b=[uids["Ogre"]]))
        quiet(clients, t0)
    assert room.contest is not None and room.contest.name == "Second siege"
    for role in ("gm", "player"):  # every page drew the new contest (a spectator's is a ContestView)
        assert set(pages[role]._table._cards) == {uids["Knight"], uids["Ogre"]}, role
    assert pages["spectator"]._table.contest is room.contest
    assert walks.count <= len(ROLES), f"Bokeh walked the pages' documents {walks.count} times for one start"
