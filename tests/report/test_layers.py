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
