"""RoundLog: every attempt, tie and hit, and the between-round events, newest first."""

from __future__ import annotations

from raisus_panel.rules import ScriptedDice
from raisus_panel.ui import Actions, RoundLog

from .conftest import duel, team_vs_ogre


def test_attempts_ties_and_damage_newest_first():
    contest, actions, viking, pirate = duel(rolls=[[3, 3, 3, 3], [4, 4, 4], [1, 1, 1, 1], [2, 2, 2],
                                                   [6, 6, 6], [1, 1, 1]])
    log = RoundLog(actions=actions, lang="en")
    assert "Contest started: Brawl" in log._body.object
    assert "Nothing has happened" in RoundLog(lang="en")._body.object
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
    html = log._body.object
    assert html.index("Contest started") < html.index("Round 1") < html.index("Round 2")
    assert "flex-direction: column-reverse" in log._body.stylesheets[0] and "class=raisus-log>" in html


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
    assert len(log.entries()) == 1 and log._body.object.count("raisus-log-entry") == 1


def test_a_long_log_grows_at_its_end_and_drops_old_entries_in_steps():
    contest, actions, viking, pirate = duel(a=("Viking", 60), b=("Pirate", 60))
    log = RoundLog(actions=actions, max_entries=10, lang="en")
    shown = []
    for n in range(14):
        contest.dice.extend([[6] * viking.cliche("Viking").current, [1] * pirate.cliche("Pirate").current])
        before = log._body.object
        actions.act("roll_round")
        after = log._body.object
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
    html = log._body.object
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
    assert "seed:" not in log._body.object
    while game.status == "active":
        actions.act("roll_round")
    heading, details = log.entries()[0]
    assert heading.startswith("The dice's seed is revealed · ✓ verified here:")
    assert details == [f"seed: {game.events[-1]['seed']}"]
    ko = RoundLog(actions=actions, lang="ko").entries()
    assert ko[0][0].startswith("주사위 씨앗 공개 · ✓ 이 페이지에서 검증됨") and ko[-2][0].startswith("주사위 커밋")


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
