"""WhatNow: the one line at the top of a contest that says what happens next, for each person.

Every state of the contest table, for the GM, a player who owns a unit, a player with no unit in the
contest, a spectator, and a notebook's local table; each line in English and in Korean (particles by
the last syllable: "기사 아린이" but "해적 마리가"; "요리사를" but "검술을"). Every line is also held
to the buttons: a line that asks for a command names one the room accepts now, and a line that says
"wait" goes with a disabled roll button.
"""

from __future__ import annotations

from raisus_panel import i18n
from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice
from raisus_panel.ui import Actions, ContestTable, ContestView, WhatNow
from raisus_panel.ui._base import esc

from .conftest import click, duel, free_trio_vs_ogre, settle, team_vs_ogre, watcher_count
from .drivers import Screen, roll_button

ROLES = ("gm", "ann", "bob", "spectator")


class Table:
    """A shared room: the GM, Ann (plays the characters given ``owner="p1"``), Bob (plays none) and a
    spectator, each with their own page: a ContestTable (GM, players) or a ContestView (spectator)."""

    def __init__(self, rolls=()):
        self.gm = Room.local("Tavern", dice=ScriptedDice(list(rolls)))
        self.room = self.gm.room
        self.ann = RoomSession(self.room, Actor.player("p1", "Ann"))
        self.ann.act("join", name="Ann")
        self.bob = RoomSession(self.room, Actor.player("p2", "Bob"))
        self.bob.act("join", name="Bob")
        self.spectator = RoomSession(self.room, Actor.spectator())
        self.actions = {"gm": Actions(self.gm), "ann": Actions(self.ann), "bob": Actions(self.bob),
                        "spectator": Actions(self.spectator)}
        self.pages = {role: (ContestView if role == "spectator" else ContestTable)(actions=a, lang="en")
                      for role, a in self.actions.items()}

    def character(self, name, cliches, owner=""):
        self.gm.act("save_character", data={"name": name, "owner": owner,
                                            "cliches": [{"name": c, "rating": r} for c, r in cliches.items()]})
        return self.room.characters[-1]

    def lines(self) -> dict[str, tuple[str, str]]:
        """Each role's line as (English, Korean), after checking it against that page's buttons."""
        out = {}
        for role in ROLES:
            page, actions = self.pages[role], self.actions[role]
            out[role] = agree(page, actions)
        return out


def step_of(actions):
    """The step a page on ``actions`` is told (a WhatNow of its own: the same line a page shows)."""
    return WhatNow(actions=actions).step


def agree(page, actions) -> tuple[str, str]:
    """The line a page shows, (English, Korean), held to the page's own buttons."""
    s = Screen(page)
    step = step_of(actions)
    english, korean = step.text("en"), step.text("ko")
    shown = step.text(page.language)
    line = s.what_now_html()
    assert line is not None and s.what_now.endswith(shown)
    assert esc(shown) in line and "raisus-what-now" in line
    if step.mine:  # it asks for a command: the room takes it now
        assert actions.why_not_error(step.command, **step.args) is None, (step, english)
        assert "raisus-what-now mine" in line and "▶" in line
    else:
        assert "mine" not in line and "▷" in line
    waits = step.key.split(".")[1] in ("wait", "you", "watch")
    if isinstance(page, ContestTable) and actions.contest is not None and not step.mine and waits:
        # it says wait: this page cannot roll (a button not shown cannot be pressed either)
        for button in [roll_button(s), *s.buttons(s.t("contest.exchange"))]:
            assert button is None or button.disabled, (step, english)
    return english, korean


def page(table, role) -> Screen:
    return Screen(table.pages[role])


def duel_in_room(cliches_arin=None, cliches_mari=None, rolls=()):
    """기사 아린 (Ann's) against 해적 마리 (the GM's NPC), started."""
    table = Table(rolls)
    arin = table.character("기사 아린", cliches_arin or {"기사": 4}, owner="p1")
    mari = table.character("해적 마리", cliches_mari or {"해적": 3})
    table.gm.act("start_contest", name="결투", side_a=[arin.uid], side_b=[mari.uid])
    return table, arin, mari


