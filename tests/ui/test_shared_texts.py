"""Issue 10: what every page of a room shows alike is worked out once per change, not once per page."""

from __future__ import annotations

import gc

from raisus_panel.dashboard import RoomPage
from raisus_panel.room import Actor, RoomSession
from raisus_panel.ui import ContestView, LiveOdds, live_odds
from raisus_panel.ui._contest_text import dice_html
from raisus_panel.ui._shared import _kept, once_per_change

from .conftest import duel, room_for_two
from .drivers import Screen
from .test_contest_view import html


def counting(monkeypatch, cls, name):
    calls = []
    original = getattr(cls, name)

    def counted(self, *args, **kwargs):
        calls.append(self)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(cls, name, counted)
    return calls


def test_spectator_views_of_one_contest_render_it_once_per_change_and_language(monkeypatch):
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    texts = counting(monkeypatch, ContestView, "_texts")
    english = [ContestView(actions=actions, lang="en") for _ in range(5)]
    korean = [ContestView(actions=actions, lang="ko") for _ in range(5)]
    assert len(texts) == 2  # one rendering per language for ten views
    contest.choose(viking, "Viking")
    assert len(texts) == 4
    contest.choose(pirate, "Pirate")
    contest.roll_round()
    assert len(texts) == 8
    # every view shows the state after the last change, in its own language
    assert len({html(v) for v in english}) == 1 and len({html(v) for v in korean}) == 1
    assert html(english[0]) != html(korean[0])
    assert dice_html([6, 5, 1, 1]) in html(english[0]) and "Rolls 2 dice" in html(english[-1]).split("<div class=raisus-side>")[2]
    fresh = ContestView(actions=actions, lang="en")
    assert html(fresh) == html(english[0])  # a late page gets the same text, computed before


def test_odds_of_one_contest_are_rated_and_written_once_per_change(monkeypatch):
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    rated = []  # counted where they are made (private functions): "once" shows nowhere else
    rate = live_odds._rate
    monkeypatch.setattr(live_odds, "_rate", lambda c: rated.append(c) or rate(c))
    written = counting(monkeypatch, LiveOdds, "_text_html")
    views = [LiveOdds(actions=actions, lang="en") for _ in range(4)]
    assert len(rated) == 1 and len(written) == 1
    contest.choose(viking, "Viking")
    contest.choose(pirate, "Pirate")
    assert len(rated) == 3 and len(written) == 3
    words = [v.__panel__().objects[0].object for v in views]  # the odds in words, first in each view
    assert len(set(words)) == 1 and "%" in words[0]


def test_a_kept_result_is_for_the_very_state_it_was_made_from():
    class Owner:
        pass
    owner, a, b = Owner(), [1], [1]  # equal but not the same: a replaced value is a change
    assert once_per_change(owner, ("k",), (a,), lambda: "from a") == "from a"
    assert once_per_change(owner, ("k",), (a,), lambda: "again") == "from a"
    assert once_per_change(owner, ("k",), (b,), lambda: "from b") == "from b"
    assert once_per_change(owner, ("other",), (b,), lambda: "other key") == "other key"
    del owner
    gc.collect()
    assert not [o for o in _kept.keys() if type(o).__name__ == "Owner"]  # kept no longer than its owner


def test_the_presence_line_is_made_once_per_arrival_for_all_pages(monkeypatch):
    gm = room_for_two()[0]
    room = gm.room
    people = counting(monkeypatch, RoomPage, "_people")
    pages = [RoomPage(session=RoomSession(room, Actor.spectator()), lang="en", session_id=f"s{i}") for i in range(6)]
    # not served: each arrival redraws at once, but the line is made once per arrival, not per page
    assert len(people) <= 6 + 1
    lines = [Screen(p).part("raisus-presence").object for p in pages]  # who is at the table
    assert "6 spectators" in lines[0] and all(line == lines[0] for line in lines)
    for page in pages:
        page.session.disconnect(page.session_id)
        page.dispose()
