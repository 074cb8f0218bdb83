"""Issue 12: the charts read at a glance in a real browser, on a desktop and at a phone's width.

The app (``tests/browser/apps/charts_app.py``) shows the score chart and the odds chart of a team
contest played to its end (a volunteer, a recovery, long names). In English and Korean, 1400 px and
390 px wide: each key sits under its plot and never makes the page scroll sideways, the plot keeps the
whole width of its chart, and every event marker the browser holds sits on its line.

At 390 px the page is laid out 390 CSS pixels wide, as a phone lays out a page that declares its
viewport (``is_mobile`` would lay out these test pages 980 px wide: they declare none).
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t

from .conftest import Server, shot

WIDTHS = {"desktop": 1400, "phone": 390}

#: The browser's score chart: its rows, its markers, and which column each named line draws.
_CHART_JS = """() => {
  const plain = data => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.from(v)]));
  let lines = null, marks = null;
  const columns = {};
  for (const doc of Bokeh.documents)
    for (const m of doc.all_models) {
      if (m.data && ('faces' in m.data)) lines = plain(m.data);
      if (m.data && ('marker' in m.data)) marks = plain(m.data);
      if (m.type === 'GlyphRenderer' && m.name && m.glyph.y && m.glyph.y.field) columns[m.name] = m.glyph.y.field;
    }
  return {lines, marks, columns};
}"""


@pytest.fixture(scope="module")
def charts_server():
    server = Server(["tests/browser/apps/charts_app.py"]).start()
    yield server
    server.kill()


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", list(WIDTHS))
def test_keys_sit_under_full_width_plots_and_markers_on_their_lines(browser, charts_server, lang, size):
    width = WIDTHS[size]
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  device_scale_factor=2 if size == "phone" else 1)
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{charts_server.url}/charts_app?lang={lang}")
        for name in ("chart", "odds"):
            page.locator(f".raisus-test-{name} canvas").first.wait_for(state="attached")
            page.locator(f".raisus-test-{name} .raisus-key").wait_for()
        page.wait_for_timeout(500)  # Bokeh lays the figures out after the canvases exist
        scroll, client = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= client, f"{size} {lang}: the page scrolls sideways ({scroll} > {client})"
        for name in ("chart", "odds"):
            chart = page.locator(f".raisus-test-{name}").bounding_box()
            plot = page.locator(f".raisus-test-{name} .bk-Canvas").first.bounding_box()
            key = page.locator(f".raisus-test-{name} .raisus-key").bounding_box()
            assert key["y"] >= plot["y"] + plot["height"] - 1, f"{name}: the key is not under the plot"
            assert key["x"] + key["width"] <= width and key["width"] <= chart["width"]
            # nothing beside the plot takes its width (a legend used to take half of it)
            assert plot["width"] >= chart["width"] - 12, f"{name}: the plot is {plot['width']} of {chart['width']} px"
        key_text = page.locator(".raisus-test-chart .raisus-key").inner_text()
        for text in ("Sir Reginald the Unwashed · Knight of the Soggy Moat", "Grumbleguts the Enormous · Ogre",
                     t("event.volunteered", lang), t("event.recovered", lang)):
            assert text in key_text
        assert t("odds.p_next_short", lang) in page.locator(".raisus-test-odds .raisus-key").inner_text()

        data = page.evaluate(_CHART_JS)
        lines, marks, columns = data["lines"], data["marks"], data["columns"]
        assert len(marks["x"]) >= 3  # the volunteer (two lines) and the recovery
        for i, x in enumerate(marks["x"]):
            rows = [j for j, lx in enumerate(lines["x"]) if lx == x and lines["what"][j] == marks["what"][i]]
            col = columns[marks["series"][i]]
            assert rows and lines[col][rows[0]] == marks["y"][i], f"marker {i} is off its line"
        shot(page, f"charts-{size}-{lang}")
    finally:
        context.close()