# -- no contest, and after one -------------------------------------------------------------------
#: A player with no character of their own (issue 21: the first evening said only "wait for the GM").
MAKE = ("Make your character on the Characters tab: the GM can then bring it into a contest.",
        "캐릭터 탭에서 내 캐릭터를 만드세요. 그래야 GM이 대결에 넣을 수 있습니다.")
#: The same player while a contest runs without them.
WATCHING = ("You have no character in this contest: watching. To play in the next one, make your character "
            "on the Characters tab.", "이 대결에는 내 캐릭터가 없습니다. 지켜보는 중입니다. 다음 대결에 참여하려면 "
            "캐릭터 탭에서 내 캐릭터를 만드세요.")


def test_a_first_evening_with_no_characters_says_who_makes_them():
    """Issue 21: nobody has a character yet -- the players make theirs, the GM waits for them or makes NPCs."""
    table = Table()
    assert table.lines() == {
        "gm": ("Nobody has a character yet: wait for the players to make theirs on the Characters tab, or make "
               "NPCs there.", "아직 아무도 캐릭터가 없습니다. 플레이어들이 캐릭터 탭에서 캐릭터를 만들 때까지 "
               "기다리거나, 거기서 NPC를 만드세요."),
        "ann": MAKE, "bob": MAKE,
        "spectator": ("Nobody has a character yet: waiting for the players to make theirs.",
                      "아직 아무도 캐릭터가 없습니다. 플레이어들이 캐릭터를 만들 때까지 기다리는 중입니다.")}
    step = step_of(table.actions["ann"])
    assert step.mine and step.command == "create_character"  # asks Ann to act: "▶", and the room would take it
    gm = page(table, "gm")
    assert gm.what_now and gm.has("button", gm.t("contest.start"))


def test_no_contest_yet():
    table = Table()
    table.character("기사 아린", {"기사": 4}, owner="p1")  # Ann's: only Bob has none left to make
    wait = ("Waiting for the GM to start a contest.", "GM이 대결을 시작할 때까지 기다리는 중입니다.")
    assert table.lines() == {
        "gm": ("Start a contest: pick both sides in the form below.", "대결을 시작하세요: 아래 양식에서 양편을 고르세요."),
        "ann": wait, "bob": MAKE, "spectator": wait}
    gm = page(table, "gm")
    assert gm.what_now and gm.has("button", gm.t("contest.start"))


def test_a_past_contest_names_the_contest_that_closed():
    table, arin, mari = duel_in_room()
    table.gm.act("end_contest", outcome="비겼다", winner=None)
    table.gm.act("close_contest")
    wait = ("결투 is closed: waiting for the GM to start the next contest.",
            "결투는 끝났습니다. GM이 다음 대결을 시작할 때까지 기다리는 중입니다.")  # 투: no final consonant
    assert table.lines() == {
        "gm": ("결투 is closed: start the next contest in the form below.",
               "결투는 끝났습니다. 아래 양식에서 다음 대결을 시작하세요."),
        "ann": wait, "bob": MAKE, "spectator": wait}
    table.gm.act("start_contest", name="검술 시합", side_a=[arin.uid], side_b=[mari.uid])
    table.gm.act("end_contest", outcome="끝", winner=0)
    table.gm.act("close_contest")
    assert table.lines()["ann"][1] == "검술 시합은 끝났습니다. GM이 다음 대결을 시작할 때까지 기다리는 중입니다."


# -- setup and choosing --------------------------------------------------------------------------
def test_setup_a_contest_just_started_with_nothing_to_choose():
    table, arin, mari = duel_in_room()
    assert table.lines() == {
        "gm": ("Open round 1 for the players, or roll it yourself.", "플레이어에게 1라운드를 열어 주세요. 직접 굴려도 됩니다."),
        "ann": ("Waiting for the GM to open round 1.", "GM이 1라운드를 열 때까지 기다리는 중입니다."),
        "bob": WATCHING,
        "spectator": ("Round 1: waiting for the GM.", "1라운드: GM을 기다리고 있습니다.")}
    assert page(table, "gm").can_press(page(table, "gm").t("contest.open_round"))


