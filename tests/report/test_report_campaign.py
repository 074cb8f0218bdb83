"""Issue 26: campaign play in the session report, in words -- the table's rules, each session (when it
started and ended, its contests), each advancement (rolled or invested, risen or not), and in a
contest's log its pumps and lucky shots and what they cost. En and ko; names escaped; a report of a
room without campaign play is as before (no empty section)."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from raisus_panel.cli import main
from raisus_panel.report import read_file, report
from raisus_panel.room import Actor, MemoryStore, Room
from raisus_panel.rules import ScriptedDice, verify

from .conftest import EVIL

CAMPAIGN = {"pumps": True, "lucky_shots": True, "advancement": "rolls"}

#: The dice, in the order the room rolls them.
ROLLS = [
    [6, 5, 4, 1, 1, 1, 3], [4, 4, 4],  # Brawl, round 1: Olaf's Viking 4, pumped 2 and 1 lucky shot: 21 vs 12
    [6, 6], [1, 1],                    # round 2: Viking 2 (the pump paid) vs Pirate 2
    [6, 6], [1],                       # round 3: the Pirate is out
    [2, 4, 6, 2],                      # session 1's advancement: Viking 4, all even -> 5
    [5, 5, 5, 5],                      # session 2: Olaf's action check (Viking 3 + 1 lucky shot)
    [1, 2, 3, 4, 5],                   # session 2's advancement: Viking 5, not all even -> stays 5
]


def campaign_room(dice=None) -> tuple[Room, Actor, str]:
    """Three sessions: a contest with a pump and a lucky shot and an advancement that rose (the NPC's
    left unrolled); an action check and one that stayed; a third session just started."""
    room = Room.create(MemoryStore(), "<i>Friday</i> table", dice=ScriptedDice(ROLLS) if dice is None else dice)
    gm = Actor.gm()
    player = room.apply(Actor.player(""), "join", {"name": "<b>Ann</b>"})[0]["player"]
    ann = Actor.player(player["player_id"], player["name"])
    room.apply(gm, "set_rules", {"profile": CAMPAIGN})
    olaf = room.apply(ann, "create_character", {"name": f"Olaf {EVIL}", "cliches": [{"name": "Viking", "rating": 4}],
                                                "lucky_shots": 3})[0]["character"]["uid"]
    pirate = room.apply(gm, "create_character", {"name": "Pirate <u>Pete</u>", "kind": "character", "owner": "",
                                                 "cliches": [{"name": "Pirate", "rating": 3}]})[0]["character"]["uid"]
    room.apply(gm, "start_contest", {"name": "Brawl", "side_a": [olaf], "side_b": [pirate]})
    room.apply(ann, "pump", {"unit": olaf, "amount": 2})
    room.apply(ann, "spend_lucky", {"character": olaf, "amount": 1})
    for _ in range(3):
        room.apply(gm, "roll_round")
    room.apply(gm, "close_contest")
    room.apply(gm, "end_session")
    room.apply(ann, "roll_advancement", {"character": olaf, "cliche": "Viking"})
    room.apply(gm, "new_session")
    room.apply(ann, "action_check", {"character": olaf, "cliche": "Viking", "tn": 5, "lucky": 1})
    room.apply(gm, "end_session")
    room.apply(ann, "roll_advancement", {"character": olaf, "cliche": "Viking"})
    room.apply(gm, "new_session")
    return room, gm, olaf


def text(page: str) -> str:
    """The report's words, without tags (entities decoded), one space between them."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", page)))


def first_contest(page: str) -> str:
    """The first contest's section (up to what happened around the contests)."""
    return page.split("<section class=contest id='contest-1'>", 1)[1].split("<section class='around", 1)[0]


def campaign_section(page: str) -> str:
    return re.search(r"<section class='around campaign'>.*?</section>", page, re.S).group(0)


@pytest.fixture(scope="module")
def room():
    return campaign_room()


