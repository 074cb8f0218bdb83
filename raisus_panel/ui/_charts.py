"""Bokeh helpers shared by the charts: fonts that can show Korean, colours, notebook pushes."""

from __future__ import annotations

import panel as pn
from bokeh.models import (AdaptiveTicker, Axis, ColumnDataSource, DataRange1d, Label, LabelSet, Legend, Scatter,
                          Title)
from bokeh.palettes import Category10_10

#: A font stack that can draw Korean on every platform (the Makefile installs Noto CJK on Debian).
CJK_FONT = ("'Noto Sans CJK KR', 'Noto Sans KR', 'Source Han Sans KR', 'Apple SD Gothic Neo', "
            "'Malgun Gothic', 'NanumGothic', sans-serif")

PALETTE = Category10_10


def apply_fonts(fig):
    """Draw every text of a Bokeh figure in :data:`CJK_FONT`, so Korean shows on every platform.

    Bokeh's default font has no Hangul: without this, Korean titles, axis labels and legends may show
    as boxes. Call it after adding the legend and annotations; it styles titles, axis labels and tick
    labels, legends (items and title) and ``Label``/``LabelSet`` annotations.

    Parameters
    ----------
    fig
        A Bokeh figure (``bokeh.plotting.figure``), changed in place.

    Returns
    -------
    The same figure, so the call can wrap its creation.

    Examples
    --------
    >>> from bokeh.plotting import figure
    >>> from raisus_panel.ui import apply_fonts
    >>> fig = figure(title="라운드별 점수", x_axis_label="라운드", y_axis_label="점수")
    >>> _ = fig.line([0, 1, 2], [4, 3, 3], legend_label="바이킹")
    >>> apply_fonts(fig) is fig
    True
    """
    # the figure's own lists, not fig.select: each select walks every model of the figure, which
    # made fonts the slowest part of building a served page
    for obj in (fig.title, *fig.above, *fig.below, *fig.left, *fig.right, *fig.center, *fig.renderers):
        if isinstance(obj, (Title, Label, LabelSet)):
            obj.text_font = CJK_FONT
        elif isinstance(obj, Axis):
            obj.axis_label_text_font = CJK_FONT
            obj.major_label_text_font = CJK_FONT
        elif isinstance(obj, Legend):
            obj.label_text_font = CJK_FONT
            obj.title_text_font = CJK_FONT
    return fig


def round_axis(fig) -> None:
    """Make the x axis of a figure drawn over a contest's rounds (``history`` points' ``x``) read in rounds.

    Major ticks fall on whole rounds only (1, 2, 10, 20... rounds apart as the contest grows, never
    0.2 or 0.5), with a minor tick halfway between rounds, where the between-round events sit. The
    range keeps half a round either side of the points, and always reaches from round 0 to round 1:
    before the first roll (a single point at round 0) it shows the round to come instead of Bokeh's
    -1..1. Call it after drawing the data, on a figure whose y range includes 0.
    """
    fig.x_range = DataRange1d(range_padding=0.5, range_padding_units="absolute")
    fig.xaxis.ticker = AdaptiveTicker(base=10, mantissas=[1, 2], min_interval=1, num_minor_ticks=2,
                                     desired_num_ticks=8)
    # an invisible point at rounds 0 and 1: the range always spans them, with no update on every stream
    fig.add_glyph(ColumnDataSource(data={"x": [0, 1], "y": [0, 0]}),
                  Scatter(x="x", y="y", fill_alpha=0, line_alpha=0))


def push(pane) -> None:
    """After changing a Bokeh model in place, send the change to a notebook's frontend (no-op served)."""
    try:
        pn.io.push_notebook(pane)
    except Exception:  # pragma: no cover - a display that was closed meanwhile
        pass
