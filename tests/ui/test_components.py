"""Every component: documented parameters, no hard-coded English, escaped user text, language switch."""

from __future__ import annotations

import html
import re

import panel as pn
import pytest

from raisus_panel import i18n, ui
from raisus_panel.rules import Character, CharacterTeam, Contest, GruntMob, ScriptedDice
from raisus_panel.ui import (
    ActionCheckPanel,
    Actions,
    CharacterSheet,
    ContestTable,
    LiveOdds,
    PastContests,
    RoundLog,
    ScoreChart,
    TeamBuilder,
    WhatNow,
)

from .conftest import click, free_trio_vs_ogre, settle, watcher_count
from .drivers import Screen, roll_button

COMPONENTS = [ActionCheckPanel, CharacterSheet, ContestTable, LiveOdds, PastContests, RoundLog, ScoreChart, TeamBuilder,
              WhatNow]


@pytest.mark.parametrize("cls", [*COMPONENTS, ui.Actions])
def test_every_public_parameter_has_a_doc(cls):
    for name, p in cls.param.objects("existing").items():
        if not name.startswith("_"):
            assert (p.doc or "").strip(), f"{cls.__name__}.{name} has no doc"


@pytest.mark.parametrize("cls", COMPONENTS)
def test_components_are_viewers_with_docstrings(cls):
    assert issubclass(cls, pn.viewable.Viewer)
    assert cls.__doc__ and "Parameters" in cls.__doc__
    assert cls.__module__.startswith("raisus_panel.ui.")


def walk(obj):
    """Every Panel object inside a component's view."""
    if isinstance(obj, pn.viewable.Viewer):
        obj = obj.__panel__()
    yield obj
    for child in getattr(obj, "objects", []) or []:
        yield from walk(child)


def visible_texts(component):
    """Every string a person could see in a component: labels, options, pane text, chart text."""
    texts = []
    for obj in walk(component):
        if obj is getattr(component, "_error", None):
            continue
        if isinstance(obj, pn.widgets.Widget):
            texts.append(obj.name or "")
            for attr in ("placeholder", "label"):
                texts.append(getattr(obj, attr, "") or "")
            options = getattr(obj, "options", None)
            if isinstance(options, dict):
                texts.extend(str(k) for k in options)
        elif isinstance(obj, pn.pane.Bokeh) and obj.object is not None:
            fig = obj.object
            texts.append(fig.title.text or "")
            texts.extend(a.axis_label or "" for a in (*fig.xaxis, *fig.yaxis))
            for legend in fig.legend:
                texts.extend(str(item.label.value) for item in legend.items)
            for tool in fig.tools:
                if isinstance(getattr(tool, "tooltips", None), list):
                    texts.extend(label for label, _ in tool.tooltips)
        elif isinstance(obj, (pn.pane.HTML, pn.pane.Markdown)):
            texts.append(html.unescape(re.sub(r"<[^>]+>", " ", str(obj.object or ""))))
    return [t for t in texts if t]


ALLOWED = {"TN", "GM", "PL", "JSON", "English", "json"}


def english_words(texts):
    words = set()
    for text in texts:
        words |= set(re.findall(r"[A-Za-z]{2,}", text))
    return words - ALLOWED


def korean_table():
    """A contest in full swing with Korean names only: a team, a grunt mob, a finished duel."""
    knight = Character("기사", {"기사": 4})
    viking = Character("바이킹", {"바이킹": 2})
    squire = Character("종자", {"종자": 1})
    mob = GruntMob("해골 쥐 700마리", rating=7)
    team = CharacterTeam([knight, viking, squire])
    contest = Contest("난투", team, mob, dice=ScriptedDice([[1] * 6, [3] * 7, [6] * 9, [1] * 7]))
    actions = Actions.local(contest)
    return actions, (knight, viking, squire, mob, team)


def build_all(actions):
    return [cls(actions=actions) for cls in COMPONENTS]


def test_no_component_shows_hard_coded_english():
    actions, (knight, viking, squire, mob, team) = korean_table()
    components = build_all(actions)
    states = []
    states.append([w for c in components for w in visible_texts(c)])
    actions.act("roll_round")  # lost: volunteer window
    states.append([w for c in components for w in visible_texts(c)])
    actions.act("volunteer", member=viking.uid)
    actions.act("roll_round")
    states.append([w for c in components for w in visible_texts(c)])
    actions.act("end", outcome="해가 졌다", winner=0)
    states.append([w for c in components for w in visible_texts(c)])
    for texts in states:
        assert not english_words(texts), english_words(texts)
    assert any("라운드" in t for t in states[-2])


def test_no_hard_coded_english_literals_in_the_code():
    """Visible strings come from the catalog: no widget label or pane text is an English literal."""
    import ast
    import pathlib

    root = pathlib.Path(ui.__file__).parent
    offenders = []
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg in {"name", "label", "title", "placeholder", "object", "x_axis_label",
                                  "y_axis_label", "legend_label"} and isinstance(kw.value, ast.Constant) \
                            and isinstance(kw.value.value, str) and re.search(r"[A-Za-z]{3,}", kw.value.value):
                        offenders.append(f"{path.name}:{node.lineno} {kw.arg}={kw.value.value!r}")
    assert not offenders


