"""RoundLog: every attempt, tie and hit, and the between-round events, newest first -- dice drawn as dice,
units in their colours."""

from __future__ import annotations

import html

import panel as pn

from raisus_panel.i18n import t
from raisus_panel.rules import ScriptedDice
from raisus_panel.ui import Actions, ContestView, RoundLog, unit_colors
from raisus_panel.ui._charts import series_styles, side_color
from raisus_panel.ui._contest_text import CONTEST_CSS, dice_html

from .conftest import duel, room_for_two, team_vs_ogre
from .drivers import Screen


def body(log: RoundLog) -> pn.pane.HTML:
    """The pane of the log's entries: the last text the log shows, under its title."""
    return [o for o in Screen(log).objects() if isinstance(o, pn.pane.HTML)][-1]


def test_attempts_ties_and_damage_newest_first():
    contest, actions, viking, pirate = duel(rolls=[[3, 3, 3, 3], [4, 4, 4], [1, 1, 1, 1], [2, 2, 2],
                                                   [6, 6, 6], [1, 1, 1]])
    log = RoundLog(actions=actions, lang="en")
    assert "Contest started: Brawl" in body(log).object
    assert "Nothing has happened" in body(RoundLog(lang="en")).object
    actions.act("roll_round")
    actions.act("roll_round")
    entries = log.entries()
    assert entries[0][0].startswith("Round 2") and entries[1][0].startswith("Round 1")
    assert entries[-1][0] == "Contest started: Brawl"
    first = entries[1][1]
    assert any("[3, 3, 3, 3] = 12" in line and "tie" in line for line in first)
    assert any("[1, 1, 1, 1] = 4" in line for line in first)
    assert "Viking loses 1 from Viking" in first
    # the markup lists them oldest first -- a new entry is appended, and only it is sent -- and the
    # browser shows them newest first
    html = body(log).object
    assert html.index("Contest started") < html.index("Round 1") < html.index("Round 2")
    assert "flex-direction: column-reverse" in "".join(body(log).stylesheets) and "class=raisus-log>" in html


def test_between_round_events_are_logged():
    rolls = [[1] * 6, [2] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    log = RoundLog(actions=actions, lang="en")
    actions.act("roll_round")
    actions.act("volunteer", member=viking.uid)
    actions.act("drop_out", member=squire.uid)
    actions.act("disband", team=team.uid)
    headings = [h for h, _ in log.entries()]
    assert headings[:3] == [f"{team.name} disbands", f"Squire drops out of {team.name}",
                            f"Viking volunteers for {team.name}"]
    volunteer = log.entries()[2][1]
    assert "loses 2 from Viking instead of the leader" in volunteer


def test_fates_recovery_and_korean():
    contest, actions, viking, pirate = duel(b=("해적", 1), rolls=[[6, 6, 6, 6], [1]])
    log = RoundLog(actions=actions)
    actions.act("roll_round")
    actions.act("decide_fate", character=pirate.uid, text="무인도에 버려짐")
    headings = [h for h, _ in log.entries()]
    assert headings[0] == "해적의 운명" and log.entries()[0][1] == ["무인도에 버려짐"]
    assert headings[1] == "대결 끝: A 편 승리"


def test_max_entries():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    log = RoundLog(actions=actions, max_entries=1)
    actions.act("roll_round")
    assert len(log.entries()) == 1 and body(log).object.count("raisus-log-entry") == 1


def test_a_long_log_grows_at_its_end_and_drops_old_entries_in_steps():
    contest, actions, viking, pirate = duel(a=("Viking", 60), b=("Pirate", 60))
    log = RoundLog(actions=actions, max_entries=10, lang="en")
    shown = []
    for _ in range(14):
        contest.dice.extend([[6] * viking.cliche("Viking").current, [1] * pirate.cliche("Pirate").current])
        before = body(log).object
        actions.act("roll_round")
        after = body(log).object
        shown.append(after.count("raisus-log-entry"))
        if shown[-1] > (shown[-2] if len(shown) > 1 else 0):  # grew: the old markup is kept as it was
            assert after.startswith(before[: -len("</div>")])
    assert len(log.entries()) == 10 and log.entries()[0][0].startswith("Round 14")
    assert max(shown) == 11 and min(shown[10:]) == 10  # up to a tenth more between trims


def test_the_log_is_append_only_and_says_who():
    """Each entry names who gave the command; an undo adds an entry and strikes through, never deletes."""
    from raisus_panel.room import Actor, Room, RoomSession

    gm = Room.local("Tavern", dice=ScriptedDice([[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1]]))
    ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    gm.act("save_character", data={"name": "Olaf", "owner": "p1", "cliches": [{"name": "Viking", "rating": 4}]})
    gm.act("save_character", data={"name": "Jack", "cliches": [{"name": "Pirate", "rating": 3}]})
    olaf, jack = gm.room.characters
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[jack.uid])
    gm.act("open_round")
    ann.act("roll_round")  # Ann rolls round 1
    gm.act("roll_round")   # the GM rolls round 2 ...
    gm.act("undo")         # ... and takes it back
    log = RoundLog(actions=Actions(ann), lang="en")
    html = body(log).object
    assert "· Ann" in html and "· GM" in html  # who did what
    assert html.count("<s>") == 1 and "Round 2" in html.split("<s>")[1]  # kept, struck through
    assert "GM undid: Round 2: Olaf against Jack" in html
    headings = [h for h, _ in log.entries()]  # what still counts
    assert any(h.startswith("Round 1") for h in headings) and not any(h.startswith("Round 2") for h in headings)
    exported = gm.room.export_json()
    assert exported.count('"round_decided"') == 2 and '"undone"' in exported  # the export keeps them


