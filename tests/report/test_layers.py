"""The report layer sits on the components and under the dashboard; its docstring examples run."""

import subprocess
import sys
from pathlib import Path

import raisus_panel.report


def test_reports_do_not_import_the_dashboard():
    code = ("import sys, raisus_panel.report; "
            "print(','.join(sorted(m for m in sys.modules if m.startswith('raisus_panel.dashboard'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_examples_in_the_docstrings_run():
    package = Path(raisus_panel.report.__file__).parent
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                          str(package)], capture_output=True, text=True, cwd=package.parents[1])
    assert out.returncode == 0, out.stdout[-2000:]


def test_the_dashboard_and_reports_use_the_components_public_names():
    """Only ``raisus_panel.ui`` and ``ui.kit`` are theirs to import: the ``ui._*`` modules may change."""
    import ast

    package = Path(raisus_panel.report.__file__).parents[1]
    private = []
    for path in sorted([*package.glob("dashboard/*.py"), *package.glob("report/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module + "." + a.name for a in node.names]
                if any(part.startswith("_") for n in names for part in n.split(".")[2:]
                       if n.startswith("raisus_panel.ui")):
                    private.append(f"{path.relative_to(package)}: from {node.module} import ...")
    assert private == []
