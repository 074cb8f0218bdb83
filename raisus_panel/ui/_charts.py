"""Bokeh helpers shared by the charts: fonts that can show Korean, colours, notebook pushes."""

from __future__ import annotations

import panel as pn
from bokeh.palettes import Category10_10

#: A font stack that can draw Korean on every platform (the Makefile installs Noto CJK on Debian).
CJK_FONT = ("'Noto Sans CJK KR', 'Noto Sans KR', 'Source Han Sans KR', 'Apple SD Gothic Neo', "
            "'Malgun Gothic', 'NanumGothic', sans-serif")

PALETTE = Category10_10


def apply_fonts(fig) -> None:
    """Use :data:`CJK_FONT` for every text of a figure (title, axes, legend)."""
    fig.title.text_font = CJK_FONT
    for axis in (*fig.xaxis, *fig.yaxis):
        axis.axis_label_text_font = CJK_FONT
        axis.major_label_text_font = CJK_FONT
    for legend in fig.legend:
        legend.label_text_font = CJK_FONT
        legend.title_text_font = CJK_FONT


def push(pane) -> None:
    """After changing a Bokeh model in place, send the change to a notebook's frontend (no-op served)."""
    try:
        pn.io.push_notebook(pane)
    except Exception:  # pragma: no cover - a display that was closed meanwhile
        pass
