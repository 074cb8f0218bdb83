"""Charts drawn as one SVG picture: the score and odds charts of pages that only watch.

A Bokeh figure costs a served page some fifty models (axes, tickers, grids, sources, renderers...),
about 400 KB in all, and every page of a room redraws its own. A spectator's page and the stream view
show the same chart as every other spectator of the room in their language: drawn here once per
change of the contest (:func:`~raisus_panel.ui._shared.once_per_change`), it is a string that every
such page shares, in one HTML pane. The picture draws the same data as the figure (steps that hold
until the next point, dots, event markers on their line), scales with the page's width, takes the
page's text colour for its axes (light and dark alike) and says what happened at each point in a
tooltip (``<title>``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ._base import esc
from ._charts import CJK_FONT, MARKER_SHAPES

#: The picture's own size; it is drawn to the page's width (text scales with it).
WIDTH, HEIGHT = 560, 320
#: The plot area inside it: left, top, right, bottom margins (axis labels and ticks go there).
LEFT, TOP, RIGHT, BOTTOM = 64, 30, 14, 46
#: On a phone the picture is drawn about 370 px wide, two thirds of its own size: its text is set
#: larger there, so it reads as the page's other small print does (12-13 px) and not at 8 px.
_PHONE_TEXT = "<style>@media (max-width:600px){.raisus-chart text{font-size:18px}}</style>"


@dataclass
class Line:
    """One line of a chart: a value per point (NaN where it has none), drawn as steps."""

    values: list[float]
    color: str
    dash: bool = False
    #: the dots' fill (None: no dots)
    fill: str | None = None
    opacity: float = 1.0
    #: how far from its values the line is drawn, in the value axis's units (lines at one value side
    #: by side: ``_charts.series_offsets``)
    offset: float = 0.0


@dataclass
class Marker:
    """A between-round event on the line it concerns: a shape outlined in that line's colour."""

    x: float
    y: float
    shape: str
    color: str


def _round_ticks(lo: float, hi: float) -> list[int]:
    """Whole rounds from ``lo`` to ``hi``, 1, 2, 5, 10... apart: at most eight."""
    span = max(hi - lo, 1)
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if span / s <= 8)
    return list(range(math.ceil(lo / step) * step, math.floor(hi) + 1, step))


def dice_ticks(top: float) -> list[tuple[float, str]]:
    """Ticks on whole dice from 0 to ``top`` (1, 2, 5... apart: at most six), never on half a die."""
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 10**9) if max(top, 1) / s <= 6)
    return [(v, str(v)) for v in range(0, int(math.floor(top)) + 1, step)]


def percent_ticks() -> list[tuple[float, str]]:
    """0 %, 20 % ... 100 %."""
    return [(v / 100, f"{v}%") for v in range(0, 101, 20)]


