"""How big each tutorial is when saved after Run All: prints a table and exits 0.

Every notebook in notebooks/ is run top to bottom with nbclient in a scratch folder and written with
its outputs, twice: as a kernel started by a Jupyter server (JupyterLab: BokehJS and Panel load from
Panel's server extension) and as one started without (VS Code, nbclient: everything inlined, as all
notebooks did before). JupyterLab sees the same outputs; tests/jupyterlab/test_learner_fixes.py saves
notebooks from JupyterLab itself and checks they stay under 1 MB.

    python benchmarks/notebook_sizes.py
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def saved_size(path: Path, jupyter: bool) -> tuple[int, int]:
    """The bytes of ``path`` saved after Run All, and of its first cell alone."""
    nb = nbformat.read(path, 4)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("JPY_SESSION_NAME", None)
    if jupyter:
        env["JPY_SESSION_NAME"] = path.name  # what a Jupyter server sets for the kernels it starts
    with tempfile.TemporaryDirectory() as tmp:
        NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": tmp}}).execute(env=env)
    first = nbformat.v4.new_notebook(cells=[nb.cells[0]])
    return len(nbformat.writes(nb).encode()), len(nbformat.writes(first).encode())


def main() -> None:
    rows, totals = [], [0, 0]
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        inlined, _ = saved_size(path, jupyter=False)
        served, first = saved_size(path, jupyter=True)
        totals[0] += inlined
        totals[1] += served
        rows.append((path.name, inlined, served, first))
        print(f"{path.name:34s} inlined {inlined / 1e6:6.2f} MB   JupyterLab {served / 1e6:5.2f} MB "
              f"(first cell {first / 1e3:4.0f} kB)", flush=True)
    print(f"{'all ' + str(len(rows)):34s} inlined {totals[0] / 1e6:6.2f} MB   JupyterLab {totals[1] / 1e6:5.2f} MB")


if __name__ == "__main__":
    main()