def test_committed_dice_show_their_commitment_and_are_verified_in_the_page():
    from raisus_panel.rules import Character, CommittedDice, Contest

    game = Contest("Duel", Character("Ann", {"Fencer": 4}), Character("Bo", {"Brute": 3}), dice=CommittedDice())
    actions = Actions.local(game)
    log = RoundLog(actions=actions, lang="en")
    committed = game.events[1]
    entries = log.entries()
    assert entries[0][0].startswith("Dice committed (from roll 1)")
    assert entries[0][1] == [f"commitment (SHA-256 of the seed): {committed['commitment']}"]
    assert "seed:" not in body(log).object
    while game.status == "active":
        actions.act("roll_round")
    heading, details = log.entries()[0]
    assert heading.startswith("The dice's seed is revealed · ✓ verified here:")
    assert details == [f"seed: {game.events[-1]['seed']}"]
    ko = RoundLog(actions=actions, lang="ko").entries()
    assert ko[0][0].startswith("주사위 씨앗 공개 · ✓ 이 페이지에서 검증됨") and ko[-2][0].startswith("주사위 봉인")


def test_a_tampered_log_reaching_the_page_is_shown_as_failed():
    from raisus_panel.rules import Character, CommittedDice, Contest

    game = Contest("Duel", Character("Ann", {"Fencer": 4}), Character("Bo", {"Brute": 3}), dice=CommittedDice())
    actions = Actions.local(game)
    while game.status == "active":
        actions.act("roll_round")
    room = actions.room
    tampered = [dict(e) for e in room.log]
    for i, e in enumerate(tampered):
        if e["type"] == "contest" and e["event"]["type"] == "round_decided":
            inner = {**e["event"], "attempts": [[dict(r) for r in a] for a in e["event"]["attempts"]]}
            roll = inner["attempts"][0][0]
            roll["faces"] = [roll["faces"][0] % 6 + 1, *roll["faces"][1:]]
            roll["total"] = sum(roll["faces"])
            tampered[i] = {**e, "event": inner}
            break
    room.log = tampered  # as if the page had been sent another log than the dice gave
    heading, _ = RoundLog(actions=actions, lang="en").entries()[0]
    assert heading.startswith("The dice's seed is revealed · ✗ verification failed: roll 1, die 1")


# -- the log looks like the table: dice drawn, units in their colours (issue 12) ------------------------
XSS = "<img src=x onerror=alert(1)>"


def _entry(html: str, heading: str) -> str:
    """The markup of the one entry whose heading starts with ``heading``."""
    entries = [part for part in html.split("<div class")[1:] if f"<b>{heading}" in part]
    assert len(entries) == 1, (heading, entries)
    return entries[0]


