"""The "your turn" part of 15 (the odds advisor), played in JupyterLab in Chromium the way its text
says, in Korean and in English (issue 22): after Run All the learner EDITS code cells in the page
(click into the cell's editor, select all, type the changed code) and runs them again (Shift+Enter).

- section 2 with the Knight lowered to 3: the table is printed again, and there are Demon Kings the
  inappropriate Cook does better against (6, 7 and 8), as the kernel's ``advise`` says;
- section 3's profile line changed to ``RulesProfile(team_loss="leader_assigns")``: a "the leader hands the
  hit on" choice appears, labelled in the learner's language, next to volunteering;
- section 3 with ``RulesProfile(team_dice="member_sixes")``: the values are exact fractions.

Every printed value is compared with the kernel's, and every view agrees with the kernel
(``test_tutorials.agree``).
"""

from __future__ import annotations

import re

import pytest

from raisus_panel.i18n import t

from .conftest import TIMEOUT_MS, Lab
from .test_tutorials import agree
from .test_your_turn import LANGS, cell_of, make_english_copies, run, snap

STEM = "15_odds_advisor"
STEMS = [STEM]
NOTEBOOKS = [f"notebooks/{stem}.ipynb" for stem in STEMS]

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module", autouse=True)
def english_copies_15(lab_server):
    make_english_copies(lab_server.root, STEMS)


# -- helpers ------------------------------------------------------------------------------------------
_SOURCE_JS = """(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].model.sharedModel.getSource()"""

_PROMPT_JS = """([i, before]) => {
  const c = document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell')[i];
  const p = c && c.querySelector('.jp-InputArea-prompt');
  const s = p ? p.textContent.trim() : '';
  return /^\\[\\d+\\]:$/.test(s) && s !== before;
}"""


def source_of(nb: Lab, index: int) -> str:
    """The source of cell ``index`` as the notebook in the page holds it."""
    return nb.page.evaluate(_SOURCE_JS, index)


def edit_and_run(nb: Lab, index: int, old: str, new: str) -> str:
    """As a learner: click into cell ``index``'s editor, select all, type its source with ``old``
    changed to ``new``, and run the cell with Shift+Enter; wait until it ran. Returns the new source."""
    source = source_of(nb, index)
    assert old in source, f"cell {index} has no {old!r}: {source!r}"
    changed = source.replace(old, new)
    prompt = nb.cell(index).locator(".jp-InputArea-prompt").first.inner_text().strip()
    editor = nb.cell(index).locator(".cm-content").first
    editor.scroll_into_view_if_needed()
    editor.click()
    nb.page.keyboard.press("Control+a")
    # typed as one piece (as pasted): key by key, the editor's auto-indent would add to the indents
    nb.page.keyboard.insert_text(changed)
    assert source_of(nb, index) == changed, "the editor holds what was typed"
    nb.page.keyboard.press("Shift+Enter")
    nb.page.wait_for_function(_PROMPT_JS, arg=[index, prompt], timeout=2 * TIMEOUT_MS)
    nb.wait_idle()
    nb.settle()
    return changed


#: The texts of elements (``textContent``: a cell scrolled out of view is not laid out, so has no ``innerText``).
_TEXTS_JS = "els => els.map(e => e.textContent)"


def cell_lines(nb: Lab, index: int) -> list[str]:
    """What cell ``index`` printed (stdout), line by line."""
    return [line for out in nb.output(index).locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stdout"]').evaluate_all(_TEXTS_JS)
        for line in out.splitlines() if line.strip()]


def cell_errors(nb: Lab, index: int) -> list[str]:
    """The tracebacks and stderr that cell ``index`` shows."""
    return nb.output(index).locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]').evaluate_all(_TEXTS_JS)


def percent(x: float) -> str:
    return f"{x:.1%}"


#: Section 3's choices per Ogre, computed in the kernel independently of the cell (same set-up).
_TEAM_ADVICE = """[(ogre_score, [(c.key, _tr(c.label, **c.field_map), float(c.as_is), float(c.best),
                  type(c.as_is).__name__, type(c.best).__name__) for c in a.choices], a.best_key)
 for ogre_score, a in ((s, _advise_team(s)) for s in (4, 6, 8))]"""


