"""Checks that every refusal can be shown in every language (shared by the rules, room and UI tests).

A refusal is a ``RuleError`` with an English message, a catalog ``key`` and the ``fields`` the message
is made of (see ``raisus_panel.rules.errors``). Two checks read the source, one watches the tests run:

* :func:`unkeyed_raises` -- every ``raise`` of an error a user can cause names a key;
* :func:`keys_in_source` -- the keys (and ``Phrase`` keys) the code uses, with the fields it passes;
* :func:`english_catalog_agrees` -- an autouse fixture: each keyed error made while a test runs reads
  the same through the English catalog as its own message, and has a Korean text.
"""

from __future__ import annotations

import ast
import pathlib
import string

import pytest

from raisus_panel import i18n
from raisus_panel.rules import RuleError
from raisus_panel.rules.errors import Phrase

PACKAGE = pathlib.Path(__file__).parents[2] / "raisus_panel"

#: Raised for a caller's bug, never for something a person at the table did: no key, no translation.
PROGRAMMING_ERRORS = frozenset({"ValueError", "TypeError", "AssertionError", "NotImplementedError", "KeyError"})


def error_classes() -> set[str]:
    """The names of RuleError and all its subclasses (the room's included; the UI's once imported)."""
    import raisus_panel.room  # noqa: F401 - defines the room's error classes

    names, todo = set(), [RuleError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


def _sources(package: str):
    for path in sorted((PACKAGE / package).rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _has_key(call: ast.Call) -> bool:
    return any(kw.arg == "key" for kw in call.keywords)


def unkeyed_raises(package: str) -> list[str]:
    """``path:line`` of every place in ``raisus_panel/<package>`` that makes a refusal without a key.

    That is: a call of a RuleError class without ``key=`` (raised or not), and a ``raise`` of any
    other call, unless it raises a programming error (or the package's own subclass of one) or calls a
    function of the package (a helper that builds a keyed refusal, itself checked here).
    """
    classes = error_classes()
    sources = list(_sources(package))
    helpers = {node.name for _, tree in sources for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    # the package's own programming errors (a ValueError subclass: a signal between its parts, such as
    # a table view's stale delta, never a refusal a person reads)
    signals = {node.name for _, tree in sources for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
               and any(_name(base) in PROGRAMMING_ERRORS for base in node.bases)}
    bad = []
    for path, tree in sources:
        where = f"{path.relative_to(PACKAGE.parent)}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in classes and not _has_key(node):
                bad.append(f"{where}:{node.lineno}")
            elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = _name(node.exc.func)
                if name not in PROGRAMMING_ERRORS | signals | classes | helpers and not _has_key(node.exc):
                    bad.append(f"{where}:{node.lineno}")
    return sorted(set(bad))


def keys_in_source(package: str) -> dict[str, set[frozenset[str]]]:
    """Each catalog key named in ``raisus_panel/<package>`` -> the sets of field names passed with it.

    Keys come from ``key="..."`` arguments and from ``Phrase(text, "key", **fields)``.
    """
    found: dict[str, set[frozenset[str]]] = {}
    for _, tree in _sources(package):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            key, fields = None, frozenset(kw.arg for kw in node.keywords if kw.arg not in (None, "key"))
            literal = next((kw.value for kw in node.keywords if kw.arg == "key"), None)
            if literal is None and _name(node.func) == "Phrase" and len(node.args) >= 2:
                literal = node.args[1]
            if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                key = literal.value
            if key is not None:
                found.setdefault(key, set()).add(fields)
    return found


def catalog_fields(text: str) -> frozenset[str]:
    """The ``{fields}`` of a catalog text."""
    return frozenset(f for _, f, _, _ in string.Formatter().parse(text) if f)


def check_keys_in_catalogs(package: str) -> None:
    """Assert every key ``package`` uses is in both catalogs, with exactly the fields the code passes."""
    used = keys_in_source(package)
    assert used, f"no keyed refusals found in raisus_panel/{package}"
    for lang in i18n.LANGUAGES:
        missing = sorted(k for k in used if k not in i18n.catalog(lang))
        assert not missing, f"keys missing from {lang}.json: {missing}"
    wrong = {k: (sorted(map(sorted, fields)), sorted(catalog_fields(i18n.catalog("en")[k])))
             for k, fields in used.items() if fields != {catalog_fields(i18n.catalog("en")[k])}}
    assert not wrong, f"fields passed in code vs. fields in the catalog: {wrong}"


def _disagreement(message) -> str | None:
    """Why a keyed refusal (or Phrase) does not read the same in en.json as in the code, or None."""
    english, korean = i18n.translate(message, "en"), i18n.translate(message, "ko")
    if english != str(message):
        return f"{message.key}: en.json gives {english!r}, the code {str(message)!r}"
    if korean == english:
        return f"{message.key}: no Korean text (or its fields do not fit it)"
    return None


@pytest.fixture(autouse=True)
def english_catalog_agrees(monkeypatch):
    """Each keyed refusal made during the test reads the same in en.json as in the code, and has Korean.

    Checked as each one is made (keeping no reference to it); yields the list of disagreements, which
    a test that makes broken refusals on purpose clears.
    """
    wrong: list[str] = []
    error_init, phrase_init = RuleError.__init__, Phrase.__init__

    def recording_error(self, message="", *, key=None, **fields):
        error_init(self, message, key=key, **fields)
        problem = key and _disagreement(self)
        if problem:
            wrong.append(problem)

    def recording_phrase(self, text, key, **fields):
        phrase_init(self, text, key, **fields)
        problem = _disagreement(self)
        if problem:
            wrong.append(problem)

    monkeypatch.setattr(RuleError, "__init__", recording_error)
    monkeypatch.setattr(Phrase, "__init__", recording_phrase)
    yield wrong
    assert wrong == []
