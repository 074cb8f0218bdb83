"""raisus_panel.upstream: one gate for every hook into Panel's, Bokeh's and jupyter_bokeh's insides.

The package's bounds allow exactly the versions the hooks were written for, the installed versions
are those, every hook the module lists has its test, and on another version the gate is closed.
"""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path

import bokeh
import pytest
from packaging.specifiers import SpecifierSet

from raisus_panel import upstream

ROOT = Path(__file__).resolve().parents[1]

#: The versions next to each tested one, which the bounds must not allow.
NEIGHBOURS = {"panel": ["1.8.9", "1.10.0", "2.0.0"], "bokeh": ["3.8.9", "3.10.0", "4.0.0"],
              "jupyter_bokeh": ["3.9.9", "5.0.0"]}


def bound(package: str) -> SpecifierSet:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    deps = project["dependencies"] + [d for extra in project["optional-dependencies"].values() for d in extra]
    specs = {d for d in deps if re.match(rf"{package}\s*[<>=]", d)}
    assert len(specs) == 1, f"{package} must have one bound in pyproject.toml, not {specs}"
    return SpecifierSet(specs.pop().removeprefix(package))


@pytest.mark.parametrize("package", sorted(upstream.TESTED))
def test_the_bounds_allow_exactly_the_tested_versions(package):
    spec = bound(package)
    prefix = upstream.TESTED[package]
    assert prefix + "0" in spec, f"pyproject.toml does not allow {package} {prefix}0, the version tested"
    assert [v for v in NEIGHBOURS[package] if v in spec] == [], f"pyproject.toml allows an untested {package}"


@pytest.mark.parametrize("package", ["panel", "bokeh"])
def test_the_installed_versions_are_the_tested_ones(package):
    assert upstream.tested(package), (package, upstream.version(package))


def test_every_hook_listed_has_its_test():
    named = re.findall(r"tests/\S+\.py", upstream.__doc__)
    assert len(named) >= 10
    assert [n for n in named if not (ROOT / n).exists()] == []


def test_on_another_version_the_gate_closes_and_says_so_once(monkeypatch, caplog):
    monkeypatch.setattr(bokeh, "__version__", "3.10.0")
    assert not upstream.tested("bokeh")
    monkeypatch.setattr(upstream, "_warned", set())
    log = logging.getLogger("raisus_panel.test_upstream")
    with caplog.at_level(logging.WARNING, logger=log.name):
        upstream.warn_untested("bokeh", "a hook", log)
        upstream.warn_untested("bokeh", "a hook", log)
    assert [r.getMessage() for r in caplog.records] == [
        "a hook was written for bokeh 3.9.x, not 3.10.0: it stays off (install the versions pyproject.toml names)"]


def test_the_keyboard_shim_stays_off_on_another_bokeh(monkeypatch):
    from bokeh.document import Document

    from raisus_panel.dashboard import keyboard

    class Served(Document):
        session_context = object()  # as a served session's document has

    monkeypatch.setattr(bokeh, "__version__", "4.0.0")
    doc = Served()
    keyboard.keyboard_tabs(doc)
    assert not doc.callbacks._js_event_callbacks
    monkeypatch.undo()
    keyboard.keyboard_tabs(doc)
    assert doc.callbacks._js_event_callbacks