def test_choosing_clichés_each_person_is_told_whose_choice_it_is():
    table, arin, mari = duel_in_room({"기사": 4, "요리사": 2}, {"해적": 3, "검술": 2})
    lines = table.lines()
    # the GM's own NPC first; Ann's choice is Ann's
    assert lines["gm"] == ("Choose a cliché for 해적 마리.", "해적 마리가 쓸 클리셰를 고르세요.")
    assert lines["ann"] == ("Your turn: choose a cliché for 기사 아린.", "내 차례: 기사 아린이 쓸 클리셰를 고르세요.")
    assert lines["bob"] == WATCHING
    assert lines["spectator"] == ("Waiting for a cliché to be chosen for 기사 아린.",
                                  "기사 아린이 쓸 클리셰를 고를 때까지 기다리는 중입니다.")
    assert step_of(table.actions["ann"]).args == {"unit": arin.uid, "cliche": "기사"}
    table.gm.act("choose", unit=mari.uid, cliche="해적")
    lines = table.lines()
    assert lines["gm"] == ("Waiting for a cliché to be chosen for 기사 아린.",
                           "기사 아린이 쓸 클리셰를 고를 때까지 기다리는 중입니다.")
    assert lines["ann"][0] == "Your turn: choose a cliché for 기사 아린."
    # Ann picks in her page's picker: the line moves on, on every page
    ann = page(table, "ann")
    ann.card("기사 아린").choose(ann.t("contest.cliche"), "기사 (")
    assert table.lines()["ann"] == ("Waiting for the GM to open round 1.", "GM이 1라운드를 열 때까지 기다리는 중입니다.")


def test_inappropriate_clichés_wait_for_the_gms_approval():
    table, arin, mari = duel_in_room({"기사": 4, "요리사": 2}, {"해적": 3, "검술": 2})
    table.ann.act("choose", unit=arin.uid, cliche="요리사", appropriate=False)
    table.gm.act("choose", unit=mari.uid, cliche="검술", appropriate=False)
    lines = table.lines()
    # the first waiting unit: 기사 아린 (side A)
    assert lines["gm"] == ("Approve 기사 아린's inappropriate cliché 요리사, or ask for another.",
                           "기사 아린이 고른 부적합 클리셰 요리사를 승인하거나, 다른 클리셰를 고르게 하세요.")
    assert lines["ann"] == ("Waiting for the GM to approve your inappropriate cliché 요리사 for 기사 아린 "
                            "(or choose another).",
                            "GM이 기사 아린의 부적합 클리셰 요리사를 승인할 때까지 기다리는 중입니다 (다른 클리셰를 골라도 됩니다).")
    assert lines["spectator"] == ("Waiting for the GM to approve 기사 아린's inappropriate cliché 요리사.",
                                  "GM이 기사 아린의 부적합 클리셰 요리사를 승인할 때까지 기다리는 중입니다.")
    gm = page(table, "gm")
    gm.card("기사 아린").click(gm.t("contest.approve"))  # the GM's approve button
    lines = table.lines()
    assert lines["gm"] == ("Approve 해적 마리's inappropriate cliché 검술, or ask for another.",
                           "해적 마리가 고른 부적합 클리셰 검술을 승인하거나, 다른 클리셰를 고르게 하세요.")
    assert lines["spectator"][1] == "GM이 해적 마리의 부적합 클리셰 검술을 승인할 때까지 기다리는 중입니다."
    # Ann's is approved; the round is not open yet
    assert lines["ann"] == ("Waiting for the GM to open round 1.", "GM이 1라운드를 열 때까지 기다리는 중입니다.")


