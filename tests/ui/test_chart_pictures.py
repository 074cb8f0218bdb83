"""Issue 10: the charts of pages that only watch are pictures, drawn once per change for all of them.

A spectator's page (and the stream view) shows the score chart and the odds as one SVG each, made
once per change of the contest for every watching page in a language, with no Bokeh figure per page:
the same points as the figure, tooltips that say what happened, markers on their lines, and names
escaped.
"""

from __future__ import annotations

import math
import re

from bokeh.document import Document

from raisus_panel.dashboard import RoomPage
from raisus_panel.i18n import t
from raisus_panel.room import Actor, RoomSession
from raisus_panel.ui import LiveOdds, ScoreChart

from .conftest import duel, room_for_two
from .drivers import chart_key, chart_plot
from .test_shared_texts import counting

XSS = "<img src=x onerror=alert(1)>"


def svg_of(chart) -> str:
    """The chart picture in a chart's pane (which holds its key after it, and the odds in words before)."""
    pane = chart_plot(chart).object
    start = pane.index("<svg class=raisus-chart")
    return pane[start:pane.index("</svg>", start) + len("</svg>")]


def key_of(chart) -> str:
    return chart_plot(chart).object.split(svg_of(chart))[1]


def test_the_score_picture_draws_every_point_with_what_happened_there():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4], [1, 1, 1, 1], [6, 6]])
    figure = ScoreChart(actions=actions, lang="en")
    picture = ScoreChart(actions=actions, lang="en", picture=True)
    contest.roll_round()
    contest.roll_round()
    svg = svg_of(picture)
    history = contest.history
    assert f"data-chart=score data-points={len(history)} " in svg
    assert len(figure.source.data["x"]) == len(history)  # the figure and the picture hold the same points
    assert svg.count("<circle") == sum(1 for col in figure.columns().values()
                                       for v in figure.source.data[col] if not math.isnan(v))
    assert len(re.findall(r"<path d=\S+ fill=none stroke=#", svg)) == len(contest.series)  # a line per series
    # each point's column says the round, what happened, every line's score and the dice
    tips = re.findall(r"<title>([^<]*)</title>", svg)
    assert len(tips) == len(history)
    assert any("Round 1" in tip and "Pirate 2" in tip and "6+5+1+1=13" in tip for tip in tips), tips
    assert key_of(picture) == chart_key(figure).object  # the same key under both
    assert svg.startswith("<svg") and "role=img" in svg and 'aria-label="Brawl"' in svg


def test_a_cliché_switch_puts_its_marker_on_the_line_it_concerns():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    viking.add_cliche("Poet", 2)
    picture = ScoreChart(actions=actions, lang="ko", picture=True)
    contest.roll_round()
    contest.choose(viking, "Poet")
    svg = svg_of(picture)
    assert svg.count("<g transform=") == 1  # one marker
    assert t("event.cliche_chosen", "ko") in key_of(picture)  # named in the key


def test_every_name_is_escaped_in_the_pictures():
    contest, actions, viking, pirate = duel(a=(XSS, 3), name=XSS, rolls=[[6, 5, 2], [4, 4, 4]])
    score = ScoreChart(actions=actions, lang="en", picture=True)
    odds = LiveOdds(actions=actions, lang="en", picture=True)
    contest.roll_round()
    for chart in (score, odds):
        assert "<img" not in chart_plot(chart).object


def test_the_odds_picture_holds_the_chances_as_percent_steps():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    odds = LiveOdds(actions=actions, lang="en", picture=True)
    contest.roll_round()
    svg = svg_of(odds)
    assert chart_plot(odds).object.startswith(t("odds.p_win", "en", side=t("side.0", "en"), names="Viking", p="")[:20])
    assert "data-chart=odds data-points=2 data-last=1 " in svg
    assert ">100%</text>" in svg and ">0%</text>" in svg
    assert "stroke-dasharray=6,4" in svg  # the next round's chance, dashed
    assert any(t("odds.p_win_short", "en") in tip for tip in re.findall(r"<title>([^<]*)</title>", svg))


def test_watching_pages_share_one_drawing_per_change_and_language(monkeypatch):
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    drawn = counting(monkeypatch, ScoreChart, "_picture")
    english = [ScoreChart(actions=actions, lang="en", picture=True) for _ in range(6)]
    korean = [ScoreChart(actions=actions, lang="ko", picture=True) for _ in range(6)]
    assert len(drawn) == 2
    contest.roll_round()
    assert len(drawn) == 4
    assert len({svg_of(c) for c in english}) == 1 and len({svg_of(c) for c in korean}) == 1
    assert svg_of(english[0]) != svg_of(korean[0])


def test_a_spectator_page_holds_no_chart_models_and_a_gm_page_keeps_its_figures():
    gm, _, olaf, spy = room_for_two()
    gm.act("start_contest", name="Bridge", side_a=[olaf.uid], side_b=[spy.uid])
    room = gm.room

    def models(actor) -> list[str]:
        doc = Document()
        page = RoomPage(session=RoomSession(room, actor), lang="en")
        doc.add_root(page.__panel__().get_root(doc))
        names = [type(m).__name__ for m in doc.models]
        page.dispose()
        return names

    spectator, game_master = models(Actor.spectator()), models(Actor.gm())
    assert "GlyphRenderer" not in spectator and "ColumnDataSource" not in spectator
    assert game_master.count("figure") == 2
    assert len(spectator) < 60  # was 129 with two figures and a pane per part of the contest
