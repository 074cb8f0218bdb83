"""Charts drawn as one SVG picture: the score and odds charts of pages that only watch.

A Bokeh figure costs a served page some fifty models (axes, tickers, grids, sources, renderers...),
about 400 KB each, and every page of a room redraws its own. A spectator's page and the stream view
show the same chart as every other spectator of the room in their language: drawn here once per
change of the contest (:func:`~raisus_panel.ui._shared.once_per_change`), it is a string that every
such page shares, in one HTML pane. The picture draws the same data as the figure (steps that hold
until the next point, dots that say what happened there, event markers on their line), scales with
the page's width, takes the page's text colour for its axes (light and dark alike) and says what
each point is in a tooltip (``<title>``).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

from ._charts import _SHAPES, CJK_FONT

#: The picture's own size; it is drawn to the page's width (text scales with it).
WIDTH, HEIGHT = 560, 320
#: The plot area inside it: left, top, right, bottom margins (axis labels and ticks go there).
LEFT, TOP, RIGHT, BOTTOM = 58, 30, 14, 46


@dataclass
class Line:
    """One line of a chart: a value per point (NaN where it has none), drawn as steps."""

    values: list[float]
    color: str
    dash: bool = False
    #: the dots' fill (None: no dots); each dot says ``tips[i]`` when pointed at
    fill: str | None = None
    tips: list[str] = field(default_factory=list)
    opacity: float = 1.0


@dataclass
class Marker:
    """A between-round event on the line it concerns: a shape outlined in that line's colour."""

    x: float
    y: float
    shape: str
    color: str
    tip: str = ""


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


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
               y_range: tuple[float, float], y_ticks: list[tuple[float, str]], markers: list[Marker] = (),
               label: str = "", kind: str = "") -> str:
    """A chart of ``lines`` over the points ``xs`` (rounds, events between them at half rounds) as SVG.

    The x axis always spans rounds 0 and 1 and half a round either side of the points; ``y_range``
    is the value axis's extent and ``y_ticks`` its (value, text) ticks. ``label`` names the picture
    for screen readers (the title by default). Every text given is escaped here. The picture says what
    it holds to a program reading the page: ``data-chart`` (``kind``), ``data-points`` (how many
    points) and ``data-last`` (the last point's x).
    """
    lo = min([0.0, *xs]) - 0.5
    hi = max([1.0, *xs]) + 0.5
    y0, y1 = y_range
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return round(LEFT + (x - lo) / (hi - lo) * plot_w, 1)

    def py(y: float) -> float:
        return round(TOP + (y1 - y) / (y1 - y0) * plot_h, 1)

    last = f"{xs[-1]:g}" if xs else ""
    out = [f'<svg class="raisus-chart" data-chart="{_esc(kind)}" data-points="{len(xs)}" data-last="{last}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{_esc(label or title)}" '
           f'style="width:100%;height:auto;display:block;font-family:{_esc(CJK_FONT)};font-size:12px" '
           f'xmlns="http://www.w3.org/2000/svg">',
           f'<text x="{LEFT}" y="18" font-weight="700" font-size="13" fill="currentColor">{_esc(title)}</text>']
    # grid and ticks, in the page's own text colour
    grid = []
    for value, text in y_ticks:
        y = py(value)
        grid.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4}" text-anchor="end" fill="currentColor">{_esc(text)}</text>')
    for r in _round_ticks(lo, hi):
        x = px(r)
        grid.append(f'<line x1="{x}" x2="{x}" y1="{TOP}" y2="{TOP + plot_h}"/>')
        out.append(f'<text x="{x}" y="{TOP + plot_h + 16}" text-anchor="middle" fill="currentColor">{r}</text>')
    out.insert(1, f'<g stroke="currentColor" stroke-opacity=".15">{"".join(grid)}</g>')
    out.append(f'<path d="M{LEFT},{TOP} V{TOP + plot_h} H{WIDTH - RIGHT}" fill="none" stroke="currentColor"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 6}" text-anchor="middle" font-style="italic" '
               f'fill="currentColor">{_esc(x_label)}</text>')
    out.append(f'<text transform="translate(14,{TOP + plot_h / 2}) rotate(-90)" text-anchor="middle" '
               f'font-style="italic" fill="currentColor">{_esc(y_label)}</text>')
    for line in lines:
        out.append(_steps(line, xs, px, py, hi))
    for line in lines:
        if line.fill is not None:
            out.append(_dots(line, xs, px, py))
    for m in markers:
        shape = _SHAPES.get(m.shape, _SHAPES["circle"])
        tip = f"<title>{_esc(m.tip)}</title>" if m.tip else ""
        out.append(f'<g transform="translate({px(m.x) - 7},{py(m.y) - 7})" fill="white" stroke="{_esc(m.color)}" '
                   f'stroke-width="2">{tip}{shape}</g>')
    out.append("</svg>")
    return "".join(out)


def _steps(line: Line, xs, px, py, hi: float) -> str:
    """The line as steps: each value holds until the next point; a gap (NaN) breaks it."""
    parts, last = [], None
    for x, y in zip(xs, line.values):
        if y is None or math.isnan(y):
            last = None
            continue
        if last is None:
            parts.append(f"M{px(x)},{py(y)}")
        else:
            parts.append(f"H{px(x)}V{py(y)}")
        last = y
    if not parts:
        return ""
    dash = ' stroke-dasharray="6,4"' if line.dash else ""
    return (f'<path d="{"".join(parts)}" fill="none" stroke="{_esc(line.color)}" stroke-width="2"{dash} '
            f'stroke-opacity="{line.opacity}"/>')


def _dots(line: Line, xs, px, py) -> str:
    dots = []
    for i, (x, y) in enumerate(zip(xs, line.values)):
        if y is None or math.isnan(y):
            continue
        tip = f"<title>{_esc(line.tips[i])}</title>" if i < len(line.tips) and line.tips[i] else ""
        dots.append(f'<circle cx="{px(x)}" cy="{py(y)}" r="4">{tip}</circle>')
    return (f'<g fill="{_esc(line.fill)}" stroke="{_esc(line.color)}" stroke-width="1.5">{"".join(dots)}</g>'
            if dots else "")
