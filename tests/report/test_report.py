"""The session report's content: escaped text, every round's dice, both languages, every input."""

from __future__ import annotations

import json
import re

import pytest

from raisus_panel.cli import main
from raisus_panel.report import read_file, report
from raisus_panel.room import Actor
from raisus_panel.rules import Character, Contest, RuleError, ScriptedDice
from raisus_panel.ui._contest_text import dice_html

from .conftest import EVIL


def sections(html: str) -> list[str]:
    """The HTML of each contest's section, in order."""
    return re.split(r"<section class=contest id='contest-\d+'>", html)[1:]


def dice(faces) -> str:
    return dice_html(faces)


def test_what_people_typed_is_text(played):
    html = report(played.room, "en").html()
    for raw in (EVIL, "<b>Ann</b>", "<i>Friday</i>", "<script>alert(1)</script>", "<with a grin>"):
        assert raw not in html
    for shown in ("Olaf &lt;img src=x onerror=alert(1)&gt;", "&lt;b&gt;Ann&lt;/b&gt;", "&lt;i&gt;Friday&lt;/i&gt;",
                  "Brawl &lt;script&gt;alert(1)&lt;/script&gt;", "Swims home &lt;with a grin&gt;"):
        assert shown in html
    assert html.count("<script") == html.count("</script>")  # no script but BokehJS and the charts'


def test_every_round_of_every_contest_is_there_with_its_dice(played):
    html = report(played.room, "en").html()
    parts = sections(html)
    assert len(parts) == 2
    for part, rounds in zip(parts, played.rounds):
        at = 0
        for n, attempts in enumerate(rounds, 1):
            at = part.index(f"Round {n}:", at)  # the rounds in the order they were played
            for a, b in attempts:
                assert dice(a) in part[at:] and dice(b) in part[at:]
    first = parts[0]
    assert "Attempt 1" in first and "tie, rolled again" in first  # the tie and its re-roll
    assert "Jack loses 1 from Pirate" in first and "Fate of Jack" in first
    # the round the GM took back stays, struck through, with the undo that took it back
    undone = re.search(r"<li class='entry round undone'>.*?</li>", first, re.S).group(0)
    assert dice([6, 5, 4, 4]) in undone and "taken back" in undone
    assert "GM undid" in first or "undid" in first


def test_who_did_what_and_who_played_whom(played):
    first = sections(report(played.room, "en").html())[0]
    assert "Olaf &lt;img src=x onerror=alert(1)&gt; chooses Viking</b></span> <span class=who>· &lt;b&gt;Ann&lt;/b&gt;" in first
    assert "<span class=who>· Bob</span>" in first  # Bob rolled round 2
    assert "played by &lt;b&gt;Ann&lt;/b&gt;" in first and "played by Bob" in first
    assert "Viking (4)" in first and "Pirate (3) <span class=soft>dice: 3 → 0</span>" in first


def test_both_languages():
    from .conftest import played_room
    played = played_room()
    en, ko = report(played.room, "en").html(), report(played.room, "ko").html()
    assert "<html lang='en'>" in en and "<html lang='ko'>" in ko
    assert "session report" in en and "Who took part" in en and "What happened" in en
    assert "세션 기록" in ko and "참가자" in ko and "진행 기록" in ko and "1라운드" in ko
    assert "session report" not in ko and "세션 기록" not in en
    with pytest.raises(RuleError) as refused:
        report(played.room, "fr")
    assert refused.value.key == "error.report.lang"


def test_a_spectators_report_has_no_gm_secret(played):
    for_all = report(played.room, "en")
    for_gm = report(played.room, "en", actor=played.gm)
    private = [e for e in played.room.visible_events(played.gm) if e["private"]]
    assert private  # the GM's secret roll
    for part in for_all.session.contests:
        assert not any(e["private"] for e in part.actions.room.visible_events(Actor.gm()))
    assert any(e["private"] for part in for_gm.session.contests
               for e in part.actions.room.visible_events(Actor.gm()))