def test_the_campaign_in_english(room):
    page = report(room[0], "en").html()
    words = text(campaign_section(page))
    assert "Campaign The table's rules: lucky shots, pumps, advancement by rolls (all even: +1)." in words
    olaf = f"Olaf {EVIL}"
    one, two, three = re.split(r"Session \d ", words)[1:]
    assert re.match(r"started \d{4}-\d\d-\d\d \d\d:\d\d UTC · ended \d{4}-\d\d-\d\d \d\d:\d\d UTC ", one)
    assert "The GM set the table's rules: lucky shots, pumps, advancement by rolls (all even: +1)" in one
    assert "Contest 1: Brawl" in one
    assert f"The session ended: advancement rolls for {olaf} (Viking), Pirate <u>Pete</u> (Pirate)" in one
    assert f"{olaf} rolled 2, 4, 6, 2 for Viking: all even, Viking rises to 5" in one
    assert "Pirate <u>Pete</u> did not roll for Pirate" in one  # the next session's end replaced it
    assert "Contest" not in two and f"The session ended: advancement rolls for {olaf} (Viking)" in two
    assert f"{olaf} rolled 1, 2, 3, 4, 5 for Viking: not all even, Viking stays 5" in two
    assert three.startswith("started ") and "not ended yet" in three and "Nothing was played in this session." in three
    assert "<a href='#contest-1'>Contest 1: Brawl</a>" in page  # the contest's line leads to its section
    assert "Contest in rounds · 3 rounds · " in text(page) and "· Session 1 · with lucky shots, pumps" in text(page)


def test_the_contests_log_says_the_pump_the_lucky_shot_and_what_they_cost(room):
    words = text(first_contest(report(room[0], "en").html()))
    olaf = f"Olaf {EVIL}"
    for said in (f"{olaf} pumps by 2 for the next roll", f"{olaf} spends 1 lucky shot on the next roll",
                 "Viking: 7 dice · pump 2 · 1 lucky shot", "What the roll cost",
                 f"{olaf}'s Viking pays the pump: −2", f"{olaf} spent 1 lucky shot"):
        assert said in words, said


def test_the_campaign_in_korean(room):
    page = report(room[0], "ko").html()
    words = text(campaign_section(page))
    olaf = f"Olaf {EVIL}"
    assert "캠페인 테이블 규칙: 행운의 한 방, 펌프, 판정으로 성장 (모두 짝수면 +1)." in words
    one, two, three = re.split(r"세션 \d ", words)[1:]
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC 시작 · \d{4}-\d\d-\d\d \d\d:\d\d UTC 끝 ", one)
    assert "GM이 테이블 규칙을 정했습니다: 행운의 한 방, 펌프, 판정으로 성장 (모두 짝수면 +1)" in one
    assert "대결 1: Brawl" in one
    assert f"세션이 끝났습니다. 성장 판정: {olaf} (Viking), Pirate <u>Pete</u> (Pirate)" in one
    assert f"{olaf}: Viking 성장 판정 2, 4, 6, 2. 모두 짝수라 Viking이 5점이 됩니다" in one
    assert "Pirate <u>Pete</u>: Pirate 성장 판정을 굴리지 않았습니다" in one
    assert f"{olaf}: Viking 성장 판정 1, 2, 3, 4, 5. 모두 짝수는 아니라 Viking은 5점 그대로입니다" in two
    assert "아직 끝나지 않음" in three and "이 세션에는 플레이한 것이 없습니다." in three
    assert "세션 1 · 행운의 한 방, 펌프 사용" in text(page)
    contest = text(first_contest(page))
    for said in (f"{olaf}: 다음 판정에 2만큼 펌프", f"{olaf}: 다음 판정에 행운의 한 방 1개", "판정의 대가",
                 f"{olaf}의 Viking: 펌프 대가 -2", f"{olaf}: 행운의 한 방 1개 씀"):
        assert said in contest, said
    assert "당신" not in words


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_names_are_text_and_nothing_is_shown_raw(room, lang):
    page = report(room[0], lang).html()
    section = campaign_section(page)
    for raw in (EVIL, "<u>Pete</u>", "<b>Ann</b>"):
        assert raw not in page
    assert "Olaf &lt;img src=x onerror=alert(1)&gt;" in section and "Pirate &lt;u&gt;Pete&lt;/u&gt;" in section
    uids = [c.uid for c in room[0].characters]
    for raw in (*uids, "advancement_rolled", "session_ended", "rules_set", "lucky_shots", "{", "report."):
        assert raw not in section, raw


