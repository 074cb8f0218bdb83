"""Every notebook runs from top to bottom; a failing cell fails the test.

Notebooks are committed without outputs (a test checks that too) and executed here with a real
Jupyter kernel through nbclient, in a scratch directory, so a notebook that writes a file writes it
there. The kernel finds ``raisus_panel`` through ``PYTHONPATH`` even when the project is not
installed into the environment.

After the last cell, the notebook's own kernel checks what a learner finds after Run All
(``your_turn.py``): the exercises are left to play, and their seeds make the rule come up.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from .your_turn import CHECKS, NO_TABLE

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

#: A notebook must run well within this on a 2-core machine (kernel start included).
MAX_SECONDS = 60

HANGUL = re.compile(r"[\uac00-\ud7a3]")

pytestmark = pytest.mark.notebook


def _read(path):
    return nbformat.read(path, as_version=4)


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 13, "the tutorials are missing"


def test_every_table_is_checked_after_run_all():
    stems = {p.stem for p in NOTEBOOKS}
    assert stems - NO_TABLE <= set(CHECKS), f"add a check to your_turn.py for {sorted(stems - NO_TABLE - set(CHECKS))}"
    assert set(CHECKS) <= stems, f"your_turn.py checks notebooks that do not exist: {sorted(set(CHECKS) - stems)}"


def test_the_quickstarts_next_list_names_every_other_tutorial():
    """Issue 22: 00's "Next" list left out 13, then 15 (added later): a learner who starts at 00 finds
    every tutorial from there."""
    nb = _read(ROOT / "notebooks" / "00_quickstart.ipynb")
    listed = next(c.source for c in nb.cells if c.cell_type == "markdown" and "## 다음 / Next" in c.source)
    missing = [p.stem for p in NOTEBOOKS if p.stem != "00_quickstart"
               and not re.search(rf"(^|[\s·-]){p.stem[:2]} ", listed)]
    assert not missing, f"00's Next list does not name {missing}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_tutorial_sends_the_learner_to_hover_for_a_greyed_buttons_reason(path):
    """Issue 22: the reason a button is locked is written under it now (a phone has no hover); a text
    that says "hover it to see why" sends the learner looking for a tooltip that is not the way."""
    nb = _read(path)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                assert not re.search(r"hover (it|the button)|마우스를 올리면 이유", line), f"{path.name}: {line.strip()}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path):
    nb = _read(path)
    assert all(not c.get("outputs") and c.get("execution_count") is None
               for c in nb.cells if c.cell_type == "code"), f"clear the outputs of {path.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_follows_the_tutorial_layout(path):
    nb = _read(path)
    nbformat.validate(nb)
    first = nb.cells[0]
    assert first.cell_type == "code" and "import panel as pn" in first.source \
        and "raisus_panel.extension(" in first.source, \
        "the first cell loads Panel with raisus_panel.extension() (offline, outputs in step with the kernel)"
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "settings.lang" in code, "a cell sets the widgets' language"
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert HANGUL.search(text) and re.search(r"\b(the|and|of)\b", text), "narrative in Korean and English"
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_no_machine_paths(path):
    raw = path.read_text(encoding="utf-8")
    for needle in (str(ROOT), "/tmp/", "/home/", "/Users/", "/work/", "C:\\\\"):
        assert needle not in raw, f"{path.name} mentions the machine path {needle!r}"


def _kernel_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


#: Appended to every notebook run: the kernel must be this environment's Python, using this tree.
_WHERE = "import sys, raisus_panel; print(repr((sys.prefix, raisus_panel.__file__)))"


#: What a notebook's text teaches that only its printed lines show (issue 22, item 8): each line must be
#: printed after Run All, or the lesson says something its cells no longer do.
PRINTED = {
    "06_character_teams": [
        # section 6: a team is inappropriate only if every member is
        "요리사만 부적합 / only the Cook inappropriate: False",
        "이겨도 1점 / the win deals 1: 마왕: 마왕 (3/4)",
        "모두 부적합 / all inappropriate: True · 승인 필요 / needs approval: True",
        "이기면 3점 / the win deals 3: 마왕: 마왕 (1/4)",
        # section 7: team_loss="leader_assigns" -- the leader hands the hit on, the usual damage, no revenge
        "리더가 맞음 / the leader took it: 기사: 기사 (3/4)",
        "바이킹에게 넘김 / handed to the Viking: 기사: 기사 (4) · 바이킹: 바이킹 (1/2) · 복수 / revenge: False",
    ],
}


def _printed(nb) -> str:
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                   if o.get("output_type") == "stream")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    nb = _read(path)
    if path.stem in CHECKS:
        nb.cells.append(nbformat.v4.new_code_cell(
            f"from tests.notebooks.your_turn import check\ncheck({path.stem!r}, globals())"))
    nb.cells.append(nbformat.v4.new_code_cell(_WHERE))
    env_before = os.environ.get("RAISUS_LANG")
    client = NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    start = time.perf_counter()
    client.execute(env=_kernel_env())
    took = time.perf_counter() - start
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, "\n".join(f"{e['ename']}: {e['evalue']}" for e in errors)
    if path.stem in CHECKS:
        assert f"checked {path.stem}" in str(nb.cells[-2].outputs), "the Run All check did not run"
    prefix, package = ast.literal_eval(nb.cells[-1].outputs[0]["text"])
    assert Path(prefix).resolve() == Path(sys.prefix).resolve(), "the kernel is not this environment's"
    assert Path(package).resolve().is_relative_to(ROOT), "the kernel imported raisus_panel from elsewhere"
    assert os.environ.get("RAISUS_LANG") == env_before
    assert took < MAX_SECONDS, f"{path.name} took {took:.0f} s; keep tutorials quick"
    printed = _printed(nb)
    missing = [line for line in PRINTED.get(path.stem, []) if line not in printed]
    assert not missing, f"{path.name} no longer prints what its text teaches: {missing}"
