"""Every tutorial notebook, as a learner runs it: JupyterLab in Chromium, Run All, then clicking.

After Run All no cell shows an error and the console has no BokehJS/Panel error; every output of
the notebook shows exactly what the kernel holds (:func:`views.differences`). In the notebooks whose
tables can be played, a roll and an undo are clicked in the page, and after each the page and the
kernel are compared again. Offline: the test browser reaches nothing but the local server.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from raisus_panel.i18n import t

from .conftest import MAX_SAVED_BYTES, Lab, shot
from .views import PAGE_JS, PROPS, differences

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb"))

# a kernel, Run All and a few round trips per notebook on a busy 2-core machine
pytestmark = pytest.mark.timeout(600)

#: A roll button's label in either language ("Roll round 3", "3라운드 굴리기"; also while a team may volunteer).
ROLL = re.compile("|".join(re.escape(t(key, lang, n=999)).replace("999", r"\d+") for lang in ("ko", "en")
                           for key in ("contest.roll", "contest.roll_no_volunteer")))
UNDO = re.compile("|".join(re.escape(t("contest.undo", lang)) for lang in ("ko", "en")))


def agree(nb: Lab, step: str) -> None:
    """No error anywhere, and every output in the page shows what the kernel holds."""
    nb.settle()
    assert nb.errors() == [], f"{nb.name}, {step}: an error was printed into the notebook"
    assert nb.bokeh_errors() == [], f"{nb.name}, {step}: errors in the browser console"
    kernel = nb.kernel_json("_views.kernel_views()")
    page = nb.page.evaluate(PAGE_JS, list(PROPS))
    diffs = differences(kernel, page)
    assert not diffs, f"{nb.name}, {step}: the page shows something else than the kernel:\n" + "\n".join(diffs[:20])


def click_first_enabled(nb: Lab, name: re.Pattern) -> bool:
    """Click the first enabled button named ``name`` in the notebook; False if there is none."""
    buttons = nb.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").get_by_role("button", name=name)
    for i in range(buttons.count()):
        button = buttons.nth(i)
        if button.is_visible() and button.is_enabled():
            button.scroll_into_view_if_needed()
            button.click()
            return True
    return False


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[Path(p).stem for p in NOTEBOOKS])
def test_a_tutorial_runs_clean_and_every_view_follows_its_kernel(lab, path):
    nb = lab(Path(path).name)
    nb.run_all()
    nb.execute("import tests.jupyterlab.views as _views")
    agree(nb, "after Run All")
    if click_first_enabled(nb, ROLL):
        agree(nb, "after a roll")
        if click_first_enabled(nb, UNDO):
            agree(nb, "after an undo")
    shot(nb.page, f"jupyterlab-tutorial-{Path(path).stem}")
    # saved now, it stays small: its views' outputs, not BokehJS and Panel (6 MB each before; issue 22)
    size = nb.save()
    print(f"{Path(path).name} saved after Run All and clicks: {size} bytes")
    assert size < MAX_SAVED_BYTES, f"{Path(path).name} saved is {size} bytes"
