"""The "your turn" part of 06 (character teams), played in JupyterLab in Chromium the way its text
says, in Korean and in English (issue 22).

- In the TeamBuilder ("Teams of Side A") all three heroes are ticked, their clichés kept; the leader
  (the Knight) and the pool (Knight 4 + Viking + Squire = 6 dice) show before "Form the team".
- "Roll round 1": the Ogre wins, the Knight lost 1; the members' "Volunteer" buttons are enabled; the
  Viking's: the Knight's point comes back, the Viking loses 2 and goes down, the revenge bonus is
  armed (2×4 + 1 = 9 dice), and it is shown.
- "Roll round 2", the revenge; then, between rounds, "Drop out" (asked once more), "Undo" takes it
  back, and "Disband".
- After a disband a new team can be formed: disbanding before the first roll, the Knight and the
  Viking form a new one; "Undo" takes back that last command.

Every step is checked in the page and in the kernel, and every view agrees with the kernel
(``test_tutorials.agree``).
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t

from .conftest import Lab
from .test_tutorials import agree
from .test_your_turn import LANGS, button_state, cell_of, make_english_copies, run, snap

STEM = "06_character_teams"
STEMS = [STEM]
NOTEBOOKS = [f"notebooks/{stem}.ipynb" for stem in STEMS]
#: The English copies' suffix: not test_your_turn's "-en", as both modules may share a server root.
EN = "-en3"

pytestmark = pytest.mark.timeout(900)

_TEXT = "__import__('raisus_panel.ui._contest_text', fromlist=['member_label'])"
_POOL = "__import__('raisus_panel.ui._base', fromlist=['team_pool_text']).team_pool_text"
_TEAM = "next(u for u in game.sides[0] if isinstance(u, CharacterTeam))"
_HAS_TEAM = "any(isinstance(u, CharacterTeam) for u in game.sides[0])"
_LABELS = "[h.label for h in heroes]"


@pytest.fixture(scope="module", autouse=True)
def english_copies_06(lab_server):
    make_english_copies(lab_server.root, STEMS, suffix=EN)


# -- helpers ------------------------------------------------------------------------------------------
def shows(nb: Lab, index: int, text: str, exact: bool = False) -> bool:
    """Whether the output ``index`` shows ``text`` on screen (hidden parts hold their texts too)."""
    found = nb.output(index).get_by_text(text, exact=exact)
    return any(found.nth(i).is_visible() for i in range(found.count()))


def shown(nb: Lab, index: int, name: str) -> list:
    """The buttons named ``name`` shown in the output ``index``, in page order."""
    buttons = nb.output(index).get_by_role("button", name=name, exact=True)
    return [buttons.nth(i) for i in range(buttons.count()) if buttons.nth(i).is_visible()]


def press(nb: Lab, index: int, name: str, nth: int = 0) -> None:
    """Press the ``nth`` shown button named ``name`` (exactly), as a user does."""
    buttons = shown(nb, index, name)
    assert len(buttons) > nth, f"no button {name!r} #{nth} shown"
    buttons[nth].scroll_into_view_if_needed()
    buttons[nth].click()
    nb.settle()


def tick_members(nb: Lab, index: int, names: list[str]) -> None:
    """Tick ``names`` in the TeamBuilder's member list."""
    for name in names:
        box = nb.output(index).get_by_role("checkbox", name=name, exact=True)
        assert box.count() == 1, f"{name}: {box.count()} boxes in the builder"
        box.scroll_into_view_if_needed()
        box.check()
        nb.settle()


def member_line(nb: Lab, member: int) -> str:
    """The member's line at the table, as the table writes it (``_contest_text.member_label``)."""
    return nb.kernel_json(f"{_TEXT}.member_label({_TEAM}, heroes[{member}], table._t)")


def pool_line(nb: Lab) -> str:
    return nb.kernel_json(f"{_POOL}({_TEAM}, table._t)")


def count_shown(nb: Lab, index: int, text: str) -> int:
    found = nb.output(index).get_by_text(text)
    return sum(found.nth(i).is_visible() for i in range(found.count()))


def armed_in_card(nb: Lab, index: int, revenge: str) -> bool:
    """Whether the team's card at the table shows the revenge bonus armed."""
    cards = nb.output(index).locator(".raisus-unit-card").filter(has_text=revenge)
    return any(cards.nth(i).is_visible() for i in range(cards.count()))


