"""What a learner finds after Run All: checks run inside a tutorial's own kernel, after its last cell.

Run All must not play the exercises: the "your turn" table of each tutorial is left as the learner
should find it (nothing rolled, no team formed, no character saved), and its seed makes the
notebook's rule actually come up when the learner does what the notebook says. Each check reads the
notebook's variables, then plays the learner's clicks through the same commands the buttons send.

``test_notebooks.test_notebook_runs`` appends ``check(<notebook stem>, globals())`` as a last cell
of the notebook it executes; an assertion that fails shows as that cell's error.
"""

from __future__ import annotations

import json

from raisus_panel.rules import CharacterTeam

#: The notebooks without a table to play (08 has sliders only; 15 rates choices in code).
NO_TABLE = {"08_odds", "15_odds_advisor"}


def _fresh(actions, game=None) -> None:
    """Nothing has been played on this table since it was made."""
    contest = actions.contest
    if game is not None:
        assert contest is game, "the learner's table shows another contest"
    if contest is not None:
        assert contest.status == "active" and contest.round == 0, \
            f"Run All played the learner's contest ({contest.status}, round {contest.round})"
        assert not [e for e in contest.events if e["type"] == "round_decided"], "a round was rolled"


def check_00_quickstart(ns):
    actions, game = ns["actions"], ns["game"]
    _fresh(actions, game)
    assert ns["practice"].round == 2, "the code demonstration plays its own contest"
    assert actions.can("roll_round")
    actions.act("roll_round")
    assert game.round == 1


def check_01_action_checks(ns):
    table, panel = ns["table_actions"], ns["check_panel"]
    assert table.checks == [], "Run All rolled a check on the learner's table"
    assert len(ns["practice_actions"].checks) == 2
    assert table.can("action_check", **panel.check_args())
    panel.roll()
    assert len(table.checks) == 1


def check_02_contests_and_ties(ns):
    actions, game, erik = ns["actions"], ns["game"], ns["erik2"]
    _fresh(actions, game)
    assert game.chosen(erik.uid) is None, "Erik's cliché is the learner's choice"
    actions.act("choose", unit=erik.uid, cliche="바이킹")
    actions.act("roll_round")
    assert game.round == 1


def check_03_inappropriate_cliches(ns):
    actions, game = ns["actions"], ns["game"]
    marta, king = ns["marta2"], ns["king2"]
    _fresh(actions, game)
    from raisus_panel.ui.live_odds import contest_chances

    # the odds before the choice, then after it: the lesson's two numbers (issue 22: it said they
    # jumped at the approval, made on a contest that had counted the choice all along)
    assert not game.is_inappropriate(marta.uid), "the Cook starts as appropriate: ticking the box is the learner's"
    assert f"{contest_chances(game).p_win:.1%}" == "10.5%"
    actions.act("choose", unit=marta.uid, cliche="요리사", appropriate=False)  # the card's box
    assert f"{contest_chances(game).p_win:.1%}" == "23.3%"
    assert game.needs_approval(marta.uid) and actions.can("approve", unit=marta.uid)
    assert not actions.can("roll_round"), "rolling is locked until the GM approves"
    actions.act("approve", unit=marta.uid)
    assert f"{contest_chances(game).p_win:.1%}" == "23.3%", "the approval changes no chance"
    actions.act("roll_round")
    assert king.cliche("마왕").current == 1, "with the notebook's seed Marta wins round 1 and deals 3"


def check_04_single_roll_contests(ns):
    actions, duel, billy = ns["actions"], ns["duel"], ns["billy"]
    _fresh(actions, duel)
    assert duel.single_roll
    actions.act("roll_round")
    decided = [e for e in duel.events if e["type"] == "round_decided"][-1]
    assert len(decided["attempts"]) == 2, "with the notebook's seed the first roll is a tie"
    assert duel.status == "ended" and duel.side_label(duel.winner) == billy.name
    others = [c.uid for c in ns["people"][2:]]
    assert actions.can("start_contest", name="다음", side_a=others[:1], side_b=others[1:], single_roll=True), \
        "the New contest form opens the next one"


def check_05_grunt_mobs(ns):
    actions, game = ns["actions"], ns["game"]
    knight, goblins = ns["knight2"], ns["goblins2"]
    _fresh(actions, game)
    assert goblins.cliches[0].current == 5 and game.needs_exchanges
    actions.act("exchange", attacker=knight.uid, target=goblins.uid)
    assert game.exchanges_this_round == 1