def step_chart(*, title: str, x_label: str, y_label: str, xs: list[float], lines: list[Line],
               y_range: tuple[float, float], y_ticks: list[tuple[float, str]], tips: list[str] = (),
               markers: list[Marker] = (), label: str = "", kind: str = "") -> str:
    """A chart of ``lines`` over the points ``xs`` (rounds, events between them at half rounds) as SVG.

    The x axis always spans rounds 0 and 1 and half a round either side of the points; ``y_range``
    is the value axis's extent and ``y_ticks`` its (value, text) ticks. Pointing anywhere over a
    point's column says ``tips[i]`` (what happened there, every line's value). ``label`` names the
    picture for screen readers (the title by default). Every text given is escaped here. The picture
    says what it holds to a program reading the page: ``data-chart`` (``kind``), ``data-points``
    (how many points) and ``data-last`` (the last point's x).

    A served page receives the picture anew after every change, HTML-escaped (``<`` and ``"`` cost
    four to six bytes each): coordinates are whole pixels and attributes go unquoted where they can.
    """
    lo = min([0.0, *xs]) - 0.5
    hi = max([1.0, *xs]) + 0.5
    y0, y1 = y_range
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> int:
        return round(LEFT + (x - lo) / (hi - lo) * plot_w)

    def py(y: float) -> int:
        return round(TOP + (y1 - y) / (y1 - y0) * plot_h)

    last = f"{xs[-1]:g}" if xs else ""
    out = [f'<svg class=raisus-chart data-chart={esc(kind) or "chart"} data-points={len(xs)} '
           f'data-last={last or "none"} viewBox="0 0 {WIDTH} {HEIGHT}" role=img aria-label="{esc(label or title)}" '
           f'style="width:100%;height:auto;display:block;font-family:{esc(CJK_FONT)};font-size:12px" '
           f'fill=currentColor xmlns=http://www.w3.org/2000/svg>', _PHONE_TEXT,
           f'<text x={LEFT} y=18 font-weight=700 font-size=13>{esc(title)}</text>']
    # grid and ticks, in the page's own text colour (the picture's fill)
    grid, labels = [], []
    for value, text in y_ticks:
        y = py(value)
        grid.append(f"M{LEFT},{y}H{WIDTH - RIGHT}")
        labels.append(f"<text x={LEFT - 6} y={y + 4} text-anchor=end>{esc(text)}</text>")
    for r in _round_ticks(lo, hi):
        x = px(r)
        grid.append(f"M{x},{TOP}V{TOP + plot_h}")
        labels.append(f"<text x={x} y={TOP + plot_h + 16} text-anchor=middle>{r}</text>")
    out.append(f'<path d={"".join(grid)} stroke=currentColor stroke-opacity=.15 fill=none />')
    out += labels
    out.append(f"<path d=M{LEFT},{TOP}V{TOP + plot_h}H{WIDTH - RIGHT} fill=none stroke=currentColor />")
    out.append(f"<text x={LEFT + plot_w // 2} y={HEIGHT - 6} text-anchor=middle font-style=italic>"
               f"{esc(x_label)}</text>")
    out.append(f"<text transform=translate(14,{TOP + plot_h // 2})rotate(-90) text-anchor=middle "
               f"font-style=italic>{esc(y_label)}</text>")
    out += [_steps(line, xs, px, py) for line in lines]
    out += [_dots(line, xs, px, py) for line in lines if line.fill is not None]
    out += [f"<g transform=translate({px(m.x) - 7},{py(m.y) - 7}) fill=white stroke={esc(m.color)} "
            f"stroke-width=2>{MARKER_SHAPES.get(m.shape, MARKER_SHAPES['circle'])}</g>" for m in markers]
    out.append(_columns(xs, tips, px, TOP, plot_h))
    out.append("</svg>")
    return "".join(out)


def _steps(line: Line, xs, px, py) -> str:
    """The line as steps: each value holds until the next point; a gap (NaN) breaks it."""
    parts, last = [], None
    for x, y in zip(xs, line.values):
        if y is None or math.isnan(y):
            last = None
            continue
        y += line.offset
        parts.append(f"M{px(x)},{py(y)}" if last is None else f"H{px(x)}V{py(y)}")
        last = y
    if not parts:
        return ""
    dash = " stroke-dasharray=6,4" if line.dash else ""
    opacity = f" stroke-opacity={line.opacity:g}" if line.opacity != 1 else ""
    return f'<path d={"".join(parts)} fill=none stroke={esc(line.color)} stroke-width=2{dash}{opacity} />'


def _dots(line: Line, xs, px, py) -> str:
    dots = "".join(f"<circle cx={px(x)} cy={py(y + line.offset)} r=4 />" for x, y in zip(xs, line.values)
                   if y is not None and not math.isnan(y))
    return f"<g fill={esc(line.fill)} stroke={esc(line.color)} stroke-width=1.5>{dots}</g>" if dots else ""


def _columns(xs, tips, px, top: int, height: int) -> str:
    """An invisible column over each point that says ``tips[i]`` when pointed at (a tooltip)."""
    cols = []
    for i, (x, tip) in enumerate(zip(xs, tips)):
        if not tip:
            continue
        left = (px(xs[i - 1]) + px(x)) // 2 if i else px(x) - 12
        right = (px(x) + px(xs[i + 1])) // 2 if i + 1 < len(xs) else px(x) + 12
        cols.append(f"<rect x={left} y={top} width={max(right - left, 1)} height={height}>"
                    f"<title>{esc(tip)}</title></rect>")
    return f"<g fill=transparent>{''.join(cols)}</g>" if cols else ""