def define_team_advice(nb: Lab, profile: str, dice: str) -> None:
    nb.execute(f"""
from raisus_panel.i18n import t as _tr
from raisus_panel.rules import Character as _C, CharacterTeam as _T, Contest as _K, ScriptedDice as _D, \\
    RulesProfile as _P, advise as _adv

def _advise_team(ogre_score):
    knight, viking, squire = _C("Knight", {{"Knight": 4}}), _C("Viking", {{"Viking": 2}}), _C("Squire", {{"Squire": 1}})
    heroes = _T([(knight, "Knight"), (viking, "Viking"), (squire, "Squire")])
    ogre = _C("Ogre", {{"Ogre": ogre_score}})
    fight = _K("Ogre fight", [heroes], ogre, profile=_P({profile}), dice=_D({dice}))
    fight.roll_round()
    return _adv(fight, heroes)
""")


def printed_choices(lines: list[str]) -> dict[int, list[tuple[str, str, str, bool]]]:
    """Section 3's printout: per Ogre, (label, as is, best, starred) of each line."""
    out: dict[int, list] = {}
    ogre = None
    for line in lines:
        head = re.match(r"^오거 / Ogre (\d+):$", line.strip())
        if head:
            ogre = int(head.group(1))
            out[ogre] = []
            continue
        row = re.match(r"^\s+(.+?)\s+([\d.]+%) /\s+([\d.]+%)(\s+← 최선 / best)?$", line)
        assert row and ogre is not None, f"an unexpected line: {line!r}"
        out[ogre].append((row.group(1), row.group(2), row.group(3), bool(row.group(4))))
    return out


def expected_lines(advice, keep) -> dict[int, list[tuple[str, str, str, bool]]]:
    return {ogre: [(label, percent(as_is), percent(best), key == best_key)
                   for key, label, as_is, best, *_ in choices if keep(key)]
            for ogre, choices, best_key in advice}


# -- the tests ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_15_with_the_knight_at_3_the_cook_does_better_against_some_demon_kings(lab, lang):
    nb = run(lab, STEM, lang)
    said = nb.cell(cell_of(STEM, "## 직접 해 보기")).inner_text()
    assert "기사의 점수를 3으로" in said and "lower the Knight to 3" in said
    bout = cell_of(STEM, "for king_score in range(1, 9):")
    before = cell_lines(nb, bout)[1:]
    assert len(before) == 8 and all(line.endswith("→ 기사 / Knight") for line in before), \
        "with the Knight at 4 the Cook is never better"

    edit_and_run(nb, bout, '{"Knight": 4, "Cook": 2}', '{"Knight": 3, "Cook": 2}')
    assert cell_errors(nb, bout) == []
    nb.execute("""
from raisus_panel.rules import Character as _C, Contest as _K, ScriptedDice as _D, advise as _adv

def _rate(king_score):
    hero, king = _C("Hero", {"Knight": 3, "Cook": 2}), _C("Demon King", {"Demon King": king_score})
    a = _adv(_K("bout", hero, king, dice=_D()), hero)
    return [king_score, float(a.choice("cliche:Knight").as_is), float(a.choice("cliche:Cook:inappropriate").as_is)]
""")
    kernel = nb.kernel_json("[_rate(k) for k in range(1, 9)]")
    assert nb.kernel_json("[(k, float(a), float(b)) for k, a, b in rows]") == kernel, \
        "the cell's rows are the advisor's, for a Knight of 3"
    lines = cell_lines(nb, bout)
    assert lines[0] == "마왕 / Demon King · 기사 / Knight · 부적합 요리사 / inappropriate Cook"
    want = [f"{k:>2} {100 * knight:9.3g}% {100 * cook:9.3g}%   → {'요리사 / Cook' if cook > knight else '기사 / Knight'}"
            for k, knight, cook in kernel]
    assert lines[1:] == want
    cook_better = [k for k, knight, cook in kernel if cook > knight]
    assert cook_better == [6, 7, 8], "the Cook does better against the strongest Demon Kings"
    assert [int(line.split()[0]) for line in lines[1:] if line.endswith("→ 요리사 / Cook")] == cook_better, \
        "the page says so"
    snap(nb, bout, f"15-knight-3-{lang}")
    agree(nb, "after lowering the Knight")


