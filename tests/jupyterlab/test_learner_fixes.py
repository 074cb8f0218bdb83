"""What a learner met in notebooks 12 and 13 and in saved notebooks (issue 22 items 1, 2, 4 and 5).

JupyterLab in Chromium, with no internet, as a learner uses it: Run All, then the notebook's own
controls. 12: the ipywidgets language buttons switch every character sheet without losing its
kind, and a refusal is text, not HTML source. 13: the "play it yourself" table can be rolled and
revealed, and the verify cell then verifies, in Korean and in English. Saved after Run All, a
notebook stays small and still shows its views without any outside request.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from raisus_panel.i18n import t

from .conftest import MAX_SAVED_BYTES, Lab, shot

NOTEBOOKS = ["notebooks/12_ipywidgets.ipynb", "notebooks/13_fair_dice.ipynb", "notebooks/00_quickstart.ipynb"]

pytestmark = pytest.mark.timeout(600)

#: What a page may load: the JupyterLab server itself, and data or blob URLs.
LOCAL = re.compile(r"(https?|wss?)://(127\.0\.0\.1|localhost)[:/]|data:|blob:")


SLOW_PLUGIN = re.compile(r"warning: Plugin \S+ \(with \d+ dependants\) took [\d.]+ms to activate\.$")


def _watch(nb: Lab) -> tuple[list[str], list[str]]:
    """Record what the page asks outside the JupyterLab server, and every console line (of any level)."""
    outside: list[str] = []
    said: list[str] = []
    nb.page.on("request", lambda r: outside.append(r.url) if not LOCAL.match(r.url) else None)
    nb.page.on("console", lambda m: said.append(f"{m.type}: {m.text}"))
    return outside, said


def _clean(nb: Lab, said: list[str], step: str) -> None:
    nb.settle()
    assert nb.errors() == [], f"{nb.name}, {step}: an error was printed into the notebook"
    lost = [m for m in said if "model not found" in m.lower()]
    assert not lost, f"{nb.name}, {step}: the page lost ipywidgets models: {lost}"
    # (JupyterLab's own note that a plugin, jupyter_bokeh's too, was slow to start on a busy machine is no error)
    errors = [m for m in nb.bokeh_errors() if not SLOW_PLUGIN.match(m)]
    assert errors == [], f"{nb.name}, {step}: errors in the browser console"


# -- 12: the ipywidgets language buttons ------------------------------------------------------------
def _sheet_kinds(nb: Lab) -> list:
    return nb.kernel_json("[s._kind.value for s in sheets]")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_12_the_ipywidgets_language_switch_keeps_every_sheet(lab, lang):
    nb = lab("12_ipywidgets.ipynb")
    outside, said = _watch(nb)
    nb.run_all()
    _clean(nb, said, "after Run All")
    assert _sheet_kinds(nb) == ["character", "character", "grunt_mob"]
    saves = nb.kernel_json("[s._save.disabled for s in sheets]")
    last = nb.output(9)  # the "your turn" cell: language buttons over the tabs of sheets
    label = {"en": "English", "ko": "한국어"}[lang]
    for step in (["en", "ko"] if lang == "ko" else ["en"]):
        name = {"en": "English", "ko": "한국어"}[step]
        last.locator(".widget-toggle-button", has_text=name).first.click()
        # an ipywidgets message may reach the kernel after the test's next request (another subshell)
        for _ in range(100):
            if nb.kernel_json("settings.lang") == step:
                break
            nb.page.wait_for_timeout(100)
        assert nb.kernel_json("settings.lang") == step, f"pressing {name} did not reach the kernel"
        nb.settle()
        _clean(nb, said, f"after pressing {name}")
        assert _sheet_kinds(nb) == ["character", "character", "grunt_mob"], f"after pressing {name}"
        assert nb.kernel_json("[s._error.visible for s in sheets]") == [False] * 3, f"after pressing {name}"
        assert nb.kernel_json("[s._save.disabled for s in sheets]") == saves, "the language locked Save"
        # the page shows each sheet's kind pressed, in the language chosen (step 4: the mob's tab too)
        for tab, kind in ((0, "character"), (2, "grunt_mob")):
            last.locator(".lm-TabBar-tab").nth(tab).click()
            expect(last.locator(".bk-btn.bk-active:visible", has_text=t(f"kind.{kind}", step)).first).to_be_visible()
        last.locator(".lm-TabBar-tab").nth(0).click()
    # step 2's refusal is printed and shown as words, never as the HTML source of a coloured span
    printed = nb.output(7).inner_text()
    assert "<span" not in printed and "style=" not in printed
    refusal = nb.kernel_json("practice_said.value")
    assert refusal and "<" not in refusal and refusal in printed
    shot(nb.page, f"jupyterlab-12-{label}")
    assert outside == [], f"the notebook asked the internet for {outside}"


# -- 13: play it yourself ---------------------------------------------------------------------------
#: The cells of 13's "play it yourself": the table, then the cell that verifies it.
TABLE, VERIFY = 18, 19


def _verify_again(nb: Lab) -> str:
    """Run the verify cell again, as the text says, and return what it printed."""
    nb.cell(VERIFY).click()
    nb.command("notebook:run-cell")
    nb.wait_all_ran()
    return nb.output(VERIFY).inner_text().strip()


def _verdict(nb: Lab, lang: str) -> tuple[list[str], list[str]]:
    """The kernel's own verification of the learner's contest: each status, and each line in ``lang``."""
    return (nb.kernel_json("[c.status for c in verify(game)]"),
            nb.kernel_json(f"[verification_text(c, {lang!r}) for c in verify(game)]"))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_13_play_it_yourself_rolls_reveals_and_verifies(lab, lang):
    nb = lab("13_fair_dice.ipynb")
    outside, said = _watch(nb)
    nb.run_all()
    if lang == "en":  # the learner picks English with the notebook's language buttons
        nb.output(2).get_by_role("button", name="en", exact=True).click()
        nb.settle()
    assert nb.kernel_json("settings.lang") == lang
    _clean(nb, said, "after Run All")
    statuses, lines = _verdict(nb, lang)
    assert statuses == ["unrevealed"] and _verify_again(nb) == lines[0]
    table = nb.output(TABLE)
    roll = re.compile(re.escape(t("contest.roll", lang, n=999)).replace("999", r"\d+"))
    # roll until the contest is over: the seed is then revealed by itself
    for _ in range(30):
        button = table.get_by_role("button", name=roll)
        if button.count() == 0 or not button.first.is_enabled():
            break
        button.first.click()
        nb.settle()
    assert nb.kernel_json("game.status") != "active", "the contest did not end by rolling"
    _clean(nb, said, "after the contest ended")
    expect(table.get_by_text(t("fair.revealed", lang))).to_be_visible()
    shot(nb.page, f"jupyterlab-13-played-{lang}")
    statuses, lines = _verdict(nb, lang)
    assert statuses == ["verified"] and _verify_again(nb) == lines[0]
    assert outside == [], f"the notebook asked the internet for {outside}"


def test_13_the_gm_reveals_early_and_the_verify_cell_verifies(lab):
    nb = lab("13_fair_dice.ipynb")
    outside, said = _watch(nb)
    nb.run_all()
    _clean(nb, said, "after Run All")
    table = nb.output(TABLE)
    table.get_by_role("button", name=t("contest.roll", "ko", n=1), exact=True).click()
    nb.settle()
    reveal = table.get_by_role("button", name=t("fair.reveal_dice", "ko"), exact=True)
    expect(reveal).to_be_enabled()
    reveal.click()
    nb.settle()
    _clean(nb, said, "after the early reveal")
    assert nb.kernel_json("game.status") == "active"
    statuses, lines = _verdict(nb, "ko")
    assert statuses == ["verified"] and _verify_again(nb) == lines[0]
    shot(nb.page, "jupyterlab-13-revealed-early-ko")
    assert outside == [], f"the notebook asked the internet for {outside}"


# -- 5: a notebook saved after Run All (every tutorial's size: tests/jupyterlab/test_tutorials.py) -----
@pytest.mark.parametrize("name", ["00_quickstart.ipynb", "12_ipywidgets.ipynb", "13_fair_dice.ipynb"])
def test_a_notebook_saved_after_run_all_is_small_and_needs_no_internet(lab, name):
    nb = lab(name)
    outside, said = _watch(nb)
    nb.run_all()
    _clean(nb, said, "after Run All")
    # BokehJS and Panel came from the Jupyter server (Panel's extension), not from the output
    assert nb.page.evaluate("() => window.Bokeh !== undefined && Bokeh.Panel !== undefined")
    expect(nb.output(0).get_by_text(t("notebook.run_first", "en"))).to_be_hidden()
    assert nb.page.locator(".jp-OutputArea .bk-btn").count() > 0, "no view was drawn"
    size = nb.save()
    saved = nbformat.read(nb.server.root / name, 4)
    assert any(c.get("outputs") for c in saved.cells if c.cell_type == "code"), "saved without outputs"
    print(f"{name} saved after Run All: {size} bytes")
    assert size < MAX_SAVED_BYTES, f"{name} saved after Run All is {size} bytes"
    assert outside == [], f"the notebook asked the internet for {outside}"
    # opened again a day later, not run: the first output says what to do
    shutil.copy(nb.server.root / name, nb.server.root / f"saved-{name}")
    nb.page.context.clock.install(time=time.time() + 24 * 3600)
    again = lab(f"saved-{name}")
    again_outside, _ = _watch(again)
    again.page.wait_for_timeout(3000)
    for lang in ("ko", "en"):
        expect(again.output(0).get_by_text(t("notebook.run_first", lang))).to_be_visible()
    # saved by this JupyterLab, so trusted: Panel's views are drawn as they were saved (from the Jupyter
    # server). 12 shows its views as ipywidgets, whose state JupyterLab does not save by default: there
    # the notice alone says what to do.
    if name != "12_ipywidgets.ipynb":
        expect(again.page.locator(".jp-OutputArea .bk-btn").first).to_be_visible(timeout=60_000)
    shot(again.page, f"jupyterlab-saved-reopened-{Path(name).stem}")
    assert again_outside == [], f"the saved notebook asked the internet for {again_outside}"
