"""Notebook views in JupyterLab, in a real browser with no internet: what the page shows is the kernel's state.

Issue 8: after Run All and a few clicks, views went stale (a table left at round 1 while the chart
showed round 2, a chart that lost a point or kept an undone round), the kernel's own copy of a
chart grew extra rows, clicks in an older output raised, tooltips showed Markdown escapes, and
without internet every output was blank. Each step here is followed by a full comparison: every
property a person sees, of every Bokeh model of every output, in the page against the kernel
(:func:`views.differences`), and the kernel's models against the game (:func:`views.model_problems`).
"""

from __future__ import annotations

import re

import nbformat
import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t

from .conftest import Lab, shot
from .views import PAGE_JS, PROPS, differences

NOTEBOOKS = ["stale_views.ipynb", "tooltips.ipynb"]

# a kernel, Run All and a dozen round trips per test: more than the default on a busy 2-core machine
pytestmark = pytest.mark.timeout(600)

#: The cells of stale_views.ipynb whose outputs show the same views (the first with a character sheet).
FIRST, SECOND = 3, 5
COMPONENTS = "table, chart, odds, log, sheet"


def check(nb: Lab, step: str) -> None:
    """Every view in the page equals the kernel's model, which equals the game; no error anywhere."""
    nb.settle()
    kernel = nb.kernel_json("_views.kernel_views()")
    page = nb.page.evaluate(PAGE_JS, list(PROPS))
    shown = {root for doc in page for root in doc["roots"]}
    assert len(kernel) >= 2 and all(any(r in shown for r in doc["roots"]) for doc in kernel), \
        f"{step}: the page does not show every output"
    assert nb.errors() == [], f"{step}: an error was printed into the notebook"
    assert nb.bokeh_errors() == [], f"{step}: errors in the browser console"
    diffs = differences(kernel, page)
    assert not diffs, f"{step}: the page shows something else than the kernel:\n" + "\n".join(diffs[:20])
    problems = nb.kernel_json(f"_views.model_problems({COMPONENTS})")
    assert not problems, f"{step}: the kernel's views are stale:\n" + "\n".join(problems[:20])
    # and what is on screen: the roll button's label and the log's entries, in both outputs
    label, entries = nb.kernel_json("[table._roll.label, log._body.object.count('raisus-log-entry')]")
    for cell in (FIRST, SECOND):
        out = nb.output(cell)
        # (drawn from the models in the page, which are checked above: allow BokehJS its render)
        expect(out.get_by_role("button", name=label, exact=True), f"{step}: {label!r} not shown").to_have_count(1)
        expect(out.locator(".raisus-log-entry"), f"{step}: the log's entries").to_have_count(entries)


def click(nb: Lab, cell: int, name: str) -> None:
    button = nb.output(cell).get_by_role("button", name=name, exact=True).first  # the table's, not the sheet's
    expect(button).to_be_enabled(timeout=10_000)
    button.click(timeout=10_000)


def test_every_output_follows_the_kernel(lab):
    nb = lab("stale_views.ipynb")
    nb.run_all()
    nb.execute("import tests.jupyterlab.views as _views")
    assert nb.kernel_json("game.round") == 4
    check(nb, "after Run All")
    undo = t("contest.undo", "ko")
    rounds = [4]
    for cell, what in [(FIRST, "roll"), (SECOND, "roll"), (FIRST, undo), (SECOND, undo),
                       (SECOND, "roll"), (SECOND, "roll"), (FIRST, undo), (FIRST, "roll")]:
        name = nb.kernel_json("table._roll.label") if what == "roll" else what
        click(nb, cell, name)
        rounds.append(rounds[-1] + (1 if what == "roll" else -1))
        check(nb, f"{name} in the output of cell {cell}")
        assert nb.kernel_json("game.round") == rounds[-1]
    # the kernel's chart holds one row per history point (the page echoed rows back before)
    assert nb.kernel_json("[len(chart.source.data['x']), len(game.history)]") == [rounds[-1] + 1] * 2
    shot(nb.page, "jupyterlab-every-output-follows-the-kernel")


def tooltip_text(nb: Lab, button) -> str:
    """The title the browser shows when the pointer rests on ``button`` (its element's attribute)."""
    return button.evaluate("b => b.getRootNode().host.getAttribute('title')")