def form_the_team(nb: Lab, cell: int, lang: str, names: list[str], leader: str, pool: str) -> None:
    """Tick ``names`` (clichés kept), see the leader and the pool before committing, press "Form the team"."""
    form = t("team.form", lang)
    assert button_state(nb, cell, form) == (True, False), "nobody ticked: nothing to form"
    assert shows(nb, cell, t("team.pick_two", lang))
    tick_members(nb, cell, names)
    assert shows(nb, cell, t("team.leader_is", lang, name=leader)), "the leader shows before committing"
    assert shows(nb, cell, pool), "the pool shows before committing"
    assert not nb.kernel_json(_HAS_TEAM), "nothing formed before the button"
    assert button_state(nb, cell, form) == (True, True)
    press(nb, cell, form)
    assert nb.kernel_json(f"[[m.name for m in {_TEAM}.members], {_TEAM}.leader.name]") == [names, leader]


# -- the tests ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_06_form_the_team_roll_volunteer_revenge_then_drop_out_and_disband(lab, lang):
    nb = run(lab, STEM, lang, EN)
    said = nb.cell(cell_of(STEM, "## 10. 직접 해 보기")).inner_text()
    assert "SeededDice(2)" in said and "Form the team" in said and "Volunteer" in said and "Disband" in said
    cell = cell_of(STEM, "builder = TeamBuilder(actions=actions, side=0)")
    assert nb.kernel_json(f"[{_HAS_TEAM}, game.round, {_LABELS}]") == \
        [False, 0, ["기사: 기사 (4)", "바이킹: 바이킹 (2), 요리사 (1)", "종자: 종자 (1)"]], "not a team yet"
    assert shows(nb, cell, t("team.title", lang, side=t("side.0", lang)), exact=True)

    # 1. the TeamBuilder: all three ticked, clichés kept; the leader and the pool; "Form the team"
    form_the_team(nb, cell, lang, ["기사", "바이킹", "종자"], "기사",
                  t("team.pool", lang, parts="기사 4 + 바이킹 + 종자", n=6))
    assert nb.kernel_json(f"[[{_TEAM}.cliche_of(m).name for m in {_TEAM}.members], game.pool({_TEAM})]") == \
        [["기사", "바이킹", "종자"], 6]
    assert shows(nb, cell, member_line(nb, 0)) and t("team.leader", lang) in member_line(nb, 0)
    agree(nb, "after forming the team")

    # 2. "Roll round 1": the Ogre wins; by default the leader, the Knight, lost 1
    press(nb, cell, t("contest.roll", lang, n=1))
    assert nb.kernel_json(f"[game.round, game.last_roll['winner'], {_LABELS}, bool(game.volunteer_window)]") == \
        [1, 1, ["기사: 기사 (3/4)", "바이킹: 바이킹 (2), 요리사 (1)", "종자: 종자 (1)"], True]
    assert shows(nb, cell, member_line(nb, 0)), "the Knight's line shows his lost point"
    assert "(3/4)" in member_line(nb, 0)

    # 3. the members' "Volunteer" buttons are enabled; the Viking's
    volunteer = t("contest.volunteer", lang)
    buttons = shown(nb, cell, volunteer)
    assert len(buttons) == 3 and all(b.is_enabled() for b in buttons), "one enabled Volunteer per member"
    assert button_state(nb, cell, t("contest.roll_no_volunteer", lang, n=2)) == (True, True), \
        "the roll says that rolling on means nobody volunteers"
    agree(nb, "after the lost round")
    press(nb, cell, volunteer, nth=1)  # the members in order: the Knight, the Viking, the Squire
    assert nb.kernel_json(f"[{_LABELS}, {_TEAM}.revenge, game.pool({_TEAM}), bool(game.volunteer_window)]") == \
        [["기사: 기사 (4)", "바이킹: 바이킹 (0/2), 요리사 (1)", "종자: 종자 (1)"], True, 9, False], \
        "the Knight's point back, the Viking down, the revenge bonus armed: 9 dice"
    viking = member_line(nb, 1)
    assert t("status.down", lang) in viking and shows(nb, cell, viking), "the Viking's line says he is down"
    assert pool_line(nb) == t("team.pool", lang, parts="2×(기사 4) + 종자", n=9)
    assert shows(nb, cell, pool_line(nb)), "the revenge pool (2×4 + 1 = 9) is shown"
    revenge = t("team.revenge_armed", lang)
    assert armed_in_card(nb, cell, revenge), "the team's card at the table says the bonus is armed"
    assert count_shown(nb, cell, revenge) == 3, "shown in the builder's team list, the team's card and the log"
    assert not any(b.is_enabled() for b in shown(nb, cell, volunteer)), "no more volunteering now"
    assert button_state(nb, cell, t("contest.roll", lang, n=2)) == (True, True)
    snap(nb, cell, f"06-revenge-armed-{lang}")
    agree(nb, "after the Viking volunteered")

    # 4. "Roll round 2": the revenge (the team wins, the bonus used up)
    press(nb, cell, t("contest.roll", lang, n=2))
    assert nb.kernel_json(f"[game.round, game.last_roll['winner'], brute.label, {_TEAM}.revenge, game.pool({_TEAM})]") \
        == [2, 0, "오우거: 오우거 (5/6)", False, 5]
    assert not armed_in_card(nb, cell, revenge), "the bonus is used up: no longer shown as armed"
    assert count_shown(nb, cell, revenge) == 1, "only the log's record of the volunteering still says it"
    assert not any(b.is_enabled() for b in shown(nb, cell, volunteer)), "no volunteering after a won round"
    agree(nb, "after the revenge")

    # ... "Drop out" (asked once more): the Squire leaves, his cliché at 0; "Undo" takes it back
    drop = t("contest.drop_out", lang)
    press(nb, cell, drop, nth=2)
    assert nb.kernel_json(f"[{_LABELS}[2], heroes[2].uid in {_TEAM}.dropped]") == ["종자: 종자 (1)", False], \
        "dropping out asks first"
    assert shows(nb, cell, t("confirm.drop_out", lang, name="종자"))
    press(nb, cell, t("confirm.yes.drop_out", lang, name="종자"))
    assert nb.kernel_json(f"[{_LABELS}[2], heroes[2].uid in {_TEAM}.dropped, game.pool({_TEAM})]") == \
        ["종자: 종자 (0/1)", True, 4], "the Squire's cliché is 0, the pool 4"
    squire = member_line(nb, 2)
    assert t("status.dropped", lang) in squire and shows(nb, cell, squire)
    agree(nb, "after the Squire dropped out")
    press(nb, cell, t("contest.undo", lang))
    assert nb.kernel_json(f"[{_LABELS}[2], heroes[2].uid in {_TEAM}.dropped, game.pool({_TEAM})]") == \
        ["종자: 종자 (1)", False, 5], "Undo takes back the drop-out"
    assert shows(nb, cell, member_line(nb, 2))
    agree(nb, "after undoing the drop-out")

    # ... "Disband": every member's team cliché loses 1 (the Squire's goes to 0), no team left
    press(nb, cell, t("contest.disband", lang))
    assert nb.kernel_json(f"[{_HAS_TEAM}, {_LABELS}, game.status]") == \
        [False, ["기사: 기사 (3/4)", "바이킹: 바이킹 (0/2), 요리사 (1)", "종자: 종자 (0/1)"], "active"]
    assert shown(nb, cell, volunteer) == [] and shown(nb, cell, t("contest.disband", lang)) == []
    assert button_state(nb, cell, t("contest.roll", lang, n=3)) == (True, True), "the Knight fights on alone"
    snap(nb, cell, f"06-disbanded-{lang}")
    agree(nb, "after the disband")