def test_a_round_shows_its_dice_drawn_its_tie_marked_and_its_verdict_in_words():
    contest, actions, viking, pirate = duel(rolls=[[3, 3, 3, 3], [4, 4, 4], [6, 5, 1, 1], [4, 4, 4]])
    log = RoundLog(actions=actions, lang="en")
    actions.act("roll_round")
    colors = unit_colors(contest)
    entry = _entry(body(log).object, "Round 1: Viking against Pirate")
    # a column per attempt, the tie marked in words above the attempt it ended
    assert "<th>Attempt 1 <span class=tie>tie, rolled again</span></th><th>Attempt 2</th>" in entry
    # dice as dice, the six filled; the rows labelled with what each unit rolls; the winner's row bold
    assert (f"<tr class=won style=--unit:{colors[viking.uid]}><td>Viking rolls Viking: 4 dice</td>"
            f"<td>{dice_html([3, 3, 3, 3])}<span class=total>= 12</span></td>"
            f"<td>{dice_html([6, 5, 1, 1])}<span class=total>= 13</span></td></tr>") in entry
    assert "<span class=die6>6</span><span class=die>5</span>" in entry
    assert (f"<tr style=--unit:{colors[pirate.uid]}><td>Pirate rolls Pirate: 3 dice</td>"
            f"<td>{dice_html([4, 4, 4])}<span class=total>= 12</span></td>") in entry
    # the verdict and the loss in words; the attempts are not told twice
    assert "<ul><li>Round 1: Viking wins</li><li>Pirate loses 1 from Pirate</li></ul>" in entry
    assert "[6, 5, 1, 1]" not in body(log).object and "Attempt 1:" not in body(log).object
    # the dice's look is the contest table's, beside the log's own
    assert CONTEST_CSS in body(log).stylesheets and ".raisus-log-undone .die" in "".join(body(log).stylesheets)
    # the record stays plain text, in the order the report reads (units, attempts, winner, losses)
    heading, details = log.entries()[0]
    assert heading == "Round 1: Viking against Pirate"
    assert details == ["Viking rolls Viking: 4 dice", "Pirate rolls Pirate: 3 dice",
                       "Attempt 1: Viking [3, 3, 3, 3] = 12 vs Pirate [4, 4, 4] = 12 — tie, rolled again",
                       "Attempt 2: Viking [6, 5, 1, 1] = 13 vs Pirate [4, 4, 4] = 12",
                       "Round 1: Viking wins", "Pirate loses 1 from Pirate"]


def test_an_entry_about_a_unit_wears_its_colour_as_on_its_card_and_chart_line():
    contest, actions, viking, pirate = duel(a=("Viking", 1), b=("Pirate", 1), rolls=[[1], [6]])
    log = RoundLog(actions=actions, lang="ko")
    view = ContestView(actions=actions, lang="ko")
    actions.act("choose", unit=pirate.uid, cliche="Pirate")
    actions.act("roll_round")  # the Pirate wins, the Viking falls: the contest ends, side B wins
    colors = unit_colors(contest)
    assert colors[viking.uid] != colors[pirate.uid]
    html = body(log).object
    # a choice: the chooser's colour -- and its name in words
    chose = _entry(html, t("log.chose", "ko", unit="Pirate", cliche="Pirate"))
    assert chose.startswith(f"=raisus-log-entry style=--unit:{colors[pirate.uid]}>")
    # a round: its winner's colour on the entry, each dice row its unit's
    round_1 = _entry(html, t("log.round", "ko", n=1, a="Viking", b="Pirate"))
    assert round_1.startswith(f"=raisus-log-entry style=--unit:{colors[pirate.uid]}>")
    assert f"<tr style=--unit:{colors[viking.uid]}><td>Viking" in round_1
    assert f"<tr class=won style=--unit:{colors[pirate.uid]}><td>Pirate" in round_1
    assert t("roll.winner", "ko", round=1, name="Pirate") in round_1
    # the end: the winning side's colour; the start is about everyone, so it has none
    ended = _entry(html, t("log.ended", "ko", side=t("side.1", "ko")))
    assert ended.startswith(f"=raisus-log-entry style=--unit:{side_color(1)}>")
    assert _entry(html, t("log.started", "ko", name="Brawl")).startswith("=raisus-log-entry><b>")
    # the same colour on the unit's card and its chart line
    assert f"style=--unit:{colors[pirate.uid]}>" in Screen(view).html().split("<div class=raisus-side>")[2]
    assert {key: style[0] for key, style in series_styles(contest).items()}[f"{pirate.uid}:Pirate"] == colors[pirate.uid]


