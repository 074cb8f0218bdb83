"""raisus_panel.upstream: one gate for every hook into Panel's, Bokeh's (and their comms') insides.

The package's bounds allow exactly the versions the hooks were written for, the installed versions
are those, every hook the module lists has its test, every hook the package has is listed, and on
another version the gate is closed.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
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
              "jupyter_bokeh": ["3.9.9", "5.0.0"], "pyviz_comms": ["2.9.9", "4.0.0"],
              "ipykernel": ["6.29.5", "8.0.0"], "comm": ["0.1.4", "0.3.0"]}


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


@pytest.mark.parametrize("package", sorted(upstream.TESTED))
def test_the_installed_versions_are_the_tested_ones(package):
    if package not in ("panel", "bokeh", "pyviz_comms") and upstream.version(package) is None:
        pytest.skip(f"{package} is for notebooks only (the notebook extra)")
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


# -- every hook is in the table ---------------------------------------------------------------------
#: Private names Panel documents as what a custom component defines (its ES module and style sheets,
#: Panel's "Build Components" pages on ``JSComponent``), not hooks into its insides.
EXTENSION_POINTS = {"_esm", "_stylesheets"}


def _listed() -> set[str]:
    """The first column of the module's table: where each hook is (module.name below raisus_panel)."""
    lines = upstream.__doc__.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("====")]
    return {line.split()[0] for line in lines[rules[1] + 1:rules[2]] if line[:1].strip()}


def _theirs(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in upstream.TESTED


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in EXTENSION_POINTS


class _Scan(ast.NodeVisitor):
    """One module's hooks: attributes set on, and private names read from, what it imports from upstream."""

    def __init__(self, module: str, ours: set[str]):
        self.scope, self.upstream_names, self.ours = [module], [set()], ours
        self.sites: dict[str, list[str]] = {}

    def _site(self, what: str) -> None:
        self.sites.setdefault(".".join(self.scope), []).append(what)

    def _from_upstream(self, node) -> bool:
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and any(node.id in names for names in self.upstream_names)

    def _enter(self, node) -> None:
        self.scope.append(node.name)
        self.upstream_names.append(set())
        self.generic_visit(node)
        self.upstream_names.pop()
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _enter

    def visit_Import(self, node) -> None:
        self.upstream_names[-1].update((a.asname or a.name).split(".")[0] for a in node.names if _theirs(a.name))

    def visit_ImportFrom(self, node) -> None:
        if _theirs(node.module):
            self.upstream_names[-1].update(a.asname or a.name for a in node.names)
            for a in node.names:
                if _private(a.name):
                    self._site(f"imports {a.name}")

    def visit_Assign(self, node) -> None:
        self.generic_visit(node)
        for target in node.targets:
            if isinstance(target, ast.Attribute) and self._from_upstream(target.value):  # (a) a monkeypatch
                self._site(f"sets {ast.unparse(target)}")
            elif isinstance(target, ast.Name) and self._from_upstream(node.value):  # an alias of theirs
                self.upstream_names[-1].add(target.id)

    def visit_Attribute(self, node) -> None:
        # (c) their private, read from what came from them, or a private raisus_panel never defines
        if isinstance(node.ctx, ast.Load) and _private(node.attr) and (
                self._from_upstream(node.value) or node.attr not in self.ours):
            self._site(f"reads {ast.unparse(node)}")
        self.generic_visit(node)


def _defined(tree) -> set[str]:
    """Every name a module defines or binds (functions, classes, attributes it sets, arguments)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _class_body_names(node: ast.ClassDef) -> set[str]:
    names = set()
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            names.update(t.id for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                         if isinstance(t, ast.Name))
    return names


@functools.cache
def _source(cls: type) -> str:
    return inspect.getsource(cls)


def _overrides(cls: type, name: str) -> bool:
    """Whether an upstream class ``cls`` inherits from has ``name``: as an attribute, or as one it
    sets on ``self`` (an instance attribute, as pyviz_comms' ``Comm._comm``)."""
    for base in cls.__mro__:
        if not _theirs(base.__module__):
            continue
        if name in vars(base) or re.search(rf"self\.{name}\b", _source(base)):
            return True
    return False


@functools.cache
def hook_sites() -> dict[str, list[str]]:
    """Every place in raisus_panel that hooks into upstream's insides: module.name -> what it does there.

    (a) an attribute set on something imported from an upstream package (a monkeypatch), (b) a private
    name defined in a class that has it from an upstream base (an override of a private method or
    attribute; mixins count where they are mixed in), (c) an upstream private imported or read.
    """
    trees = {}
    for path in sorted((ROOT / "raisus_panel").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT / "raisus_panel").with_suffix("").parts).removesuffix(".__init__")
        trees[module] = ast.parse(path.read_text(encoding="utf-8"))
    ours = set().union(*map(_defined, trees.values()))
    sites: dict[str, list[str]] = {}
    bodies: dict[type, tuple[str, set[str]]] = {}
    for module, tree in trees.items():
        scan = _Scan(module, ours)
        scan.visit(tree)
        sites.update(scan.sites)  # one module's names are its own
        loaded = importlib.import_module(f"raisus_panel.{module}".rstrip("."))
        for node in tree.body:
            cls = getattr(loaded, node.name, None) if isinstance(node, ast.ClassDef) else None
            if isinstance(cls, type):
                bodies[cls] = (f"{module}.{node.name}", _class_body_names(node))
    for cls in bodies:
        for mixin in cls.__mro__:
            if mixin in bodies:
                where, names = bodies[mixin]
                for name in sorted(n for n in names if _private(n) and _overrides(cls, n)):
                    if f"overrides {name}" not in sites.setdefault(where, []):
                        sites[where].append(f"overrides {name}")
    return sites


def test_the_scan_finds_the_known_kinds_of_hook():
    sites = hook_sites()
    assert "sets message.serialize_json" in sites["dashboard.wire.send_utf8"]  # (a)
    assert "overrides _rename" in sites["ui._base.Button"]  # (b)
    assert sites["ui._base._SaysWhy"] == ["overrides _get_model", "overrides _process_param_change"]  # a mixin
    assert "reads pn.widgets.Button._rename" in sites["ui._base.Button"]  # (c)
    assert sites["notebook._keep_early_messages.comm_msg"] == ["reads comm._msg_callback"]  # (c)


def test_every_hook_is_in_the_table():
    """Add a row (where, the upstream behaviour, its test) to raisus_panel/upstream.py's table, and a
    gate if it can break without a word: see that module's docstring."""
    listed = _listed()
    missing = {site: what for site, what in hook_sites().items()
               if not any(site == name or site.startswith(name + ".") for name in listed)}
    assert missing == {}
