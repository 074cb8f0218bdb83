"""The watching table's state document and its deltas (issue 24): a page led by deltas holds exactly the
room's document after every change, a delta is small, and a gap is refused (the page asks for the whole)."""

from __future__ import annotations

import json

import panel as pn
import pytest
from bokeh.core.serialization import Serializer
from bokeh.document import Document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raisus_panel import i18n
from raisus_panel.i18n import t
from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.room.deltas import APPEND, ITEMS, PATCH, SET, TEXT, StaleDelta, apply_delta, make_delta
from raisus_panel.rules import RuleError, SeededDice
from raisus_panel.ui import Actions
from raisus_panel.ui._table_doc import LABEL_KEYS, NUMBER_KEYS, initials, ink, labels, table_document
from raisus_panel.ui.table_view import TableModel, TableView

from .drivers import Screen, roll_button, send_from_page


def siege(seed: int = 7):
    """A local room: Sir Knight, Viking and Squire as a team against the Ogre; a spectator watching."""
    gm = Room.local("Tavern", dice=SeededDice(seed))
    room = gm.room

    def character(name, rating):
        gm.act("save_character", data={"name": name, "owner": "", "cliches": [{"name": name, "rating": rating}]})
        return room.characters[-1].uid

    k, v, s, o = character("Sir Knight", 4), character("Viking", 2), character("Squire", 1), character("Ogre", 9)
    gm.act("start_contest", name="Siege", side_b=[o],
           teams=[{"side": 0, "members": [[k, "Sir Knight", True], [v, "Viking", True], [s, "Squire", True]]}])
    return gm, Actions(RoomSession(room, Actor.spectator()))


def test_the_document_shows_both_sides_as_token_cards_with_dice_and_the_chart():
    gm, spectator = siege()
    doc = table_document(spectator, "en")
    assert doc["name"] == "Siege" and doc["round"] == 0 and doc["roll"] is None
    assert doc["mode"] == "Contest in rounds"  # the page words the round itself (NUMBER_KEYS)
    team, ogre = (doc[f"u:{side[0]}"] for side in doc["sides"])
    assert team["team"] and team["leader"] == "Sir Knight"
    assert [m["name"] for m in team["members"].values()] == ["Sir Knight", "Viking", "Squire"]
    assert team["members"]["0"]["leader"] and team["members"]["0"]["dice"] == {"left": 4, "lost": 0}
    assert ogre["initials"] == "O" and ogre["cliche"] == "Ogre (9)" and ogre["dice"] == {"left": 9, "lost": 0}
    assert [s["label"] for s in doc["series"]] == ["Sir Knight", "Viking", "Squire", "Ogre"]
    assert doc["points"] == [{"x": 0, "s": [4, 2, 1, 9]}] and json.dumps(doc["points"][0]["x"]) == "0"  # not "0.0"
    assert doc["now"] == "Round 1: waiting for the GM."
    gm.act("roll_round")
    doc = table_document(spectator, "en")
    assert doc["roll"]["round"] == 1 and doc["roll"]["verdict"].startswith("Round 1:")
    assert doc["round"] == 1 and table_document(spectator, "ko")["mode"] == "라운드 대결"
    assert len(doc["points"]) == 2
    json.dumps(doc)  # JSON-ready
    # a side's faces as digits, a die a character (half the bytes of a list of numbers)
    faces = [side["faces"] for side in doc["roll"]["attempts"][0]["sides"]]
    assert [list(map(int, f)) for f in faces] == [list(a["faces"]) for a in gm.room.contest.last_roll["attempts"][0]]
    assert all(isinstance(f, str) and f.isdigit() for f in faces)


def test_korean_document_and_labels_come_from_the_catalog():
    _, spectator = siege()
    doc = table_document(spectator, "ko")
    assert doc["now"] == "1라운드: GM을 기다립니다." or "1" in doc["now"]
    assert labels("ko")["table.chart"] == "라운드별 클리셰 주사위"
    assert set(labels("en")) == {*LABEL_KEYS, *NUMBER_KEYS}
    assert all(labels("ko")[k] != k for k in (*LABEL_KEYS, *NUMBER_KEYS))  # every key is in the catalog


def test_initials_and_ink():
    assert initials("Sir Ann") == "SA" and initials("기사 아린") == "기아" and initials("") == "?"
    assert ink("#E69F00") == "#000000" and ink("#332288") == "#ffffff"