def test_a_report_of_one_contest_of_the_room(played):
    one = report(played.room, "en", contest=2).html()
    assert len(sections(one)) == 1 and "Kitchen" in one and "Brawl" not in one
    with pytest.raises(RuleError) as refused:
        report(played.room, "en", contest=3)
    assert refused.value.key == "error.report.no_contest"


def test_a_contest_and_its_save():
    olaf, jack = Character("Olaf", {"Viking": 4}), Character(EVIL, {"Pirate": 1})
    game = Contest("<b>Duel</b>", olaf, jack, dice=ScriptedDice([[6, 6, 6, 6], [1]]))
    game.roll_round()
    events = list(game.events)
    page = report(game, "en")
    html = page.html()
    assert "contest report" in html and "&lt;b&gt;Duel&lt;/b&gt;" in html and EVIL not in html
    assert dice([6, 6, 6, 6]) in html and dice([1]) in html
    assert game.events == events and game.status == "ended"  # reported from a copy
    assert read_file(game.to_json(), "en").html().count("<span class=die") == html.count("<span class=die")


def test_a_room_export_reads_as_the_room(played):
    from_file = read_file(played.room.export_json(), "en").html()
    live = report(played.room, "en").html()
    assert sections(from_file)[0].count("<span class=die") == sections(live)[0].count("<span class=die")
    assert EVIL not in from_file and "&lt;b&gt;Ann&lt;/b&gt;" in from_file


@pytest.mark.parametrize("text, key", [
    ("not json at all", "error.report.not_json"),
    (json.dumps({"hello": 1}), "error.report.not_ours"),
    (json.dumps({"format": "raisus_panel/room", "version": 1, "events": [{"v": 1}]}), "error.room_file.damaged_at"),
    ("x" * 6_000_000, "error.limit.file_too_large"),
])
def test_files_that_are_not_reports_are_refused_clearly(text, key):
    with pytest.raises(RuleError) as refused:
        read_file(text, "en")
    assert refused.value.key == key


