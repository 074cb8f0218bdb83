"""The "your turn" parts of 05 (grunt mobs) and 07 (tickets), played in JupyterLab in Chromium the way
their text says, to the end, in Korean and in English (issue 22).

- 05: the knight and the bard against the goblins (``SeededDice(5)``): side A has two units, so the
  table offers "Attacker" and "Target" pickers with "Exchange" and "End the round", not "Roll round 1";
  LiveOdds lists each pair's chance. Two exchanges (the knight's, then the bard's, picked as the
  attacker), then "End the round"; the odds chart draws side A's chance of an exchange (white dots).
  Round 2 the same: the bard goes down, side A has one unit left; "End the round", and the table is
  back to "Roll round 3", "Roll round 4": the goblins bring the knight to 0 and win.
- 07: the astronaut and the pigeons (a grunt mob) against the accountant (``SeededDice(4)``): before
  the first roll "Give tickets" is offered; pressed, everyone fights with "Pie Eating (2)" (50% a
  pair). Round 1 as exchanges: the astronaut loses hers, the pigeons win theirs, "End the round";
  round 2: the astronaut ties, rolls again and is out; the pigeons' exchange brings the accountant to
  0: side A wins, and the temporary clichés are gone: the cards' pickers list the real clichés, still
  at 3, and the score chart's ticket lines end where the contest ended (the real ones at 3 all along).

At each step: the what-now line, the buttons shown and enabled, the pickers' options, the odds lines
and the round log's newest entry, as the kernel writes them, are on screen.

Every step is checked in the page and in the kernel, and every view agrees with the kernel
(``test_tutorials.agree``).
"""

from __future__ import annotations

import pytest

from raisus_panel.i18n import t

from .conftest import ARTIFACTS, Lab
from .test_tutorials import agree
from .test_your_turn import LANGS, button_state, cell_of, make_english_copies, page_sources, run, snap
from .test_your_turn_teams import press, shows

STEMS = ["05_grunt_mobs", "07_tickets"]
NOTEBOOKS = [f"notebooks/{stem}.ipynb" for stem in STEMS]
#: The English copies' suffix: not another module's, as modules may share a server root.
EN = "-en-mt"

pytestmark = pytest.mark.timeout(900)

_ODDS_LINES = "__import__('raisus_panel.ui.live_odds', fromlist=['odds_lines']).odds_lines"
_LABELS = "[u.label for s in game.sides for u in s]"


@pytest.fixture(scope="module", autouse=True)
def english_copies_05_07(lab_server):
    make_english_copies(lab_server.root, STEMS, suffix=EN)


# -- helpers ------------------------------------------------------------------------------------------
def picker(nb: Lab, index: int, label: str):
    """The exchange row's drop-down named ``label`` ("Attacker", "Target") in the output ``index``."""
    found = nb.output(index).get_by_label(label, exact=True)
    assert found.count() == 1, f"{found.count()} drop-downs named {label!r}"
    return found


def picker_state(nb: Lab, index: int, label: str) -> tuple[str, list[str]]:
    """(the option shown, every option) of the drop-down ``label``."""
    return tuple(picker(nb, index, label).evaluate(
        "s => [s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '', [...s.options].map(o => o.text)]"))


def choose(nb: Lab, index: int, label: str, option: str) -> None:
    select = picker(nb, index, label)
    select.scroll_into_view_if_needed()
    select.select_option(label=option)
    nb.settle()


def exchange(nb: Lab, index: int, lang: str, attacker: str, target: str) -> None:
    """Pick ``attacker`` and see ``target`` offered, then press "Exchange", as the text says."""
    choose(nb, index, t("contest.attacker", lang), attacker)
    assert picker_state(nb, index, t("contest.target", lang))[0] == target
    assert button_state(nb, index, t("contest.exchange", lang)) == (True, True)
    press(nb, index, t("contest.exchange", lang))


def what_now(nb: Lab, index: int) -> str:
    """The table's "what now" line, as the kernel writes it; checked to be on screen."""
    line = nb.kernel_json("table._what_now.text")
    assert shows(nb, index, line), f"the what-now line {line!r} is not shown"
    return line


