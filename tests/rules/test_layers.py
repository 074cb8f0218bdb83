"""The rules layer stays free of Panel and Bokeh: it must import fast and run anywhere."""

import subprocess
import sys


def test_rules_import_neither_panel_nor_bokeh():
    code = ("import sys, raisus_panel.rules, raisus_panel.rules.odds; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'panel', 'bokeh', 'numpy'}); "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