def test_the_command_line(played, tmp_path, capsys):
    export = tmp_path / "room.json"
    export.write_text(played.room.export_json(), encoding="utf-8")
    out = tmp_path / "game.html"
    assert main(["report", str(export), "-o", str(out), "--lang", "en"]) == 0
    assert "Brawl" in out.read_text(encoding="utf-8") and "session report" in out.read_text(encoding="utf-8")
    assert str(out) in capsys.readouterr().out
    assert main(["report", str(export), "-o", str(out), "--lang", "ko", "--contest", "2"]) == 0
    assert len(sections(out.read_text(encoding="utf-8"))) == 1
    for name, content in (("broken.json", '{"format": "raisus_panel/room", "version": 1, "events": [1]}'),
                          ("words.txt", "nope"), ("huge.json", " " * 6_000_000)):
        bad = tmp_path / name
        bad.write_text(content)
        assert main(["report", str(bad), "-o", str(tmp_path / "no.html")]) == 2
        err = capsys.readouterr().err
        assert err.startswith("raisus report:") and "Traceback" not in err and len(err.splitlines()) == 1
    assert not (tmp_path / "no.html").exists()
    assert main(["report", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["report", str(export), "--contest", "9", "-o", str(tmp_path / "no.html")]) == 2
    assert "no contest number 9" in capsys.readouterr().err


def test_the_odds_chart_shows_the_odds_as_they_stood_round_by_round(played):
    from raisus_panel.report.document import odds_as_played
    from raisus_panel.rules import odds

    first = report(played.room, "en").session.contests[0].contest
    rows = odds_as_played(first)
    assert len(rows["x"]) == len(first.history)
    # Olaf's Viking (4) against Jack's Pirate (3) before the first roll; then 4 against 2, 4 against 1
    assert rows["p_win"][0] == float(odds.contest_odds(4, 3).p_win)
    rounds = [i for i, p in enumerate(first.history) if p["kind"] == "round"]
    assert [rows["p_win"][i] for i in rounds] == [float(odds.contest_odds(4, 2).p_win),
                                                 float(odds.contest_odds(4, 1).p_win), 1.0]
    assert rows["p_next"][0] == float(odds.round_chance(4, 3))


def test_the_action_checks_are_there_but_the_gms_secret_only_in_the_gms_report(played):
    everyone = report(played.room, "en").html()
    gm = report(played.room, "en", actor=played.gm).html()
    checks = re.search(r"<section class=.around checks.>.*?</section>", everyone, re.S).group(0)
    assert "Action checks" in checks and "Cook" in checks and "Dice 3, 4 = 7" in checks
    assert "Ogre" not in checks and "5, 5, 5" not in everyone
    secret = re.search(r"<section class=.around checks.>.*?</section>", gm, re.S).group(0)
    assert "<li class='secret'>" in secret and "Dice 5, 5, 5 = 15" in secret and "Cook" in secret
    assert "행동 판정" in report(played.room, "ko").html()
    assert "around checks" not in report(played.room, "en", contest=1).html()  # one contest only


def test_teams_mobs_and_a_running_contest():
    from raisus_panel.rules import CharacterTeam, GruntMob

    knight, viking = Character("Knight", {"Knight": 4}), Character("Viking", {"Viking": 2})
    mob = GruntMob("Goblins", rating=3)
    team = CharacterTeam([knight, viking])
    game = Contest("Siege", team, mob, dice=ScriptedDice([[1, 1, 1, 1, 1], [6, 6, 6]]))
    game.roll_round()  # the team loses the round: Viking volunteers
    game.volunteer(viking)
    html = report(game, "en").html()
    assert "Character team" in html and "Knight — Knight" in html and "Grunt mob" in html
    assert "Viking volunteers for Knight" in html
    assert dice([1, 1, 1, 1, 1]) in html and dice([6, 6, 6]) in html
    assert "had not ended" in html  # still running when the report was made


def test_a_room_with_no_contest_yet():
    from raisus_panel.room import Room

    gm = Room.local("Quiet night")
    html = report(gm.room, "en").html()
    assert "No contest was played here yet." in html and "Quiet night" in html
    assert "bokeh.min.js" not in html  # no chart, no BokehJS


def test_who_sat_at_the_table_and_recovery_between_contests(played):
    played.room.apply(played.gm, "close_contest")
    played.room.apply(played.gm, "recover", {"character": played.olaf, "cliche": "Cook"})
    html = report(played.room, "en").html()
    head = re.search(r"<header class=doc-head>.*?</header>", html, re.S).group(0)
    assert "At the table: &lt;b&gt;Ann&lt;/b&gt; <span class=soft>(Olaf &lt;img src=x onerror=alert(1)&gt;)</span>" in head
    assert "Bob <span class=soft>(Jack)</span>" in head
    recovery = re.search(r"<section class=around><h2>Recovery</h2>.*?</section>", html, re.S).group(0)
    assert "Olaf &lt;img src=x onerror=alert(1)&gt;: Cook +2" in recovery
    assert len(sections(html)) == 2  # both contests closed, both reported


def test_a_notebooks_table_and_a_contest_named_by_uid(played):
    from raisus_panel.ui import Actions

    game = Contest("Duel", Character("Olaf", {"Viking": 4}), Character("Jack", {"Pirate": 1}),
                   dice=ScriptedDice([[6, 6, 6, 6], [1]]))
    actions = Actions.local(game)
    actions.act("roll_round")
    by_actions = report(actions, "en").html()
    assert "Duel" in by_actions and dice([6, 6, 6, 6]) in by_actions
    uid = played.room.past_contests[0]["contest"]
    assert len(sections(report(played.room, "en", contest=uid).html())) == 1
    with pytest.raises(RuleError):
        report(played.room, "en", contest="no-such-contest")
    with pytest.raises(TypeError):
        report("game.json")
