"""The room layer is the server-side truth: no Panel, no Bokeh, so it runs and tests without a browser."""

import subprocess
import sys
from pathlib import Path

import raisus_panel.room


def test_room_imports_neither_panel_nor_bokeh():
    code = ("import sys, raisus_panel.room; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'panel', 'bokeh'}); "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_examples_in_the_docstrings_run():
    package = Path(raisus_panel.room.__file__).parent
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                          str(package)], capture_output=True, text=True, cwd=package.parents[1])
    assert out.returncode == 0, out.stdout[-2000:]
