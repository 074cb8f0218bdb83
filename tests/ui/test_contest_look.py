"""The contest reads at a glance: dice drawn as dice (sixes stand out), each unit edged in its chart
line's colour, its dice left as a bar and in words, a unit that is out marked in words -- on the
players' table, the spectators' view and the report alike."""

from __future__ import annotations

from raisus_panel.i18n import t
from raisus_panel.report import report
from raisus_panel.ui import ContestTable, ContestView, unit_colors
from raisus_panel.ui._contest_text import dice_html

from .conftest import duel
from .drivers import Screen, chart_plot


def side(view, s: int) -> str:
    """The markup of side ``s``'s column in a spectator's view (``raisus-side``; the last runs on to the end)."""
    return Screen(view).html().split("<div class=raisus-side>")[1 + s]


def test_dice_are_dice_and_a_six_stands_out_still_in_words():
    assert dice_html([6, 1]) == "<span class=die6>6</span><span class=die>1</span>"
    contest, actions, viking, pirate = duel(rolls=[[6, 6, 2, 1], [3, 3, 3]])
    view = ContestView(actions=actions, lang="en")
    contest.roll_round()
    html = Screen(view).html()
    assert "<span class=die6>6</span><span class=die6>6</span><span class=die>2</span>" in html
    assert "<span class=total>= 15</span>" in html and "<span class=total>= 9</span>" in html
    assert "<tr class=won><td>Viking</td>" in html and "<span class=verdict>Round 1: Viking wins</span>" in html


def test_a_tie_is_marked_in_words_above_its_attempt():
    contest, actions, viking, pirate = duel(rolls=[[3, 3, 3, 3], [4, 4, 4], [6, 1, 1, 1], [1, 1, 1]])
    view = ContestView(actions=actions, lang="ko")
    contest.roll_round()
    html = Screen(view).html()
    assert f"<th>{t('roll.attempt_n', 'ko', n=1)} <span class=tie>{t('roll.tie', 'ko')}</span></th>" in html
    assert f"<th>{t('roll.attempt_n', 'ko', n=2)}</th>" in html


def test_cards_wear_their_chart_colour_and_dice_left_as_a_bar_and_words():
    contest, actions, viking, pirate = duel(rolls=[[6, 6, 6, 6], [1, 1, 1]])
    colors = unit_colors(contest)
    view = ContestView(actions=actions, lang="en")
    table = ContestTable(actions=actions, lang="en")
    contest.choose(viking, "Viking")
    contest.choose(pirate, "Pirate")
    contest.roll_round()
    side_b = side(view, 1)
    assert f"<div class=raisus-unit style=--unit:{colors[pirate.uid]}>" in side_b
    assert "<span class=bar aria-hidden=true><span style=width:67%></span></span>2 of 3 dice left" in side_b
    card = Screen(table).card("Pirate")
    assert colors[pirate.uid] in card.root.styles["border-left"]
    assert "2 of 3 dice left" in card.texts()[0] and "width:67%" in card.html()


def test_a_defeated_unit_is_out_in_words_and_look_everywhere():
    contest, actions, viking, pirate = duel(a=("Viking", 2), b=("Pirate", 1), rolls=[[6, 6], [1]])
    view = ContestView(actions=actions, lang="en")
    table = ContestTable(actions=actions, lang="ko")
    contest.roll_round()
    assert contest.is_defeated(pirate)
    side_b = side(view, 1)
    assert "<div class='raisus-unit out'" in side_b and "<span class='badge out'>OUT</span>" in side_b
    assert t("status.defeated", "en") in side_b and "0 of 1 die left" in side_b
    card = Screen(table).card("Pirate")
    assert "dashed" in card.root.styles["border-left"]
    assert f"<span class='badge out'>{t('contest.out', 'ko')}</span>" in card.html()
    # the viking still stands: no badge, a solid edge
    assert "badge" not in side(view, 0) and "solid" in Screen(table).card("Viking").root.styles["border-left"]
    page = report(contest, "en").html()
    assert "<span class='badge out'>OUT</span>" in page and "<span class=die6>6</span>" in page


def test_a_dark_page_gets_dark_plots_and_theme_colours():
    import panel as pn

    from raisus_panel.ui import LiveOdds, ScoreChart
    from raisus_panel.ui._charts import DARK_PLOT
    from raisus_panel.ui._contest_text import CONTEST_CSS

    contest, actions, viking, pirate = duel(rolls=[[6, 6, 6, 6], [1, 1, 1]])
    light = ScoreChart(actions=actions)
    assert light.figure.background_fill_color == "#ffffff"
    pn.config.theme = "dark"
    try:
        for chart in (ScoreChart(actions=actions), LiveOdds(actions=actions)):
            fig = chart_plot(chart).object  # the figure the chart's plot pane shows
            assert fig.background_fill_color == DARK_PLOT["background"]
            assert {a.major_label_text_color for a in fig.axis} == {DARK_PLOT["ink"]}
    finally:
        pn.config.theme = "default"
    # the page's own colours come from Panel's theme variables (so ?theme=dark recolours them)
    assert "var(--panel-background-color, #fff)" in CONTEST_CSS and "var(--panel-border-color" in CONTEST_CSS