def test_a_hostile_name_stays_text_in_the_dice_rows_too():
    contest, actions, viking, pirate = duel(a=(XSS, 4), rolls=[[6, 6, 1, 1], [2, 2, 2]])
    log = RoundLog(actions=actions, lang="en")
    actions.act("roll_round")
    html = body(log).object
    escaped = "&lt;img src=x onerror=alert(1)&gt;"
    assert "<img" not in html and "onerror=alert(1)>" not in html
    assert f"<td>{escaped} rolls {escaped}: 4 dice</td>" in html
    assert f"<b>Round 1: {escaped} against Pirate</b>" in html
    assert f"<li>Round 1: {escaped} wins</li>" in html


def test_an_undone_round_keeps_its_dice_struck_through():
    gm, ann, olaf, spy = room_for_two([[6, 6, 6, 6], [1, 1, 1], [5, 6, 6, 6], [1, 1]])
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    gm.act("open_round")
    ann.act("roll_round")
    gm.act("roll_round")
    gm.act("undo")
    log = RoundLog(actions=Actions(ann), lang="en")
    html = body(log).object
    colors = unit_colors(gm.room.contest)
    undone = html.split("<div class='raisus-log-entry raisus-log-undone'")
    assert len(undone) == 2  # one undone entry: round 2, its dice kept, struck through and faded
    assert undone[1].startswith(f" style=--unit:{colors[olaf.uid]}><s><b>Round 2: Olaf against Spy</b>")
    struck = undone[1].split("</s>")[0]
    assert f"{dice_html([5, 6, 6, 6])}<span class=total>= 23</span>" in struck
    assert "<li>Round 2: Olaf wins</li>" in struck
    css = "".join(body(log).stylesheets)
    assert ".raisus-log-undone .die, .raisus-log-undone .die6, .raisus-log-undone .total { text-decoration: line-through; }" in css
    # the undo itself: in words, no colour, no dice
    assert "<div class='raisus-log-entry raisus-log-undo'><i><b>GM undid: Round 2: Olaf against Spy</b>" in html
    # round 1 still counts, drawn as dice
    assert "<b>Round 1: Olaf against Spy</b> <small class=raisus-log-who>· Ann</small><table class=dice>" in html


def test_a_new_round_streams_only_its_own_entry_of_reasonable_size():
    """Served, the pane sends only what was appended: measured on the stream event Panel sends."""
    from bokeh.document import Document

    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4], [6, 5, 1, 1], [4, 4]])
    log = RoundLog(actions=actions, lang="en")
    doc = Document()
    pn.panel(log).get_root(doc)
    sent = []
    doc.on_change(lambda event: sent.append(getattr(event, "msg_data", None)))
    actions.act("roll_round")
    actions.act("roll_round")
    streams = [m for m in sent if getattr(m, "event_name", "") == "html_stream"]
    assert len(streams) == 2
    patch = html.unescape(streams[1].patch)
    assert "Round 2: Viking against Pirate" in patch and "Round 1" not in patch and "Contest started" not in patch
    assert patch.count("raisus-log-entry") == 1 and "<table class=dice>" in patch
    # a typical round (4 dice against 2, one attempt): about 800 bytes as sent, entity-escaped (390 as text lines)
    size = len(streams[1].patch.encode())
    assert 600 < size < 1000, size
    assert "'" not in patch and '"' not in patch  # no quotes where none are needed: each costs six bytes sent


def test_an_undo_of_the_final_roll_names_the_roll_not_the_reveal():
    """Issue 21: the final roll's command also ends the contest and reveals the seed; its undo is the roll's."""
    gm, ann, olaf, spy = room_for_two(committed=True)  # committed dice: the end reveals the seed
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    while gm.room.contest.status == "active":
        gm.act("roll_round")
    final = gm.room.contest.round
    assert gm.room.log[-1]["event"]["type"] == "dice_revealed"  # the last command revealed the seed
    gm.act("undo")
    html = body(RoundLog(actions=Actions(ann), lang="en")).object
    assert f"GM undid: Round {final}: Olaf against Spy" in html
    assert "GM undid: the seed was revealed" not in html and "undid: The dice" not in html
