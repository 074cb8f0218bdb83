"""The chart helpers notebook authors use for their own Bokeh charts: fonts that can show Korean."""

from __future__ import annotations

from bokeh.models import Label, LabelSet, Title
from bokeh.plotting import figure

import raisus_panel.ui as ui


def test_the_korean_font_helper_is_public():
    assert {"apply_fonts", "CJK_FONT"} <= set(ui.__all__)
    assert "apply_fonts" in ui.__doc__ and "Noto Sans CJK KR" in ui.CJK_FONT
    assert "Parameters" in ui.apply_fonts.__doc__ and "Examples" in ui.apply_fonts.__doc__


def test_apply_fonts_styles_every_text_of_a_figure():
    fig = figure(title="라운드별 점수", x_axis_label="라운드", y_axis_label="점수")
    fig.line([0, 1], [4, 3], legend_label="바이킹")
    fig.add_layout(Title(text="부제"), "above")
    fig.add_layout(Label(x=1, y=3, text="승리"))
    fig.add_layout(LabelSet(x="x", y="y", text="t"))
    assert ui.apply_fonts(fig) is fig  # for show(apply_fonts(figure(...)))
    fonts = [t.text_font for t in fig.select(type=Title)] + [l.text_font for l in fig.select(type=Label)]
    fonts += [l.text_font for l in fig.select(type=LabelSet)]
    fonts += [a.axis_label_text_font for a in (*fig.xaxis, *fig.yaxis)]
    fonts += [a.major_label_text_font for a in (*fig.xaxis, *fig.yaxis)]
    fonts += [legend.label_text_font for legend in fig.legend] + [legend.title_text_font for legend in fig.legend]
    assert len(fonts) == 10 and set(fonts) == {ui.CJK_FONT}