def test_a_delta_sends_only_what_changed_and_appends_one_chart_point():
    gm, spectator = siege()
    docs = [table_document(spectator, "en")]
    for _ in range(3):
        gm.act("roll_round")
        docs.append(table_document(spectator, "en"))
    delta = make_delta(docs[2], docs[3])
    assert delta["base"] == docs[2]["seq"] and delta["seq"] == docs[3]["seq"]
    assert delta[APPEND]["points"] == docs[3]["points"][-1:]
    ogre = f"u:{docs[3]['sides'][1][0]}"
    assert ogre not in delta.get(SET, {})  # a unit is sent only with what changed of it
    assert len(json.dumps(delta)) < 1024 < len(json.dumps(docs[3]))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_round_texts_the_page_fills_read_as_the_catalog_words_them(lang):
    """table_view.js fills NUMBER_KEYS by putting the number in place of {n}: the same words as i18n.t."""
    words = labels(lang)
    for key in NUMBER_KEYS:
        assert words[key].count("{n}") == 1 and "{" not in words[key].replace("{n}", ""), key
        for n in (1, 2, 10, 31):
            assert words[key].replace("{n}", str(n)) == i18n.t(key, lang, n=n), (key, n)


def test_a_list_whose_length_holds_sends_only_its_changed_items():
    old = {"seq": 1, "odds": {"lines": ["A 40%", "B 60%", "Round 3: 30%", "On average: 2.0", "Assumes …"]}}
    new = {"seq": 2, "odds": {"lines": ["A 45%", "B 55%", "Round 3: 30%", "On average: 2.0", "Assumes …"]}}
    delta = make_delta(old, new)
    assert delta[PATCH] == {"odds": {ITEMS: {"lines": {SET: {"0": "A 45%", "1": "B 55%"}}}}}
    assert apply_delta(old, delta) == new
    every = {"seq": 3, "odds": {"lines": ["x", "y", "z", "w", "v"]}}
    assert make_delta(new, every)[PATCH] == {"odds": {SET: {"lines": every["odds"]["lines"]}}}  # none kept


def test_a_text_changed_in_part_sends_the_part_only():
    """A line whose percentage changed sends the percentage ([kept, cut, middle]), counted in characters
    as the page counts them (Array.from: code points, also past the BMP); a short text is sent whole."""
    old = {"seq": 1, "line": "Side A (Sir Knight+Viking) wins the contest: 76.1%", "ko": "🗡 기사 아린: 76.1% 🛡",
           "now": "Round 3"}
    new = {"seq": 2, "line": "Side A (Sir Knight+Viking) wins the contest: 92.4%", "ko": "🗡 기사 아린: 9.3% 🛡",
           "now": "Round 4"}
    delta = make_delta(old, new)
    assert delta[TEXT] == {"line": [45, 4, "92.4"], "ko": [9, 4, "9.3"]}
    assert delta[SET] == {"now": "Round 4"}  # [6,1,"4"] is no shorter than the text
    assert apply_delta(old, delta) == new


def test_a_round_sends_the_odds_lines_as_their_changed_parts():
    gm, spectator = siege()
    gm.act("roll_round")
    old = table_document(spectator, "en")
    gm.act("roll_round")
    new = table_document(spectator, "en")
    lines = make_delta(old, new)[PATCH]["odds"][ITEMS]["lines"]
    assert SET not in lines and lines[TEXT]["3"] == [34, 1, "2"]  # "… on average: 3.0" -> "2.0"
    assert apply_delta(old, make_delta(old, new)) == new


def test_a_round_delta_names_its_parts_by_one_letter():
    """A round's delta names its parts a dozen times, nested: each by one letter (room/deltas.py)."""
    gm, spectator = siege()
    old = table_document(spectator, "en")
    gm.act("roll_round")
    delta = make_delta(old, table_document(spectator, "en"))

    def names(changes):
        for name, part in changes.items():
            yield name
            if name in (PATCH, ITEMS):
                for inner in part.values():
                    yield from names(inner)

    assert set(names({k: v for k, v in delta.items() if k not in ("seq", "base")})) <= {"s", "p", "a", "i", "t", "d"}
    assert {PATCH, APPEND} <= set(delta)


def test_a_delta_on_another_seq_is_refused():
    gm, spectator = siege()
    a = table_document(spectator, "en")
    gm.act("roll_round")
    b = table_document(spectator, "en")
    gm.act("roll_round")
    c = table_document(spectator, "en")
    with pytest.raises(StaleDelta, match="whole document"):
        apply_delta(a, make_delta(b, c))
    assert apply_delta(apply_delta(a, make_delta(a, b)), make_delta(b, c)) == c


COMMANDS = st.lists(st.sampled_from(["roll_round", "roll_round", "roll_round", "undo", "open_round"]),
                    min_size=1, max_size=25)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), commands=COMMANDS)