EVIL = "<img src=x onerror=alert(1)>"


def test_user_text_is_escaped_everywhere():
    hero = Character(EVIL, {EVIL: 2})
    helper = Character("Helper", {"Helper": 2}, description=EVIL)
    foe = Character("Foe", {"Foe": 1})
    team = CharacterTeam([hero, helper], leader=hero, name=EVIL)
    contest = Contest(EVIL, team, foe, dice=ScriptedDice([[6, 6, 6], [1]]))
    actions = Actions.local(contest)
    components = build_all(actions) + [CharacterSheet(actions=actions, character=hero)]
    actions.act("roll_round")
    actions.act("decide_fate", character=foe.uid, text=EVIL)
    panes = [o for c in components for o in walk(c) if isinstance(o, (pn.pane.HTML, pn.pane.Markdown))]
    rendered = "".join(str(p.object or "") for p in panes)
    assert "<img" not in rendered
    assert "&lt;img src=x onerror=alert(1)&gt;" in rendered
    for c in components:  # Choices.js (MultiChoice) renders labels as HTML: never used
        assert not any(isinstance(o, pn.widgets.MultiChoice) for o in walk(c))
        assert not any(isinstance(o, pn.Card) and o.title for o in walk(c))


def test_refusals_are_escaped_too():
    hero = Character(EVIL, {"Cook": 3})
    contest = Contest("Bout", hero, Character("King", {"King": 4}), dice=ScriptedDice([]))
    s = Screen(ContestTable(actions=Actions.local(contest)))
    s.cards()[0].tick(s.t("contest.inappropriate"))
    click(roll_button(s))
    shown = s.error_pane.object
    assert s.error and "<img" not in shown and "&lt;img" in shown


def test_switching_language_at_run_time():
    actions, (knight, viking, squire, mob, team) = korean_table()
    table, chart, sheet = ContestTable(actions=actions), ScoreChart(actions=actions), CharacterSheet(lang="ko")
    t_page, s_page = Screen(table), Screen(sheet)

    def forms() -> list[str]:  # both team builders' Form buttons (made when first asked; a side of one hides its)
        return [b.name for b in t_page.controls("button", hidden=True) if b.name in ("Form the team", "팀 짜기")]
    assert t_page.has("button", "되돌리기") and chart.figure.xaxis[0].axis_label == "라운드"
    i18n.settings.lang = "en"  # global switch: components without a language of their own follow
    assert t_page.has("button", "Undo") and chart.figure.xaxis[0].axis_label == "Round"
    t_page.click("Form a team…")
    assert forms() == ["Form the team", "Form the team"]
    assert s_page.has("button", "저장")  # has its own language
    sheet.lang = "en"
    assert s_page.has("button", "Save")
    table.lang = "ko"  # one component switches alone
    assert t_page.has("button", "되돌리기") and forms() == ["팀 짜기", "팀 짜기"]
    assert chart.figure.xaxis[0].axis_label == "Round"


#: Widgets that do not show their ``name``: a list of them needs a header of its own.
UNLABELLED = (pn.widgets.CheckBoxGroup, pn.widgets.RadioBoxGroup)


def test_every_list_of_checkboxes_has_a_header_above_it():
    _, trio, chars = free_trio_vs_ogre()
    setup = build_all(Actions.local(*chars))  # no contest: the setup form lists them all
    playing = build_all(trio)  # the team builders list the free Knight, Viking and Squire
    components = setup + playing
    found = []
    for component in components:
        for parent in walk(component):
            objects = list(getattr(parent, "objects", []) or [])
            for i, obj in enumerate(objects):
                if isinstance(obj, UNLABELLED) and obj.options:
                    found.append(obj.name)
                    header = objects[i - 1] if i else None
                    texts = visible_texts(header) if isinstance(header, (pn.pane.HTML, pn.pane.Markdown)) else []
                    assert isinstance(parent, pn.Column) and header.visible and \
                        [t.strip() for t in texts] == [obj.name], f"{type(component).__name__}: {obj.name!r} has no header"
    assert {"A 편", "B 편", "팀원"} <= set(found)  # the setup form's two sides, the team builders' members


def test_dispose_removes_the_global_language_watcher():
    def count():
        return sum(len(ws) for what in i18n.settings.param.watchers.values() for ws in what.values())
    before = count()
    table = ContestTable()
    assert count() > before
    table.dispose()
    assert count() == before


def test_a_component_nobody_keeps_is_collected_and_unwatches():
    import gc
    import weakref

    actions, _ = korean_table()
    count = watcher_count
    settle()
    before = count(i18n.settings), count(actions.contest)
    ref = weakref.ref(ContestTable(actions=actions))
    gc.collect()
    assert ref() is None
    actions.act("roll_round")  # the dead component's watchers remove themselves when they fire
    i18n.settings.lang = "en"
    assert (count(i18n.settings), count(actions.contest)) == before


def test_components_render_in_a_document():
    """Each component builds its Bokeh models (what a notebook or a served page does), without a server."""
    actions, _ = korean_table()
    for component in build_all(actions):
        model = pn.panel(component).get_root()
        assert model is not None