def check_06_character_teams(ns):
    actions, game = ns["actions"], ns["game"]
    knight, viking, squire = ns["heroes"]
    _fresh(actions, game)
    assert not any(isinstance(unit, CharacterTeam) for unit in game.sides[0]), "the team is the learner's to form"
    # what the notebook says to click: all three in the builder, their first clichés, Form the team
    actions.act("form_team", members=[{"character": knight.uid, "cliche": "기사"},
                                      {"character": viking.uid, "cliche": "바이킹"},
                                      {"character": squire.uid, "cliche": "종자"}])
    team = game.sides[0][0]
    assert game.pool(team) == 6
    actions.act("roll_round")
    assert game.volunteer_window, "with the notebook's seed the Ogre wins round 1"
    assert knight.cliche("기사").current == 3
    assert actions.can("volunteer", member=viking.uid), "Volunteer is offered after the lost round"
    actions.act("volunteer", member=viking.uid)
    assert knight.cliche("기사").current == 4 and viking.cliche("바이킹").current == 0
    assert game.pool(game.sides[0][0]) == 9, "revenge: 2 x 4 + the Squire's die"


def check_07_tickets(ns):
    actions, game, crowd = ns["actions"], ns["game"], ns["crowd"]
    _fresh(actions, game)
    assert actions.can("give_tickets"), "Give tickets is offered before the first roll"
    actions.act("give_tickets")
    assert all(any(c.temporary for c in unit.cliches) for unit in [*crowd, ns["rival"]])


def check_09_save_replay_undo(ns):
    actions, game = ns["actions"], ns["game"]
    table, chart, log, message, load_save = ns["table"], ns["chart"], ns["log"], ns["message"], ns["load_save"]
    _fresh(actions, game)
    assert ns["practice"].round == 1, "the code demonstration rolled twice and undid once, on its own table"
    old = actions
    assert load_save(b'{"hello": "world"}') is None and message.visible, "a broken file is refused"
    assert table.actions is old and game.round == 0, "a refused file changes nothing"
    actions.act("choose", unit=game.sides[0][0].uid, cliche="바이킹")
    actions.act("roll_round")
    saved = table.actions.contest.to_json()
    new = load_save(saved.encode("utf-8"))
    assert new is not None and not message.visible
    assert table.actions is new and chart.actions is new and log.actions is new, "the views move to the new table"
    assert new.contest.round == 1 and new.contest.history == game.history
    new.act("roll_round")
    assert new.contest.round == 2 and game.round == 1, "play goes on at the new table; the old one keeps its state"


def check_10_fates_and_recovery(ns):
    actions, game = ns["actions"], ns["game"]
    olaf, jack = ns["olaf2"], ns["jack2"]
    _fresh(actions, game)
    for _ in range(3):
        actions.act("roll_round")
    assert game.status == "ended" and game.winner == 0, "with the notebook's seed Olaf wins in three rounds"
    assert olaf.cliche("바이킹").current == 2, "Jack wins round 1"
    assert jack.uid in game.owed_fates
    actions.act("decide_fate", character=jack.uid, text="상어 밥이 된다")
    assert not actions.can("decide_fate", character=jack.uid, text="잠든다"), "written: veto first"
    actions.act("veto_fate", character=jack.uid)
    actions.act("decide_fate", character=jack.uid, text="탁자 밑에서 잠든다")
    actions.act("recover", character=olaf.uid)
    assert olaf.cliche("바이킹").current == 3
    actions.act("close_contest")
    actions.act("recover", character=jack.uid, amount=1)
    assert jack.cliche("해적").current == 1


def check_11_character_sheet(ns):
    actions, sheet = ns["actions"], ns["sheet"]
    assert sheet.character is None, "the learner's sheet is empty"
    assert [c.name for c in actions.characters] == ["오우거"], "no character was saved for the learner"
    assert not actions.can("save_character", data=sheet.draft()), "an empty sheet cannot be saved"
    made = {"kind": "character", "name": "빌헬름", "cliches": [{"name": "기사", "rating": 3}]}
    assert sheet.load_json(json.dumps(made, ensure_ascii=False))
    mine = sheet.save()
    assert mine is not None and sheet.character is mine and len(actions.characters) == 2
    ogre = actions.characters[0]
    actions.act("start_contest", name="결투", side_a=[mine.uid], side_b=[ogre.uid])
    assert not actions.can("save_character", data=sheet.draft()), "locked while in the contest"