@pytest.mark.parametrize("lang", LANGS)
def test_06_after_a_disband_a_new_team_forms_and_undo_takes_it_back(lab, lang):
    nb = run(lab, STEM, lang, EN)
    said = nb.cell(cell_of(STEM, "## 10. 직접 해 보기")).inner_text()
    assert "disband before anyone volunteers" in said and "자원하기 전에 해체해 보세요" in said  # as played here
    cell = cell_of(STEM, "builder = TeamBuilder(actions=actions, side=0)")
    form_the_team(nb, cell, lang, ["기사", "바이킹", "종자"], "기사",
                  t("team.pool", lang, parts="기사 4 + 바이킹 + 종자", n=6))
    # between rounds (before the first): disband; every member loses 1, the Squire goes to 0
    press(nb, cell, t("contest.disband", lang))
    assert nb.kernel_json(f"[{_HAS_TEAM}, {_LABELS}]") == \
        [False, ["기사: 기사 (3/4)", "바이킹: 바이킹 (1/2), 요리사 (1)", "종자: 종자 (0/1)"]]
    agree(nb, "after the disband")
    # the survivors form a new team at once: the Knight (3) leads, the Viking adds a die
    assert nb.output(cell).get_by_role("checkbox", name="종자", exact=True).count() == 0, "the Squire is out"
    form_the_team(nb, cell, lang, ["기사", "바이킹"], "기사", t("team.pool", lang, parts="기사 3 + 바이킹", n=4))
    assert nb.kernel_json(f"[game.pool({_TEAM}), {_TEAM}.cliche_of(heroes[1]).name]") == [4, "바이킹"]
    assert shows(nb, cell, member_line(nb, 1))
    snap(nb, cell, f"06-re-formed-{lang}")
    agree(nb, "after forming a new team")
    # "Undo" takes back the last command: the new team
    press(nb, cell, t("contest.undo", lang))
    assert nb.kernel_json(f"[{_HAS_TEAM}, {_LABELS}]") == \
        [False, ["기사: 기사 (3/4)", "바이킹: 바이킹 (1/2), 요리사 (1)", "종자: 종자 (0/1)"]]
    assert button_state(nb, cell, t("team.form", lang)) == (True, False), "the builder is back, nobody ticked"
    agree(nb, "after undoing the new team")