def odds_shown(nb: Lab, index: int) -> list[str]:
    """LiveOdds' lines as the kernel writes them; each checked to be on screen."""
    lines = nb.kernel_json(f"{_ODDS_LINES}(game, live_odds.chances, live_odds._t)[0]")
    for line in lines:
        assert shows(nb, index, line), f"the odds line {line!r} is not shown"
    return lines


def last_log_heading(nb: Lab, index: int) -> str:
    heading = nb.kernel_json("log.entries()[0][0]")
    assert shows(nb, index, heading), f"the log's newest entry {heading!r} is not shown"
    return heading


def card_pickers(nb: Lab, index: int) -> list[tuple[str, list[str], bool]]:
    """Every unit card's cliché picker in page order: (shown option, options, enabled)."""
    return nb.output(index).locator(".raisus-unit-card select").evaluate_all(
        "ss => ss.map(s => [s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '', "
        "[...s.options].map(o => o.text), !s.disabled])")


def snap_charts(nb: Lab, index: int, name: str) -> None:
    """A screenshot of the page around the charts, the odds and the log under the table (the whole
    output is taller than JupyterLab's notebook view, which :func:`snap` then cuts)."""
    ARTIFACTS.mkdir(exist_ok=True)
    heading = nb.kernel_json("log.entries()[0][0]")
    nb.output(index).get_by_text(heading).first.scroll_into_view_if_needed()
    nb.page.screenshot(path=str(ARTIFACTS / f"your-turn-{name}.png"))


def exchange_points(nb: Lab) -> list:
    """The odds chart's ``p_exchange`` column (side A's chance of an exchange, the white dots)."""
    return max(page_sources(nb, "p_exchange"), key=len)


def check_exchange_row(nb: Lab, index: int, lang: str, n: int, played: int) -> None:
    """Round ``n`` is played as exchanges, ``played`` of them so far: no roll, the exchange row."""
    assert button_state(nb, index, t("contest.roll", lang, n=n)) == (False, False), "no plain roll in exchanges"
    assert button_state(nb, index, t("contest.exchange", lang)) == (True, True)
    assert button_state(nb, index, t("contest.end_round", lang)) == (True, played > 0), \
        "the round can be ended once an exchange is played"
    assert shows(nb, index, t("contest.next_round", lang, n=n))
    key = "what_now.gm.exchange_or_end" if played else "what_now.gm.exchange"
    assert what_now(nb, index) == t(key, lang, n=n)


