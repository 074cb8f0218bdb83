"""The rules' public API explains itself: every param parameter has ``doc=``, every public method of a
contest a numpydoc docstring, and each module of the contest says in its docstring what it is for."""

import importlib
import inspect

import param
import pytest

import raisus_panel.rules as rules
from raisus_panel.rules import Contest


def parameterized_classes():
    return [obj for obj in vars(rules).values() if inspect.isclass(obj) and issubclass(obj, param.Parameterized)]


@pytest.mark.parametrize("cls", parameterized_classes(), ids=lambda c: c.__name__)
def test_every_parameter_has_a_doc(cls):
    undocumented = [name for name, p in cls.param.objects("existing").items() if not (p.doc or "").strip()]
    assert undocumented == []


def public_methods():
    return sorted(name for name, obj in inspect.getmembers(Contest)
                  if not name.startswith("_") and callable(obj) and name not in dir(param.Parameterized))


@pytest.mark.parametrize("name", public_methods())
def test_every_public_contest_method_has_a_numpydoc_docstring(name):
    method = getattr(Contest, name)
    doc = inspect.getdoc(method) or ""
    assert doc, f"Contest.{name} has no docstring"
    takes = [p for p in inspect.signature(method).parameters.values()
             if p.name not in ("self", "cls") and p.kind is not p.VAR_KEYWORD and p.kind is not p.VAR_POSITIONAL]
    if len(takes) > 1 or (takes and name in Contest.COMMANDS):
        assert "Parameters\n----------" in doc, f"Contest.{name} does not document its parameters"
    if name in Contest.COMMANDS:
        assert "Returns\n-------" in doc and "Raises\n------" in doc, f"Contest.{name}: returns and raises"


@pytest.mark.parametrize("module", ["contest", "contest_state", "contest_queries", "contest_log", "dry_run",
                                    "save", "events"])
def test_each_contest_module_says_what_it_holds(module):
    doc = importlib.import_module(f"raisus_panel.rules.{module}").__doc__ or ""
    assert len(doc.split()) > 30


def test_the_commands_allowed_after_the_end_are_commands():
    assert Contest.AFTER_END <= set(Contest.COMMANDS)
    assert all(callable(getattr(Contest, name)) for name in Contest.COMMANDS)