def test_advancement_by_points_says_what_was_invested_and_what_waits():
    room = Room.create(MemoryStore(), "Points", dice=ScriptedDice([]))
    gm = Actor.gm()
    player = room.apply(Actor.player(""), "join", {"name": "Bo"})[0]["player"]
    bo = Actor.player(player["player_id"], player["name"])
    room.apply(gm, "set_rules", {"profile": {"advancement": "points", "creation_dice": 10}})
    made = [room.apply(bo, "create_character", {"name": name, "cliches": [{"name": "Viking", "rating": 3}]})
            for name in ("Olaf", "Sven")]
    olaf = made[0][0]["character"]["uid"]
    room.apply(gm, "end_session")
    room.apply(bo, "invest_advancement", {"character": olaf, "cliche": "Sailor"})
    en = text(campaign_section(report(room, "en").html()))
    assert ("The table's rules: a creation budget of 10 dice, at most 4 in one cliché, "
            "advancement by points (1 creation die per session).") in en
    assert "The session ended: a creation die to invest for Olaf, Sven" in en
    assert "Olaf invested a creation die: a new cliché, Sailor (1)" in en
    assert "Sven may still invest its creation die" in en
    assert "No contest was played here yet." in text(report(room, "en").html())
    ko = text(campaign_section(report(room, "ko").html()))
    assert "테이블 규칙: 생성 주사위 10개 예산 (클리셰 하나에 최대 4개), 점수로 성장 (세션마다 생성 주사위 1개)." in ko
    assert "세션이 끝났습니다. 생성 주사위 1개를 투자할 캐릭터: Olaf, Sven" in ko
    assert "Olaf: 생성 주사위 투자, 새 클리셰 Sailor (1)" in ko and "Sven: 아직 생성 주사위를 투자할 수 있습니다" in ko


def test_a_room_without_campaign_play_has_no_campaign_section(played):
    before = report(played.room, "en").html()
    assert "campaign" not in before  # not even its stylesheet
    assert "Campaign" not in text(before) and "Session 1" not in text(before)
    assert "세션 1" not in text(report(played.room, "ko").html())
    # the table's rules changed, but no campaign option: still none
    played.room.apply(played.gm, "close_contest")
    played.room.apply(played.gm, "set_rules", {"profile": {"inappropriate_damage": "vs_appropriate"}})
    assert "campaign" not in report(played.room, "en").html()


def test_one_contests_report_says_its_session_and_options(room):
    page = report(room[0], "en", contest=1).html()
    assert "· Session 1 · with lucky shots, pumps" in text(page) and "<section class='around campaign'>" not in page
    assert "세션 1 · 행운의 한 방, 펌프 사용" in text(report(room[0], "ko", contest=1).html())


def test_a_room_export_and_the_cli_report_say_the_campaign(tmp_path):
    room, gm, _ = campaign_room()
    export = tmp_path / "room.json"
    export.write_text(room.export_json(gm), encoding="utf-8")
    assert "Viking rises to 5" in text(read_file(export.read_text(encoding="utf-8"), "en").html())
    out = tmp_path / "report.html"
    assert main(["report", str(export), "-o", str(out), "--lang", "ko"]) == 0
    assert "모두 짝수라 Viking이 5점이 됩니다" in text(out.read_text(encoding="utf-8"))


def test_advancement_rolls_on_committed_dice_verify_and_are_reported(tmp_path, capsys):
    room = Room.create(MemoryStore(), "Committed")  # the room's own, committed dice
    gm = Actor.gm()
    room.apply(gm, "set_rules", {"profile": CAMPAIGN})
    olaf = room.apply(gm, "create_character", {"name": "Olaf", "kind": "character", "owner": "",
                                               "cliches": [{"name": "Viking", "rating": 3}]})[0]["character"]["uid"]
    room.apply(gm, "action_check", {"character": olaf, "cliche": "Viking", "tn": 5})
    room.apply(gm, "end_session")
    rolled = room.apply(gm, "roll_advancement", {"character": olaf, "cliche": "Viking"})[-1]
    room.apply(gm, "reveal_checks")
    export = tmp_path / "room.json"
    export.write_text(room.export_json(gm), encoding="utf-8")
    assert all(check.ok for check in verify(export.read_text(encoding="utf-8")))
    assert main(["verify", str(export)]) == 0
    assert "verified" in capsys.readouterr().out
    faces = ", ".join(map(str, rolled["roll"]["faces"]))
    assert f"Olaf rolled {faces} for Viking" in text(report(room, "en").html())