def check_12_ipywidgets(ns):
    import ipywidgets
    import panel as pn

    sheets, tabs = ns["sheets"], ns["tabs"]
    who, rating, language, settings = ns["who"], ns["rating"], ns["language"], ns["settings"]
    assert isinstance(ns["wrapped"], ipywidgets.DOMWidget)
    assert isinstance(pn.ipywidget(sheets[0]), ipywidgets.DOMWidget)
    assert len(tabs.children) == 3 and all(isinstance(w, ipywidgets.DOMWidget) for w in tabs.children)
    olaf = ns["party"][0]
    assert olaf.cliches[0].rating == 4, "Run All changed no rating on the learner's table"
    who.value = olaf.uid
    rating.value = 6
    assert olaf.cliche("바이킹").rating == 6 and olaf.cliche("바이킹").current == 6
    assert sheets[0].draft()["cliches"][0]["rating"] == 6, "the sheet in the tab follows the table"
    before = settings.lang
    language.value = "en"
    try:
        assert settings.lang == "en"
        settings.lang = "ko"
        assert language.value == "ko", "the ipywidgets control follows the Param model"
    finally:
        settings.lang = before


def check_13_fair_dice(ns):
    from raisus_panel.rules import verify

    actions, game = ns["actions"], ns["game"]
    _fresh(actions, game)
    assert [e["type"] for e in game.events] == ["contest_started", "dice_committed"], "committed before any roll"
    assert verify(game)[0].status == "unrevealed", "before the end the verify cell says: not revealed yet"
    while game.status == "active":
        actions.act("roll_round")
    [check] = verify(game)
    assert check.ok, check.message
    assert [c.ok for c in verify(actions.room)] == [True], "the table's log verifies too"


def check_16_campaign_play(ns):
    from raisus_panel.ui.live_odds import contest_chances

    actions, game, olaf, spy = ns["actions"], ns["game"], ns["olaf2"], ns["spy2"]
    _fresh(actions, game)
    assert game.profile.pumps and game.profile.lucky_shots and not game.single_roll
    assert game.bonus(olaf.uid)["dice"] == 0 and olaf.lucky_left == 3, "the pump and the lucky shot are the learner's"
    [(side, name, options)] = [p for p in contest_chances(game).pumps if p[0] == 0]
    assert name == olaf.name and [f"{p:.1%}" for _, p in options] == ["89.5%", "86.6%", "49.2%", "5.0%"]
    # what the text says to do on Olaf's card: pump 1, then 3, back to 0, a lucky shot, and roll
    for n, p_win in ((1, "86.6%"), (3, "5.0%"), (0, "89.5%")):
        actions.act("pump", unit=olaf.uid, amount=n)
        assert f"{contest_chances(game).p_win:.1%}" == p_win, f"pump {n}"
    actions.act("spend_lucky", character=olaf.uid, amount=1)
    assert f"{contest_chances(game).p_win:.1%}" == "96.6%", "a lucky shot raises the chance"
    actions.act("roll_round")
    [decided] = [e for e in game.events if e["type"] == "round_decided"]
    assert len(decided["attempts"]) == 2, "with the notebook's seed the first roll is a tie"
    assert olaf.lucky_left == 2, "the lucky shot is spent once, through the tie"
    assert olaf.cliche("바이킹").current == 4 and spy.cliche("첩자").current == 2, "Olaf wins the round"
    # section 3's exercise: Olaf at 2 against a Spy at 1, pump 1 raises the chance
    p0, p1 = (ns["odds"].contest_odds(2, 1, a_extra=n, a_pump=n, exact=True).p_win for n in (0, 1))
    assert p1 > p0 and f"{float(p0):.1%} {float(p1):.1%}" == "95.0% 98.8%"


CHECKS = {name.removeprefix("check_"): fn for name, fn in globals().items() if name.startswith("check_")}


def check(notebook: str, ns: dict) -> str:
    """Run the check of ``notebook`` (its file name without .ipynb) on the kernel's namespace ``ns``."""
    CHECKS[notebook](ns)
    return f"checked {notebook}"