# -- rounds ----------------------------------------------------------------------------------------
def test_round_not_open_then_open_then_rolled_by_the_player():
    table, arin, mari = duel_in_room(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    page(table, "gm").click(page(table, "gm").t("contest.open_round"))
    assert table.lines() == {
        "gm": ("Round 1 is open: waiting for the players to roll it (or roll it yourself).",
               "1라운드가 열렸습니다. 플레이어가 굴릴 때까지 기다리는 중입니다 (직접 굴려도 됩니다)."),
        "ann": ("Your turn: round 1 is open, roll it.", "내 차례: 1라운드가 열렸습니다. 굴리세요."),
        "bob": WATCHING,
        "spectator": ("Round 1 is open: waiting for the players to roll.",
                      "1라운드가 열렸습니다. 플레이어가 굴릴 때까지 기다리는 중입니다.")}
    assert not roll_button(page(table, "ann")).disabled
    click(roll_button(page(table, "ann")))
    lines = table.lines()
    assert lines["gm"][0] == "Open round 2 for the players, or roll it yourself."
    assert lines["ann"] == ("Waiting for the GM to open round 2.", "GM이 2라운드를 열 때까지 기다리는 중입니다.")
    assert lines["spectator"] == ("Round 2: waiting for the GM.", "2라운드: GM을 기다리고 있습니다.")


def test_a_tie_is_re_rolled_in_the_same_round():
    table, arin, mari = duel_in_room(rolls=[[3, 3, 3, 3], [4, 4, 4], [1, 1, 1, 1], [2, 2, 2]])
    table.gm.act("roll_round")
    assert table.room.contest.round == 1 and len(table.room.contest.last_roll["attempts"]) == 2
    lines = table.lines()  # one round was played, whatever the attempts: round 2 is next
    assert lines["gm"][0] == "Open round 2 for the players, or roll it yourself."
    assert lines["spectator"] == ("Round 2: waiting for the GM.", "2라운드: GM을 기다리고 있습니다.")


def test_exchanges_with_several_units_on_a_side():
    table = Table(rolls=[[6, 6, 6, 6], [1] * 8, [1, 1], [6] * 7])
    arin = table.character("기사 아린", {"기사": 4}, owner="p1")
    tor = table.character("바이킹 토르", {"바이킹": 2}, owner="p1")
    ogre = table.character("오우거", {"오우거": 8})
    table.gm.act("start_contest", name="싸움", side_a=[arin.uid, tor.uid], side_b=[ogre.uid])
    lines = table.lines()
    assert lines["gm"] == ("Open round 1 for the players, or pick attacker and target for an exchange yourself.",
                           "플레이어에게 1라운드를 열어 주세요. 직접 공격과 대상을 골라 맞붙게 해도 됩니다.")
    assert lines["ann"] == ("Waiting for the GM to open round 1.", "GM이 1라운드를 열 때까지 기다리는 중입니다.")
    page(table, "gm").click(page(table, "gm").t("contest.open_round"))
    lines = table.lines()
    assert lines["ann"] == ("Your turn: round 1 is open, pick attacker and target for an exchange.",
                            "내 차례: 1라운드가 열렸습니다. 공격과 대상을 골라 맞붙으세요.")
    assert lines["gm"] == ("Round 1: pick attacker and target for the next exchange.",
                           "1라운드: 다음 맞붙기의 공격과 대상을 고르세요.")
    assert lines["spectator"][0] == "Round 1 is open: waiting for the players to roll."
    table.ann.act("exchange", attacker=arin.uid, target=ogre.uid)  # the round stays open for more exchanges
    lines = table.lines()
    assert lines["gm"] == ("Round 1: play another exchange, or end the round.",
                           "1라운드: 맞붙기를 더 하거나 라운드를 끝내세요.")
    table.gm.act("exchange", attacker=tor.uid, target=ogre.uid)  # 바이킹 토르 loses: 2 -> 1
    table.gm.act("end_round")
    lines = table.lines()
    assert lines["gm"][0] == "Open round 2 for the players, or pick attacker and target for an exchange yourself."
    assert lines["ann"][0] == "Waiting for the GM to open round 2."


def test_a_unit_defeated_leaves_one_unit_a_side_and_the_rounds_are_rolled_again():
    contest, actions, (knight, viking, squire, ogre) = free_trio_vs_ogre(
        rolls=[[1], [2] * 8, [6] * 4, [1] * 8])
    table = ContestTable(actions=actions, lang="en")
    assert agree(table, actions)[0] == "Round 1: pick attacker and target for the next exchange."
    click_exchange(table, squire, ogre)  # the Squire (1) loses: defeated
    assert contest.is_defeated(squire) and contest.status == "active"
    assert agree(table, actions)[0] == "Round 1: play another exchange, or end the round."
    click_exchange(table, knight, ogre)
    Screen(table).click(Screen(table).t("contest.end_round"))
    # Knight and Viking are still two units: exchanges go on
    assert agree(table, actions) == ("Round 2: pick attacker and target for the next exchange.",
                                     "2라운드: 다음 맞붙기의 공격과 대상을 고르세요.")


def click_exchange(table, attacker, target):
    s = Screen(table)
    s.choose(s.t("contest.attacker"), attacker.name)
    s.choose(s.t("contest.target"), target.name)
    s.click(s.t("contest.exchange"))
    assert s.error is None, s.error


def test_two_against_one_down_to_one_against_one_rolls_the_round():
    a = Character("기사 아린", {"기사": 4})
    b = Character("종자 도리", {"종자": 1})
    c = Character("해적 마리", {"해적": 3})
    contest = Contest("결투", [a, b], c, dice=ScriptedDice([[1], [6, 6, 6]]))
    actions = Actions.local(contest)
    table = ContestTable(actions=actions, lang="en")
    click_exchange(table, b, c)
    assert contest.is_defeated(b)
    assert agree(table, actions) == ("Round 1: play another exchange, or end the round.",
                                     "1라운드: 맞붙기를 더 하거나 라운드를 끝내세요.")
    Screen(table).click(Screen(table).t("contest.end_round"))
    # a notebook's table: nobody else rolls, the GM rolls the round itself
    assert agree(table, actions) == ("Roll round 2.", "2라운드를 굴리세요.")


# -- teams: volunteer window and revenge ---------------------------------------------------------
def team_in_room(rolls):
    table = Table(rolls)
    arin = table.character("기사 아린", {"기사": 4}, owner="p1")
    tor = table.character("바이킹 토르", {"바이킹": 2}, owner="p1")
    dori = table.character("종자 도리", {"종자": 1}, owner="p1")
    ogre = table.character("오우거", {"오우거": 8})
    table.gm.act("start_contest", name="싸움", side_a=[], side_b=[ogre.uid],
                 teams=[{"side": 0, "members": [arin.uid, tor.uid, dori.uid], "name": "원정대"}])
    return table, (arin, tor, dori, ogre)


def test_a_team_lost_the_round_a_member_may_volunteer_then_the_revenge_bonus():
    table, (arin, tor, dori, ogre) = team_in_room([[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8])
    table.gm.act("roll_round")  # the team loses round 1
    lines = table.lines()
    assert lines["ann"] == ("Your team 원정대 lost the round: a member may volunteer "
                            "(twice the loss, revenge bonus next round).",
                            "내 팀 원정대가 라운드에서 졌습니다. 팀원 한 명이 자원할 수 있습니다 (피해는 두 배, 다음 라운드에 복수 보너스).")
    assert lines["gm"] == ("원정대 lost the round: a member may volunteer to take the hit before the next roll. "
                           "Rolling on means nobody volunteered: 기사 아린 keeps the hit.",
                           "원정대가 라운드에서 졌습니다. 다음 라운드를 굴리기 전에 팀원 한 명이 대신 피해를 받겠다고 자원할 수 있습니다. "
                           "그대로 굴리면 아무도 자원하지 않은 것이 됩니다. 피해는 기사 아린이 받습니다.")
    # every page's roll button says that rolling on closes the window
    assert roll_button(page(table, "gm")).name == "No volunteer: roll round 2"
    assert lines["spectator"] == ("원정대 lost the round: a member may volunteer.",
                                  "원정대가 라운드에서 졌습니다. 팀원 한 명이 자원할 수 있습니다.")
    assert lines["bob"] == WATCHING
    # Ann presses a member's Volunteer button: the revenge bonus is armed for round 2
    ann = page(table, "ann")
    ann.card("원정대").within(f"{tor.name} — ").click(ann.t("contest.volunteer"))
    assert ann.error is None
    lines = table.lines()
    assert lines["gm"] == ("Open round 2 for the players, or roll it yourself. 원정대 rolls with the revenge bonus.",
                           "플레이어에게 2라운드를 열어 주세요. 직접 굴려도 됩니다. 원정대는 복수 보너스를 받고 굴립니다.")
    assert lines["ann"] == ("Waiting for the GM to open round 2.", "GM이 2라운드를 열 때까지 기다리는 중입니다.")
    assert lines["spectator"] == ("Round 2: waiting for the GM. 원정대 rolls with the revenge bonus.",
                                  "2라운드: GM을 기다리고 있습니다. 원정대는 복수 보너스를 받고 굴립니다.")
    page(table, "gm").click(page(table, "gm").t("contest.open_round"))
    click(roll_button(page(table, "ann")))  # won with the bonus: it is used up, and no window opens
    lines = table.lines()
    assert lines["ann"] == ("Waiting for the GM to open round 3.", "GM이 3라운드를 열 때까지 기다리는 중입니다.")
    assert "revenge" not in lines["gm"][0]


def test_the_notebook_table_volunteer_window_and_revenge():
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(
        rolls=[[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8])
    table = ContestTable(actions=actions, lang="en")
    assert agree(table, actions) == ("Roll round 1.", "1라운드를 굴리세요.")
    s = Screen(table)
    click(roll_button(s))
    assert agree(table, actions)[0] == (f"{team.name} lost the round: a member may volunteer to take the hit "
                                        "before the next roll. Rolling on means nobody volunteered: Knight keeps "
                                        "the hit.")
    assert roll_button(s).name == "No volunteer: roll round 2"
    s.card(team.name).within("Viking — ").click(s.t("contest.volunteer"))
    assert agree(table, actions)[0] == f"Roll round 2. {team.name} rolls with the revenge bonus."
    assert roll_button(s).name == "Roll round 2"


def test_a_leader_at_0_the_gm_is_told_what_rolling_on_does_before_pressing_it():
    """Issue 21, Medium 3: Gunnar (Skald 1) leads Brother Monk (Monk 1) and loses a round. The window
    comes first; the next roll means nobody volunteered, and then Gunnar's fall breaks up the team."""
    gunnar, monk = Character("Gunnar", {"Skald": 1}), Character("Brother Monk", {"Monk": 1})
    team = CharacterTeam([gunnar, monk], leader=gunnar)
    contest = Contest("Ogre fight", team, Character("Ogre", {"Ogre": 3}), dice=ScriptedDice([[1, 1], [2, 2, 2]]))
    actions = Actions.local(contest)
    table = ContestTable(actions=actions, lang="en")
    s = Screen(table)
    click(roll_button(s))
    assert contest.status == "active" and contest.volunteer_window
    en, ko = agree(table, actions)
    assert en.endswith("Rolling on means nobody volunteered: Gunnar stays at 0, and "
                       f"{team.name} breaks up (each member loses 1).")
    assert "해체됩니다" in ko
    assert roll_button(s).name == "No volunteer: roll round 2"
    assert s.card(team.name).within("Brother Monk — ").can_press(s.t("contest.volunteer"))  # Monk is offered it


# -- the end: fates, closing ----------------------------------------------------------------------
def test_contest_ended_the_winners_write_the_fates_then_the_gm_closes_it():
    table, arin, mari = duel_in_room(cliches_mari={"해적": 1}, rolls=[[6, 6, 6, 6], [1]])
    table.gm.act("roll_round")  # 해적 마리 falls: 기사 아린's side (Ann) wins
    contest = table.room.contest
    assert contest.status == "ended" and contest.owed_fates == [mari.uid]
    lines = table.lines()
    assert lines["ann"] == ("Your side won: write the fate of 해적 마리.", "우리 편이 이겼습니다. 해적 마리의 운명을 쓰세요.")
    assert lines["gm"] == ("Contest over: the winners write the fate of 해적 마리 (you may write it, or veto theirs).",
                           "대결이 끝났습니다. 이긴 편이 해적 마리의 운명을 씁니다 (직접 써도 되고, 쓴 운명을 거부해도 됩니다).")
    wait = ("Contest over: waiting for the winners to write the fate of 해적 마리.",
            "대결이 끝났습니다. 이긴 편이 해적 마리의 운명을 쓸 때까지 기다리는 중입니다.")
    assert lines["spectator"] == wait
    # Bob, whose characters were not in it, is told what everyone watching is told, and that
    not_in = ("None of your characters was in this contest.", "이 대결에는 내 캐릭터가 없었습니다.")
    assert lines["bob"] == tuple(f"{w} {n}" for w, n in zip(wait, not_in))
    ann = page(table, "ann")
    row = ann.within(ann.t("contest.fate"))
    row.type(ann.t("contest.fate"), "바다에 빠졌다")
    row.click(ann.t("contest.decide_fate"))
    lines = table.lines()
    assert lines["gm"] == ("Contest over: restore spent dice if you like, then close the contest.",
                           "대결이 끝났습니다. 필요하면 잃은 주사위를 회복시킨 뒤 대결을 닫으세요.")
    assert lines["ann"] == ("Contest over: 기사 아린 won. Waiting for the GM to close the contest.",
                            "대결이 끝났습니다. 기사 아린이 이겼습니다. GM이 대결을 닫을 때까지 기다리는 중입니다.")
    over = ("Contest over: 기사 아린 won.", "대결이 끝났습니다. 기사 아린이 이겼습니다.")
    assert lines["spectator"] == over
    assert lines["bob"] == tuple(f"{w} {n}" for w, n in zip(over, not_in))
    gm = page(table, "gm")
    gm.click(gm.t("contest.close"))
    gm.confirm()
    assert table.room.contest is None
    assert table.lines()["ann"][0] == "결투 is closed: waiting for the GM to start the next contest."


def test_a_losing_player_waits_for_the_winners_and_a_vowel_ending_winner_takes_가():
    table, arin, mari = duel_in_room(cliches_arin={"기사": 1}, rolls=[[1], [6, 6, 6]])
    table.gm.act("roll_round")
    lines = table.lines()
    assert lines["ann"] == ("Contest over: waiting for the winners to write the fate of 기사 아린.",
                            "대결이 끝났습니다. 이긴 편이 기사 아린의 운명을 쓸 때까지 기다리는 중입니다.")
    # no player won: the GM writes the fate
    assert lines["gm"] == ("Contest over: write the fate of 기사 아린.", "대결이 끝났습니다. 기사 아린의 운명을 쓰세요.")
    table.gm.act("decide_fate", character=arin.uid, text="포로가 되었다")
    assert table.lines()["spectator"] == ("Contest over: 해적 마리 won.", "대결이 끝났습니다. 해적 마리가 이겼습니다.")


def test_an_early_end_without_a_winner():
    table, arin, mari = duel_in_room()
    table.gm.act("end_contest", outcome="비가 와서 그만뒀다", winner=None)
    lines = table.lines()
    assert lines["ann"] == ("Contest over, without a winner. Waiting for the GM to close the contest.",
                            "승자 없이 대결이 끝났습니다. GM이 대결을 닫을 때까지 기다리는 중입니다.")
    assert lines["spectator"] == ("Contest over, without a winner.", "승자 없이 대결이 끝났습니다.")


def test_the_notebook_table_to_the_end():
    """A local table (one person, every role): the GM plays, and there is no one to open rounds for."""
    contest, actions, viking, pirate = duel(b=("Pirate", 1), rolls=[[1, 1, 1, 2], [6], [6, 6, 6], [1]])
    table = ContestTable(actions=actions, lang="en")
    assert agree(table, actions) == ("Roll round 1.", "1라운드를 굴리세요.")
    s = Screen(table)
    open_round = s.buttons(s.t("contest.open_round"))
    assert not open_round or not open_round[0].disabled
    click(roll_button(s))
    assert agree(table, actions) == ("Roll round 2.", "2라운드를 굴리세요.")
    click(roll_button(s))
    assert agree(table, actions) == ("Contest over: write the fate of Pirate.", "대결이 끝났습니다. Pirate의 운명을 쓰세요.")
    row = s.within(s.t("contest.fate"))
    row.type(s.t("contest.fate"), "Walks the plank")
    row.click(s.t("contest.decide_fate"))
    assert agree(table, actions) == ("Contest over: restore spent dice if you like, then close the contest.",
                                     "대결이 끝났습니다. 필요하면 잃은 주사위를 회복시킨 뒤 대결을 닫으세요.")
    s.click(s.t("contest.close"))
    s.confirm()
    assert agree(table, actions) == ("Brawl is closed: start the next contest in the form below.",
                                     "Brawl은 끝났습니다. 아래 양식에서 다음 대결을 시작하세요.")


def test_the_notebook_table_choosing_and_approving():
    cook = Character("요리사 보라", {"요리": 3, "칼질": 2})
    king = Character("마왕", {"마왕": 4})
    contest = Contest("무술 시합", cook, king, dice=ScriptedDice([[6, 6, 5], [3, 3, 3, 3]]))
    actions = Actions.local(contest)
    table = ContestTable(actions=actions, lang="ko")
    assert agree(table, actions) == ("Choose a cliché for 요리사 보라.", "요리사 보라가 쓸 클리셰를 고르세요.")
    s = Screen(table)
    assert s.what_now.endswith(": 요리사 보라가 쓸 클리셰를 고르세요.")  # the table's language
    card = s.card("요리사 보라")
    card.tick(s.t("contest.inappropriate"))
    card.choose(s.t("contest.cliche"), "칼질")
    assert agree(table, actions) == ("Approve 요리사 보라's inappropriate cliché 칼질, or ask for another.",
                                     "요리사 보라가 고른 부적합 클리셰 칼질을 승인하거나, 다른 클리셰를 고르게 하세요.")
    card.click(s.t("contest.approve"))
    assert agree(table, actions) == ("Roll round 1.", "1라운드를 굴리세요.")


# -- the component itself ------------------------------------------------------------------------
def test_the_line_follows_the_language_and_the_role_of_its_page():
    table, arin, mari = duel_in_room()
    line = WhatNow(actions=table.actions["ann"], lang="ko")
    assert line.text == "GM이 1라운드를 열 때까지 기다리는 중입니다."
    line.lang = "en"
    assert line.text == "Waiting for the GM to open round 1." and "What now" in Screen(line).what_now
    line.actions = table.actions["gm"]
    assert line.text == "Open round 1 for the players, or roll it yourself."
    table.pages["ann"].lang = "ko"  # the table hands its language on to its line
    assert page(table, "ann").what_now.endswith(": GM이 1라운드를 열 때까지 기다리는 중입니다.")
    assert "지금 할 일" in page(table, "ann").what_now


def test_spectators_share_one_rendering_per_change():
    table, arin, mari = duel_in_room()
    other = ContestView(actions=Actions(RoomSession(table.room, Actor.spectator())), lang="en")
    # the same string, not an equal one: made once per change for every page that shows it
    assert Screen(other).what_now_html() is page(table, "spectator").what_now_html()
    table.gm.act("open_round", open=True)  # the round opens: not an event of the contest, still a change
    assert Screen(other).what_now == page(table, "spectator").what_now
    assert Screen(other).what_now.endswith(": Round 1 is open: waiting for the players to roll.")


def test_disposing_the_table_disposes_its_line():
    table, arin, mari = duel_in_room()
    actions = table.actions["ann"]
    shared = (actions, actions.contest, i18n.settings)  # what a table and its line watch
    settle()
    before = [watcher_count(o) for o in shared]
    ann = ContestTable(actions=actions, lang="en")
    assert Screen(ann).what_now and [watcher_count(o) for o in shared] != before
    ann.dispose()
    settle()
    assert [watcher_count(o) for o in shared] == before  # neither the table nor its line leaves a watcher


def test_a_refusal_the_line_has_no_words_for_is_said_as_the_roll_button_says_it():
    """A single-roll contest with two units on a side cannot be rolled: the line says why, in the very
    words of the disabled button's hint, in both languages."""
    from raisus_panel.i18n import translate

    a, b = Character("기사 아린", {"기사": 4}), Character("종자 도리", {"종자": 1})
    contest = Contest("한판", [a, b], Character("해적 마리", {"해적": 3}), single_roll=True, dice=ScriptedDice([]))
    actions = Actions.local(contest)
    table = ContestTable(actions=actions, lang="en")
    english, korean = agree(table, actions)
    roll = roll_button(Screen(table))
    assert roll.disabled and english == f"Not yet: {roll.title}"
    refusal = actions.why_not_error("roll_round")
    assert refusal.key == "error.contest.needs_exchanges"
    assert korean == f"아직은 안 됩니다: {translate(refusal, 'ko')}"