def test_tooltips_are_plain_text_and_nothing_loads_from_the_internet(lab):
    nb = lab("tooltips.ipynb")
    outside = []
    nb.page.on("request", lambda r: outside.append(r.url)
               if not re.match(r"(https?|wss?)://(127\.0\.0\.1|localhost)[:/]|data:|blob:", r.url) else None)
    nb.run_all()
    nb.settle()
    # offline: BokehJS and Panel came with the notebook, the views are drawn, the notice is hidden
    roll = nb.output(3).get_by_role("button", name=t("contest.roll", "ko", n=1), exact=True)
    expect(roll).to_be_visible()
    expect(roll).to_be_disabled()
    assert nb.output(3).locator("canvas").count() > 0, "the score chart is not drawn"
    expect(nb.output(1).get_by_text(t("notebook.run_first", "en"))).to_be_hidden()
    assert outside == [], f"the notebook asked the internet for {outside}"
    # the disabled roll button says why, naming <i>올라프</i> as text: no escapes, no element made of it
    reason = nb.kernel_json("__import__('raisus_panel.ui._base', fromlist=['x']).hint(table._roll)")
    assert reason.startswith("<i>올라프</i>") and "(" in reason and reason.endswith(".")
    assert tooltip_text(nb, roll) == reason
    # and says it under the button, as text on the page (no hover needed), in the notebook as when served
    line = nb.output(3).locator(".raisus-why").filter(has_text=reason).first
    expect(line).to_be_visible()
    assert roll.evaluate("b => b.getRootNode().getElementById('raisus-why').textContent") == reason
    assert nb.page.evaluate("""() => { let n = 0; const walk = r => { for (const el of r.querySelectorAll('*')) {
        if (el.tagName === 'I' && el.textContent === '올라프') n++; if (el.shadowRoot) walk(el.shadowRoot); } };
        walk(document); return n; }""") == 0
    assert nb.page.locator(".bk-Tooltip").count() == 0  # a title, no tooltip model
    shot(nb.page, "jupyterlab-tooltip-plain-text")
    nb.page.mouse.move(0, 0)
    # an enabled button says what it does, as written in the catalog ("...굴립니다." not "...굴립니다\\.")
    nb.execute("actions.act('choose', unit=olaf.uid, cliche='바이킹')")
    nb.settle()
    expect(roll).to_be_enabled()
    assert tooltip_text(nb, roll) == t("help.roll_round", "ko")
    assert nb.errors() == [] and nb.bokeh_errors() == []


def test_a_saved_notebook_opened_without_running_says_to_run_it(lab, lab_server):
    """Opened from disk without running (untrusted: no script runs), the first output is a notice."""
    from raisus_panel.notebook import _notice_html

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cell = nbformat.v4.new_code_cell("import raisus_panel\n\nraisus_panel.extension()", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": _notice_html()})]
    nb.cells = [cell]
    nbformat.write(nb, lab_server.root / "saved.ipynb")
    page = lab("saved.ipynb")
    for lang in ("ko", "en"):
        expect(page.output(0).get_by_text(t("notebook.run_first", lang))).to_be_visible()
    shot(page.page, "jupyterlab-saved-notebook-notice")


#: Presses Enter in an ``<input>`` made in output ``cell`` of the page; says whether JupyterLab
#: cancelled the Enter (its input guard) and whether the field then committed (``change``).
_ENTER_IN_A_CELL_JS = """async (output) => {
  const field = document.createElement('input');
  output.prepend(field);
  const seen = {cancelled: null, committed: false};
  window.addEventListener('beforeinput', e => { if (e.target === field) seen.cancelled = e.defaultPrevented; });
  field.addEventListener('change', () => { seen.committed = true; });
  window.__raisus_probe = seen;
  field.id = 'raisus-enter-probe';
}"""


def test_enter_sends_a_number_field(lab):
    """Issue 22: a rating typed into a character sheet, then Enter, reached the kernel only once the
    field lost focus, and Enter made no new line in its description. JupyterLab cancels Enter's
    ``beforeinput`` in every cell (its input guard), and with it the field's commit or new line;
    ``notebook.ENTER_COMMITS_JS`` does what Enter does then."""
    nb = lab("stale_views.ipynb")
    nb.run_all()
    nb.settle()
    # upstream: JupyterLab still cancels Enter in a field inside a cell (when this fails, the shim can go)
    nb.output(FIRST).evaluate(_ENTER_IN_A_CELL_JS)
    probe = nb.page.locator("#raisus-enter-probe")
    probe.fill("3")
    probe.press("Enter")
    assert nb.page.evaluate("window.__raisus_probe") == {"cancelled": True, "committed": True}
    # the sheet's rating field: typed, then Enter, with the focus still in the field
    fields = nb.output(FIRST).locator("input:not([type=file])")
    values = [fields.nth(i).input_value() for i in range(fields.count())]
    rating = fields.nth(values.index("8"))  # 잭's 해적 (8): its rating, then its current score
    assert nb.kernel_json("sheet.draft()['cliches'][0]['rating']") == 8
    rating.scroll_into_view_if_needed()
    rating.fill("5")
    rating.press("Enter")
    nb.settle()
    assert rating.evaluate("el => el.getRootNode().activeElement === el"), "the field kept the focus"
    assert nb.kernel_json("sheet.draft()['cliches'][0]['rating']") == 5
    # the description, a text area: Enter starts a new line there, as anywhere else
    description = nb.output(FIRST).get_by_label(t("sheet.description", "ko"), exact=True)
    description.scroll_into_view_if_needed()
    description.fill("")
    description.press_sequentially("해적")
    description.press("Enter")
    description.press_sequentially("선장")
    description.blur()
    nb.settle()
    assert nb.kernel_json("sheet.draft()['description']") == "해적\n선장"
    assert nb.errors() == [] and nb.bokeh_errors() == []