def test_deltas_over_a_played_contest_lead_to_each_next_document(seed, commands):
    """apply(delta(doc, next), doc) == next, after every command of a contest played at random."""
    gm, spectator = siege(seed)
    doc = table_document(spectator, "en")
    for command in commands:
        try:
            gm.act(command, **({"open": True} if command == "open_round" else {}))
        except RuleError:
            continue
        new = table_document(spectator, "en")
        assert apply_delta(doc, make_delta(doc, new)) == new
        doc = new
    assert doc == table_document(spectator, "en")


def page_model(view: TableView) -> TableModel:
    """What a page's browser holds of a table view: the model it draws from (its document and delta)."""
    return Screen(view).first(TableModel)


def test_the_view_leads_its_model_by_deltas_and_sends_the_whole_after_a_gap():
    gm, spectator = siege()
    view = TableView(actions=spectator, lang="en")
    model = page_model(view)
    held = dict(model.doc)
    for _ in range(4):
        gm.act("roll_round")
        held = apply_delta(held, json.loads(model.delta))
    assert held == view.document and held["seq"] == gm.room.seq
    send_from_page(model, {"whole": held["seq"] - 2})  # the page saw a gap
    assert model.doc == view.document and view.wholes == 1
    view.lang = "ko"  # a new language: the whole document in it
    assert model.doc["now"] == table_document(spectator, "ko")["now"]
    view.dispose()


def test_the_delta_goes_to_the_page_as_utf8_bytes_not_as_an_escaped_string():
    """Bytes go in a binary frame as they are; a string goes inside Bokeh's JSON, each quote escaped and
    each Korean syllable as \\uXXXX (six bytes, not three)."""
    gm, spectator = siege()
    view = TableView(actions=spectator, lang="ko")
    root = page_model(view).get_root(Document())
    gm.act("roll_round")
    serializer = Serializer()
    rep = serializer.encode(root.data.delta)  # as Bokeh sends the page's model
    assert rep["type"] == "bytes" and len(serializer.buffers) == 1
    sent = serializer.buffers[0].to_bytes().decode("utf-8")
    assert json.loads(sent)["seq"] == gm.room.seq and "라운드" in sent
    view.dispose()


def test_the_document_holds_the_live_odds_in_words_and_their_trail():
    """The odds a watching page shows come with the document (issue 24): the same words as
    LiveOdds says them, side A's chance for the bar, and one trail row per chart point."""
    from raisus_panel.ui import LiveOdds
    from raisus_panel.ui.live_odds import contest_chances

    gm, spectator = siege()
    for lang in ("en", "ko"):
        doc = table_document(spectator, lang)
        odds = LiveOdds(actions=spectator, lang=lang, picture=True)
        assert "<br>".join(doc["odds"]["lines"]) in Screen(odds).part("raisus-odds-picture").object.replace("&lt;", "<").replace("&gt;", ">")
        odds.dispose()
    chances = contest_chances(gm.room.contest)
    assert doc["odds"]["win"] == round(chances.p_win, 4) and not doc["odds"]["notice"]
    assert doc["odds"]["win_text"] == ["<0.1%", ">99.9%"]
    assert doc["trail"] == [[0.0, round(chances.p_win, 4), round(chances.p_next, 4), None]]
    before = table_document(spectator, "en")
    gm.act("roll_round")
    after = table_document(spectator, "en")
    delta = make_delta(before, after)
    assert delta[APPEND]["trail"] == after["trail"][-1:] and len(after["trail"]) == len(after["points"]) == 2
    assert after["odds"]["win"] == max(round(contest_chances(gm.room.contest).p_win, 4), 0.0001)  # rated anew
    assert after["trail"][0] == before["trail"][0]  # an earlier point keeps the odds it had then
    assert min(r[1] for r in after["trail"]) > 0  # side A's chance is tiny, never drawn as none at all
    gm.act("end_contest", outcome="The Ogre flees")
    ended = table_document(spectator, "en")
    assert "win" not in ended["odds"]  # no bar once decided; the words say it
    json.dumps(ended)


def test_a_spectator_page_with_view_table_draws_the_table_view_and_nothing_else():
    from raisus_panel.dashboard import RoomPage

    gm, _ = siege()
    page = RoomPage(RoomSession(gm.room, Actor.spectator()), lang="en", table_view=True)
    shown = Screen(page)
    contest = shown.tab(t("dashboard.tab.table", "en"))
    model = contest.first(TableModel)
    assert model is not None
    # the table view draws the contest, its score chart and its odds: no picture sent whole each round
    assert [o for o in contest.objects(hidden=True) if not isinstance(o, pn.layout.ListPanel)] == [model]
    gm.act("roll_round")
    assert json.loads(model.delta)["seq"] == gm.room.seq
    player_page = RoomPage(gm, lang="en", table_view=True)  # only a watcher's page: the GM keeps the controls
    assert Screen(player_page).first(TableModel) is None and roll_button(Screen(player_page)) is not None
    for p in (page, player_page):
        p.dispose()