# -- 05 -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_05_two_exchanges_end_the_round_then_play_to_the_end(lab, lang):
    stem = "05_grunt_mobs"
    nb = run(lab, stem, lang, EN)
    said = nb.cell(cell_of(stem, "## 5. 직접 해 보기")).inner_text()
    # as played here: the knight's exchange, the bard's (picked), "End the round"; on to the end
    assert "맞붙기를 두 번 하세요" in said and "「공격」에서 음유시인을 고르세요" in said and "「라운드 끝내기」" in said
    assert "pick him as the Attacker" in said and 'then press "End the round"' in said
    assert "다시 「N라운드 굴리기」로 굴립니다" in said and 'rolls with "Roll round N" again' in said
    table = cell_of(stem, "ContestTable(actions=actions")
    knight, bard, goblins = "기사 롤랑", "음유시인", "고블린 패거리"
    assert nb.kernel_json(f"[game.round, game.exchanges_this_round, game.needs_exchanges, {_LABELS}]") == \
        [0, 0, True, ["기사 롤랑: 기사 (4)", "음유시인: 음유시인 (2)", "고블린 패거리: 고블린 패거리 (5)"]]

    # before any exchange: the pickers and "Exchange", "End the round" locked; each pair's chance
    check_exchange_row(nb, table, lang, n=1, played=0)
    assert picker_state(nb, table, t("contest.attacker", lang)) == (knight, [knight, bard, goblins])
    assert picker_state(nb, table, t("contest.target", lang)) == (goblins, [goblins])
    lines = odds_shown(nb, table)
    assert lines[0] == t("odds.exchanges", lang) and len(lines) == 4, lines
    assert [line.split(":")[0] for line in lines[1:3]] == \
        [t("odds.pair", lang, a=who, b=goblins, p="").split(":")[0] for who in (knight, bard)]
    # the advice boxes: this table forms no teams, so no card is advised to team up (issue 22)
    assert shows(nb, table, t("error.advice.exchanges", lang)) and not shows(nb, table, t("advice.title", lang))
    snap(nb, table, f"05-start-{lang}")
    agree(nb, "before the first exchange")

    # 1st exchange: the knight against the goblins (the pickers' first choice); the goblins win
    exchange(nb, table, lang, knight, goblins)
    assert nb.kernel_json(f"[game.round, game.exchanges_this_round, {_LABELS}, game.last_roll['winner']]") == \
        [0, 1, ["기사 롤랑: 기사 (3/4)", "음유시인: 음유시인 (2)", "고블린 패거리: 고블린 패거리 (5)"], 1]
    assert shows(nb, table, t("roll.winner", lang, round=1, name=goblins))
    assert shows(nb, table, t("contest.dice_left", lang, n=3, of=4))
    assert last_log_heading(nb, table) == t("log.exchange", lang, n=1, a=knight, b=goblins)
    check_exchange_row(nb, table, lang, n=1, played=1)
    agree(nb, "after the knight's exchange")

    # 2nd exchange: the bard, picked as the attacker (the target stays the goblins, the only one)
    exchange(nb, table, lang, bard, goblins)
    assert nb.kernel_json(f"[game.exchanges_this_round, {_LABELS}]") == \
        [2, ["기사 롤랑: 기사 (3/4)", "음유시인: 음유시인 (1/2)", "고블린 패거리: 고블린 패거리 (5)"]]
    assert last_log_heading(nb, table) == t("log.exchange", lang, n=1, a=bard, b=goblins)
    check_exchange_row(nb, table, lang, n=1, played=2)
    snap(nb, table, f"05-two-exchanges-{lang}")
    agree(nb, "after the bard's exchange")

    # "End the round": round 2 comes; the odds chart has drawn side A's chance at each exchange
    press(nb, table, t("contest.end_round", lang))
    assert nb.kernel_json("[game.round, game.exchanges_this_round]") == [1, 0]
    check_exchange_row(nb, table, lang, n=2, played=0)
    points = exchange_points(nb)
    assert len(points) == 3 and all(v is not None for v in points), f"odds chart {points}"
    assert points[-1] == pytest.approx(nb.kernel_json("live_odds.chances.p_exchange"))
    snap_charts(nb, table, f"05-round-1-charts-{lang}")
    agree(nb, "after ending round 1")

    # round 2 the same way: the knight, then the bard, who goes down: side A has one unit left
    exchange(nb, table, lang, knight, goblins)
    exchange(nb, table, lang, bard, goblins)
    assert nb.kernel_json(f"[game.exchanges_this_round, game.needs_exchanges, {_LABELS}]") == \
        [2, False, ["기사 롤랑: 기사 (2/4)", "음유시인: 음유시인 (0/2)", "고블린 패거리: 고블린 패거리 (5)"]]
    assert picker_state(nb, table, t("contest.attacker", lang))[1] == [knight, goblins], "the bard is out"
    assert shows(nb, table, t("contest.out", lang), exact=True)
    snap(nb, table, f"05-bard-out-{lang}")
    agree(nb, "after the bard went down")
    press(nb, table, t("contest.end_round", lang))
    assert nb.kernel_json("[game.round, game.exchanges_this_round]") == [2, 0]
    assert button_state(nb, table, t("contest.exchange", lang)) == (False, False), "one unit a side: no exchanges"
    assert button_state(nb, table, t("contest.roll", lang, n=3)) == (True, True)
    agree(nb, "after ending round 2")

    # rounds 3 and 4 are rolled: the goblins bring the knight to 0 and win
    press(nb, table, t("contest.roll", lang, n=3))
    assert nb.kernel_json(f"{_LABELS}[0]") == "기사 롤랑: 기사 (1/4)"
    press(nb, table, t("contest.roll", lang, n=4))
    assert nb.kernel_json(f"[game.status, game.winner, {_LABELS}]") == \
        ["ended", 1, ["기사 롤랑: 기사 (0/4)", "음유시인: 음유시인 (0/2)", "고블린 패거리: 고블린 패거리 (5)"]]
    assert shows(nb, table, t("contest.ended_winner", lang, side=t("side.1", lang), names=goblins))
    assert odds_shown(nb, table) == [t("odds.decided", lang, side=t("side.1", lang))]
    assert button_state(nb, table, t("contest.roll", lang, n=5)) == (False, False)
    assert button_state(nb, table, t("contest.end_round", lang)) == (False, False)
    # the winners' card says they won, not "in the fight" (issue 22)
    assert shows(nb, table, f"({t('kind.grunt_mob', lang)} · {t('status.won', lang)})")
    assert not shows(nb, table, f"· {t('status.active', lang)})")
    snap(nb, table, f"05-end-{lang}")
    snap_charts(nb, table, f"05-end-charts-{lang}")
    agree(nb, "after the contest")


