"""Every text a report shows is in both catalogs, and each report text the catalogs hold is used."""

from __future__ import annotations

import ast
import pathlib
import re

from raisus_panel.i18n import catalog

PACKAGE = pathlib.Path(__file__).parents[2] / "raisus_panel"
KEY = re.compile(r"[a-z_]+(?:\.[a-z_0-9]+)+")


def named_keys(folder: pathlib.Path) -> set[str]:
    keys = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.fullmatch(node.value):
                keys.add(node.value)
    return keys


def test_every_key_the_reports_name_is_in_both_catalogs():
    used = {k for k in named_keys(PACKAGE / "report") if not k.endswith((".css", ".json", ".html"))
            and k.split(".")[0] not in {"raisus_panel", "bokeh", "panel"}}
    assert used and not used - set(catalog("en")) and not used - set(catalog("ko"))


def test_every_report_text_is_used():
    named = set().union(*(named_keys(PACKAGE / folder) for folder in ("report", "dashboard", "ui")))
    report_texts = {k for k in catalog("en") if k.startswith(("report.", "error.report."))}
    assert sorted(report_texts - named) == []