@pytest.mark.parametrize("lang", LANGS)
def test_15_leader_assigns_offers_handing_the_hit_on_next_to_volunteering(lab, lang):
    nb = run(lab, STEM, lang)
    said = nb.cell(cell_of(STEM, "## 직접 해 보기")).inner_text()
    assert 'RulesProfile(team_loss="leader_assigns")' in said and "the leader hands the hit on" in said
    fight = cell_of(STEM, "fight.roll_round()")
    before = printed_choices(cell_lines(nb, fight))
    assert not any(label == t("advice.assign", lang, name="Viking") for rows in before.values() for label, *_ in rows)

    # what the text says: section 3's profile line changed, the cell run again
    edit_and_run(nb, fight, "profile = RulesProfile()", 'profile = RulesProfile(team_loss="leader_assigns")')
    assert cell_errors(nb, fight) == []
    assert nb.kernel_json("fight.profile.team_loss") == "leader_assigns"
    define_team_advice(nb, 'team_loss="leader_assigns"', "[[1] * 6, [6] * ogre_score]")
    advice = nb.kernel_json(_TEAM_ADVICE)
    assigns = {ogre: [label for key, label, *_ in choices if key.startswith("assign:")]
               for ogre, choices, _ in advice}
    assert assigns == {o: [t("advice.assign", lang, name="Viking"), t("advice.assign", lang, name="Squire")]
                       for o in (4, 6, 8)}, "the advisor offers the leader's hand-on, in the learner's language"
    shown = printed_choices(cell_lines(nb, fight))
    assert shown == expected_lines(advice, lambda k: k == "no_volunteer" or k.startswith(("volunteer:", "assign:")))
    for ogre in (4, 6, 8):  # the hand-on, next to volunteering, to compare
        labels = [label for label, *_ in shown[ogre]]
        assert t("advice.assign", lang, name="Squire") in labels and t("advice.volunteer", lang, name="Squire") in labels
        assert t("advice.no_volunteer", lang) in labels
    snap(nb, fight, f"15-leader-assigns-{lang}")
    agree(nb, "after leader_assigns")


@pytest.mark.parametrize("lang", LANGS)
def test_15_member_sixes_values_are_exact_too(lab, lang):
    nb = run(lab, STEM, lang)
    said = nb.cell(cell_of(STEM, "## 직접 해 보기")).inner_text()
    assert 'RulesProfile(team_dice="member_sixes")' in said
    fight = cell_of(STEM, "fight.roll_round()")

    # what the text says: the profile line changed, the cell run again (its dice follow the profile:
    # under member_sixes every member rolls its own)
    edit_and_run(nb, fight, "profile = RulesProfile()", 'profile = RulesProfile(team_dice="member_sixes")')
    assert cell_errors(nb, fight) == []
    assert nb.kernel_json("fight.profile.team_dice") == "member_sixes"
    define_team_advice(nb, 'team_dice="member_sixes"', "[[1] * 4, [1] * 2, [1], [6] * ogre_score]")
    advice = nb.kernel_json(_TEAM_ADVICE)
    for ogre, choices, _ in advice:
        assert all([a, b] == ["Fraction", "Fraction"] for *_, a, b in choices), \
            f"Ogre {ogre}: the values are exact fractions"
    assert nb.kernel_json("[type(c.as_is).__name__ == type(c.best).__name__ == 'Fraction' for c in a.choices]") \
        == [True] * len(advice[-1][1]), "the cell's own advice is in fractions"
    assert nb.kernel_json("all(c.as_is.denominator > 1 and 0 < c.as_is < 1 for c in a.choices "
                          "if c.key == 'no_volunteer' or c.key.startswith('volunteer:'))")
    assert nb.kernel_json("str(a.choice('no_volunteer').as_is)") == nb.kernel_json(
        "str(_advise_team(8).choice('no_volunteer').as_is)"), "the same exact value, computed twice"
    shown = printed_choices(cell_lines(nb, fight))
    assert shown == expected_lines(advice, lambda k: k == "no_volunteer" or k.startswith(("volunteer:", "assign:")))
    assert all(label in (t("advice.no_volunteer", lang), *(t("advice.volunteer", lang, name=n)
                                                        for n in ("Knight", "Viking", "Squire")))
               for rows in shown.values() for label, *_ in rows), "labelled in the learner's language"
    snap(nb, fight, f"15-member-sixes-{lang}")
    agree(nb, "after member_sixes")