# -- 07 -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_07_give_tickets_play_the_exchanges_to_the_end_and_the_tickets_are_gone(lab, lang):
    stem = "07_tickets"
    nb = run(lab, stem, lang, EN)
    said = nb.cell(cell_of(stem, "## 5. 직접 해 보기")).inner_text()
    assert "참가 불가자 티켓 주기" in said and '"Give tickets"' in said
    assert "비둘기 떼를 골라 「맞붙기」" in said and 'then the pigeons and "Exchange", then "End the round"' in said
    assert "원래 클리셰만 (3) 그대로" in said and "list only the real clichés, still at 3" in said
    table = cell_of(stem, "ContestTable(actions=actions")
    yuri, pigeons, kim = "유리", "비둘기 떼", "김 대리"
    real = ["유리: 우주비행사 (3)", "비둘기 떼: 비둘기 떼 (3)", "김 대리: 회계사 (3)"]
    assert nb.kernel_json(f"[game.round, game.needs_exchanges, {_LABELS}]") == [0, True, real]

    # before the first roll: "Give tickets"; the cards offer only the real clichés
    give = t("contest.give_tickets", lang)
    assert button_state(nb, table, give) == (True, True)
    assert [p[1] for p in card_pickers(nb, table)] == [["우주비행사 (3)"], ["비둘기 떼 (3)"], ["회계사 (3)"]]
    check_exchange_row(nb, table, lang, n=1, played=0)
    # a side with a grunt mob, and a lone unit facing two, are not told to form a team (issue 22)
    assert shows(nb, table, t("error.advice.exchanges", lang))
    assert not shows(nb, table, t("error.advice.exchanges_team", lang))
    snap(nb, table, f"07-start-{lang}")
    agree(nb, "before the tickets")

    # "Give tickets": everyone gets "Pie Eating (2)" and fights with it; 50% each pair
    press(nb, table, give)
    assert nb.kernel_json(f"[{_LABELS}, [game.chosen(u.uid).label for s in game.sides for u in s]]") == \
        [[f"{r}, 파이 먹기 (2)" for r in real], ["파이 먹기 (2)"] * 3]
    assert button_state(nb, table, give) == (False, False), "tickets are given once, before the first roll"
    assert [p[0] for p in card_pickers(nb, table)] == ["파이 먹기 (2)"] * 3, "the cards show the ticket chosen"
    lines = odds_shown(nb, table)
    assert lines[1:3] == [t("odds.pair", lang, a=who, b=kim, p="50.0%") for who in (yuri, pigeons)], lines
    check_exchange_row(nb, table, lang, n=1, played=0)
    snap(nb, table, f"07-tickets-{lang}")
    agree(nb, "after the tickets")

    # round 1 as exchanges: the astronaut loses hers, the pigeons win theirs; "End the round"
    exchange(nb, table, lang, yuri, kim)
    assert nb.kernel_json("[u.cliche('파이 먹기').label for s in game.sides for u in s]") == \
        ["파이 먹기 (1/2)", "파이 먹기 (2)", "파이 먹기 (2)"]
    exchange(nb, table, lang, pigeons, kim)
    assert nb.kernel_json("[u.cliche('파이 먹기').label for s in game.sides for u in s]") == \
        ["파이 먹기 (1/2)", "파이 먹기 (2)", "파이 먹기 (1/2)"]
    assert shows(nb, table, t("roll.winner", lang, round=1, name=pigeons))
    check_exchange_row(nb, table, lang, n=1, played=2)
    press(nb, table, t("contest.end_round", lang))
    assert nb.kernel_json("[game.round, game.exchanges_this_round]") == [1, 0]
    points = exchange_points(nb)
    assert len(points) == 3 and points[0] == 0.5 and all(v is not None for v in points), f"odds chart {points}"
    agree(nb, "after round 1")

    # round 2: the astronaut ties, rolls again (two attempts shown) and is out
    exchange(nb, table, lang, yuri, kim)
    assert nb.kernel_json("[len(game.last_roll['attempts']), game.last_roll['winner'], "
                          "[u.cliche('파이 먹기').label for s in game.sides for u in s]]") == \
        [2, 1, ["파이 먹기 (0/2)", "파이 먹기 (2)", "파이 먹기 (1/2)"]]
    assert shows(nb, table, t("roll.tie", lang), exact=True)
    assert picker_state(nb, table, t("contest.attacker", lang))[1] == [pigeons, kim], "the astronaut is out"
    agree(nb, "after the astronaut went down")

    # the pigeons' exchange brings the accountant to 0: side A wins, and the tickets are gone
    exchange(nb, table, lang, pigeons, kim)
    assert nb.kernel_json(f"[game.status, game.winner, {_LABELS}]") == ["ended", 0, real]
    assert shows(nb, table, t("contest.ended_winner", lang, side=t("side.0", lang), names=f"{yuri}, {pigeons}"))
    assert [p[:2] for p in card_pickers(nb, table)] == \
        [["우주비행사 (3)", ["우주비행사 (3)"]], ["비둘기 떼 (3)", ["비둘기 떼 (3)"]], ["회계사 (3)", ["회계사 (3)"]]], \
        "the temporary clichés are gone from the cards, the real ones still at 3"
    assert button_state(nb, table, t("contest.exchange", lang)) == (False, False)
    assert button_state(nb, table, t("contest.end_round", lang)) == (False, False)
    assert odds_shown(nb, table) == [t("odds.decided", lang, side=t("side.0", lang))]
    # the score chart: the real clichés at 3 all along, the tickets' lines end where the contest ended
    assert nb.kernel_json("{game.series[k]: v for k, v in game.history[-1]['scores'].items()}") == \
        {"유리 · 우주비행사": 3, "비둘기 떼": 3, "김 대리 · 회계사": 3,
         "유리 · 파이 먹기": 0, "비둘기 떼 · 파이 먹기": 2, "김 대리 · 파이 먹기": 0}
    for series in ("유리 · 파이 먹기", "비둘기 떼 · 파이 먹기", "김 대리 · 파이 먹기"):
        assert shows(nb, table, series, exact=True), f"the score chart's key names {series!r}"
    # the beaten cards show the tickets they lost on, as they stood, gone; not the full real cliché
    gone = f" · 파이 먹기 ({t('team.ticket_gone', lang)})"
    assert shows(nb, table, t("contest.dice_left", lang, n=0, of=2) + gone), "the beaten show their spent ticket"
    assert shows(nb, table, t("contest.dice_left", lang, n=2, of=2) + gone), "the pigeons' ticket, unhurt"
    snap(nb, table, f"07-end-{lang}")
    snap_charts(nb, table, f"07-end-charts-{lang}")
    agree(nb, "after the contest")
