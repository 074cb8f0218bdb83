"""ContestTable: clicks become commands, the models' state becomes enabled/disabled controls."""

from __future__ import annotations

import panel as pn

from raisus_panel.i18n import t
from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice
from raisus_panel.ui import Actions, ContestTable
from raisus_panel.ui._contest_text import dice_html

from .conftest import click, duel, free_trio_vs_ogre, rats, team_vs_ogre
from .drivers import Screen
from .drivers import roll_button as roll


def test_roll_round_button_plays_a_round():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    s = Screen(ContestTable(actions=actions))
    assert roll(s) is not None and not roll(s).disabled
    assert roll(s).name == s.t("contest.roll", n=1)
    click(roll(s))
    assert contest.round == 1 and pirate.cliche("Pirate").current == 2
    assert roll(s).name == s.t("contest.roll", n=2)
    assert s.error is None


def test_a_tie_shows_every_attempt_of_the_last_roll():
    contest, actions, viking, pirate = duel(rolls=[[3, 3, 3, 3], [4, 4, 4], [1, 1, 1, 1], [2, 2, 2]])
    s = Screen(ContestTable(actions=actions, lang="en"))
    click(roll(s))
    html = s.html()
    assert html.count("<th>Attempt") == 2 and html.count("<span class=tie>tie, rolled again</span>") == 1
    assert dice_html([3, 3, 3, 3]) + "<span class=total>= 12" in html and dice_html([4, 4, 4]) + "<span class=total>= 12" in html
    assert dice_html([1, 1, 1, 1]) + "<span class=total>= 4" in html and dice_html([2, 2, 2]) + "<span class=total>= 6" in html
    assert viking.cliche("Viking").current == 3 and contest.round == 1


def test_inappropriate_needs_approval_before_the_roll():
    cook = Character("Cook", {"Cook": 3})
    king = Character("Demon King", {"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, king, dice=ScriptedDice([[6, 6, 5], [3, 3, 3, 3]]))
    s = Screen(ContestTable(actions=Actions.local(contest)))
    c = s.card("Cook")
    approve = s.t("contest.approve")
    assert not c.has("button", approve)
    c.tick(s.t("contest.inappropriate"))  # the player ticks "inappropriate"
    assert contest.needs_approval(cook.uid)
    assert roll(s).disabled and c.has("button", approve) and c.can_press(approve)
    events = list(contest.events)
    click(roll(s))  # pressed anyway: refused, shown, nothing changes
    assert s.error and contest.events == events
    assert contest.dice.remaining == 2
    c.click(approve)
    assert not contest.needs_approval(cook.uid) and s.error is None
    assert not roll(s).disabled and not c.has("button", approve)
    click(roll(s))
    assert king.cliche("Demon King").current == 1  # an inappropriate win deals 3


def test_switching_clichés_between_rounds():
    a = Character("Adventurer", {"Viking": 4, "Swashbuckler": 2})
    guard = Character("Guard", {"Guard": 5})
    contest = Contest("Fight", a, guard, dice=ScriptedDice([[1, 1, 1, 1], [2] * 5, [1, 2], [1] * 5]))
    s = Screen(ContestTable(actions=Actions.local(contest)))
    c = s.card("Adventurer")
    cliche = s.t("contest.cliche")
    assert c.chosen(cliche) == s.t("contest.pick_cliche")  # two clichés: the player must choose
    assert roll(s).disabled
    c.choose(cliche, "Viking")
    assert contest.chosen(a.uid).name == "Viking" and not roll(s).disabled
    click(roll(s))
    c.choose(cliche, "Swashbuckler")
    click(roll(s))
    assert a.cliche("Viking").current == 3 and a.cliche("Swashbuckler").current == 1
    assert sorted(o.split()[0] for o in c.options(cliche)) == ["Swashbuckler", "Viking"]


def test_volunteer_only_after_a_lost_team_round():
    rolls = [[1] * 6, [2] * 8, [6, 6, 6, 6, 6, 1, 1, 1, 1], [3] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    s = Screen(ContestTable(actions=actions))
    volunteer, drop = s.t("contest.volunteer"), s.t("contest.drop_out")
    c = s.card(team.name)

    def member(m):
        return c.within(f"{m.name} — ")

    assert len(c.buttons(volunteer)) == 3 and all(b.disabled for b in c.buttons(volunteer))
    assert member(squire).can_press(drop)
    assert c.can_press(s.t("contest.disband"))
    click(roll(s))  # lost: the leader took the hit
    assert knight.cliche("Knight").current == 3
    assert all(member(m).can_press(volunteer) for m in (knight, viking, squire))
    member(viking).click(volunteer)
    assert viking.cliche("Viking").current == 0 and knight.cliche("Knight").current == 4
    assert team.revenge
    assert not member(viking).can_press(volunteer) and not member(viking).can_press(drop)
    head = c.texts()[0]
    assert "복수 보너스" in head and "2×(Knight 4) + Squire = 주사위 9개" in head
    click(roll(s))  # won with the revenge bonus
    assert ogre.cliche("Ogre").current == 7 and not team.revenge
    assert all(b.disabled for b in c.buttons(volunteer))
    member(knight).click(volunteer)  # pressed anyway
    assert s.error and knight.cliche("Knight").current == 4


def test_drop_out_and_disband_then_re_form():
    knight = Character("Knight", {"Knight": 3})
    viking = Character("Viking", {"Viking": 2})
    squire = Character("Squire", {"Squire": 1})
    bandits = Character("Bandits", {"Bandits": 5})
    team = CharacterTeam([knight, viking, squire])
    contest = Contest("Fight", team, bandits, dice=ScriptedDice([]))
    actions = Actions.local(contest)
    s = Screen(ContestTable(actions=actions))
    s.card(team.name).click(s.t("contest.disband"))
    assert knight.cliche("Knight").current == 2 and viking.cliche("Viking").current == 1
    assert squire.cliche("Squire").current == 0 and contest.is_defeated(squire)
    assert not s.has_card(team.name) and s.has_card("Knight")
    assert roll(s) is None  # two units left on side A: exchanges
    s.click(s.t("contest.teams"))
    builder = s.within(s.t("team.title", side=s.t("side.0")))
    members = s.t("team.members")
    assert sorted(builder.options(members, role="choices")) == ["Knight", "Viking"]
    builder.tick(members, option="Knight")
    builder.tick(members, option="Viking")
    assert "Knight 2 + Viking = 주사위 3개" in builder.text()
    builder.click(s.t("team.form"))
    new = contest.sides[0][0]
    assert isinstance(new, CharacterTeam) and contest.pool(new.uid) == 3
    assert roll(s) is not None and builder.shows(s.t("team.none_left"))  # nobody left: no list to pick from
    assert builder.chosen(members, role="choices", hidden=True) == []  # cleared, should a disband show it again


def test_drop_out_button():
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre()
    s = Screen(ContestTable(actions=actions))
    c = s.card(team.name)
    c.within("Squire — ").click(s.t("contest.drop_out"))
    assert not contest.is_dropped(squire)
    assert c.question == s.t("confirm.drop_out", name="Squire")  # asked first
    c.confirm()
    assert contest.is_dropped(squire) and contest.pool(team.uid) == 5
    assert c.question is None
    assert not c.within("Squire — ").can_press(s.t("contest.drop_out"))


def test_exchanges_with_several_units_on_a_side():
    contest, actions, (knight, viking, squire, ogre) = free_trio_vs_ogre([[6, 6, 6, 6], [1] * 8])
    s = Screen(ContestTable(actions=actions))
    exchange, end_round = s.t("contest.exchange"), s.t("contest.end_round")
    assert s.has("button", exchange) and roll(s) is None
    assert not s.can_press(end_round)
    s.choose(s.t("contest.attacker"), "Knight")
    assert s.options(s.t("contest.target")) == ["Ogre"]
    assert s.can_press(exchange)
    s.click(exchange)
    assert ogre.cliche("Ogre").current == 7 and contest.round == 0
    assert s.can_press(end_round)
    s.click(end_round)
    assert contest.round == 1 and not s.can_press(end_round)


def test_single_roll_contest():
    contest, actions, a, b = duel(a=("Gunslinger", 3), b=("Outlaw", 3), rolls=[[5, 4, 2], [6, 3, 1]],
                                  single_roll=True)
    s = Screen(ContestTable(actions=actions, lang="en"))
    assert "Single-roll" in s.texts()[0]  # the header
    click(roll(s))
    assert contest.status == "ended" and contest.winner == 0
    assert a.cliche("Gunslinger").current == 3 and b.cliche("Outlaw").current == 3
    assert roll(s) is None and s.shows("Side A wins")


def test_tickets_before_the_first_roll():
    astronaut = Character("Astronaut", {"Astronaut": 3})
    accountant = Character("Accountant", {"Accountant": 3})
    contest = Contest("Pie Eating", astronaut, accountant, dice=ScriptedDice([[6, 5], [1, 2]]))
    s = Screen(ContestTable(actions=Actions.local(contest)))
    tickets = s.t("contest.give_tickets")
    assert s.has("text", s.t("contest.ticket_name")) and s.can_press(tickets)
    s.click(tickets)
    assert astronaut.cliche("Pie Eating").current == 2
    assert not s.has("button", tickets) and not s.has("text", s.t("contest.ticket_name"))
    click(roll(s))
    assert accountant.cliche("Pie Eating").current == 1


def test_fates_and_recovery_at_the_end():
    contest, actions, viking, pirate = duel(b=("Pirate", 1), rolls=[[1, 1, 1, 2], [6], [6, 6, 6], [1]])
    s = Screen(ContestTable(actions=actions))
    decide, veto, recover = s.t("contest.decide_fate"), s.t("contest.veto_fate"), s.t("contest.recover")
    assert not s.has("button", decide) and not s.has("button", recover)
    click(roll(s))
    click(roll(s))
    assert contest.status == "ended" and contest.owed_fates == [pirate.uid]

    def row():
        return s.within(s.t("contest.fate"))

    def fate():  # the line under the row that says the fate (and its veto)
        return next((x for x in s.texts() if "Marooned" in x), "")

    assert row().can_press(decide) and not row().can_press(veto)
    row().click(decide)  # empty text: refused
    assert s.error and not contest.fates
    row().type(s.t("contest.fate"), "Marooned on a sandbar")
    row().click(decide)
    assert contest.fates[pirate.uid] == "Marooned on a sandbar"
    assert "Marooned" in fate() and row().can_press(veto)
    row().click(veto)
    assert not contest.fates
    assert "거부" in fate() and "Marooned" in fate()  # the players are told (Korean)
    assert s.has("button", recover)
    s.choose(s.t("contest.recover_character"), "Viking")
    assert s.can_press(recover)
    s.click(recover)
    assert viking.cliche("Viking").current == 4
    assert not s.can_press(recover)  # nothing left to recover


def test_end_early_and_undo():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    s = Screen(ContestTable(actions=actions))
    undo, end = s.t("contest.undo"), s.t("contest.end")
    assert not s.can_press(undo)
    click(roll(s))
    assert s.can_press(undo)
    s.click(undo)
    assert contest.round == 0 and pirate.cliche("Pirate").current == 3
    s.click(end)  # no outcome written: said at once, nothing asked
    assert s.error and contest.status == "active" and s.question is None
    s.type(s.t("contest.outcome"), "The tavern closes")
    s.click(end)
    assert contest.status == "active" and "The tavern closes" in s.question
    s.confirm()
    assert contest.status == "ended" and contest.outcome == "The tavern closes"


def test_setup_starts_a_contest_from_the_table():
    viking, r = Character("Viking", {"Viking": 4}), rats()
    actions = Actions.local(viking, r, dice=ScriptedDice([[6, 6, 6, 6], [1] * 7]))
    s = Screen(ContestTable(actions=actions))
    start, side_a, side_b = s.t("contest.start"), s.t("side.0"), s.t("side.1")
    assert s.has("button", start) and roll(s) is None and not s.cards()
    s.tick(side_a, option="Viking")
    s.tick(side_b, option="Viking")
    s.click(start)
    assert actions.contest is None and s.error
    s.tick(side_b, on=False, option="Viking")
    s.tick(side_b, option=r.name)
    s.type(s.t("contest.name"), "Cellar")
    s.click(start)
    assert actions.contest is not None and actions.contest.name == "Cellar"
    assert roll(s) is not None and s.cards() and not s.has("button", start)
    click(roll(s))
    assert r.cliche("700 Skeletal Rats").current == 6


def test_a_disabled_button_says_why_on_hover():
    rolls = [[1] * 6, [2] * 8]
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls)
    s = Screen(ContestTable(actions=actions, lang="en"))
    row = s.card(team.name).within("Viking — ")
    volunteer = s.t("contest.volunteer")
    assert not row.can_press(volunteer) and row.reason(volunteer) == actions.why_not("volunteer", member=viking.uid)
    assert "right after" in row.reason(volunteer)  # the rules' own words
    # an enabled button's tooltip says what it does
    assert not roll(s).disabled and roll(s).title == t("help.roll_round", "en")
    click(roll(s))  # lost: now members may volunteer
    row = s.card(team.name).within("Viking — ")
    assert row.can_press(volunteer) and "revenge bonus" in row.reason(volunteer)
    end_round = s.button(s.t("contest.end_round"), hidden=True)  # no exchanges here: kept ready, hidden
    assert end_round.disabled and s.reason(end_round.name, hidden=True)


def test_the_approval_the_roll_waits_for_is_named():
    cook, king = Character("Cook", {"Cook": 3}), Character("Demon King", {"Demon King": 4})
    contest = Contest("Martial-arts bout", cook, king, dice=ScriptedDice([]))
    s = Screen(ContestTable(actions=Actions.local(contest)))
    inappropriate = s.t("contest.inappropriate")
    s.card("Cook").tick(inappropriate)
    assert roll(s).disabled and "GM의 승인" in roll(s).title  # in the table's language
    assert s.card("Cook").checkbox(inappropriate).value and contest.is_inappropriate(cook)


def test_the_setup_forms_side_lists_have_headers():
    """CheckBoxGroup does not show its name: each side's list of characters has a header above it."""
    viking, r = Character("Viking", {"Viking": 4}), rats()
    table = ContestTable(actions=Actions.local(viking, r))
    s = Screen(table)

    def headers():
        out = []
        for side in (0, 1):
            box = s.choices(s.t(f"side.{side}"))
            column = next(c for c in s.objects() if isinstance(c, pn.Column) and box in c.objects)
            above = column.objects[column.objects.index(box) - 1]
            out.append(Screen(above).texts()[0].strip())
        return out
    assert headers() == ["A 편", "B 편"]
    table.lang = "en"
    assert headers() == ["Side A", "Side B"]


def test_the_next_contest_starts_from_an_empty_form_and_no_old_choice():
    olaf = Character("Olaf", {"Viking": 4, "Cook": 2})
    jack = Character("Jack", {"Pirate": 3})
    actions = Actions.local(olaf, jack, dice=ScriptedDice([[6, 6, 6, 6], [1, 1, 1]] * 3))
    s = Screen(ContestTable(actions=actions, lang="en"))
    side_a, side_b, single, name = s.t("side.0"), s.t("side.1"), s.t("contest.single_roll"), s.t("contest.name")
    s.tick(side_a, option="Olaf")
    s.tick(side_b, option="Jack")
    s.tick(single)
    s.click(s.t("contest.start"))
    cliche = s.t("contest.cliche")
    s.card("Olaf").choose(cliche, "Viking")  # Olaf picks his Viking
    assert actions.contest.chosen(olaf.uid).name == "Viking"
    click(roll(s))
    assert actions.contest.status == "ended"
    actions.act("close_contest")
    assert s.has("button", s.t("contest.start"))
    assert not s.checkbox(single).value and s.textbox(name).value == ""
    assert s.chosen(side_a, role="choices") == [] and s.chosen(side_b, role="choices") == []
    actions.act("start_contest", name="Again", side_a=[olaf.uid], side_b=[jack.uid])
    assert actions.contest.chosen(olaf.uid) is None
    card = s.card("Olaf")
    assert card.chosen(cliche) == s.t("contest.pick_cliche") and not card.select(cliche).disabled  # "choose…", not the last contest's Viking
    card.choose(cliche, "Viking")  # choosing it now is a real choice
    assert actions.contest.chosen(olaf.uid).name == "Viking"


def test_a_cliche_used_down_to_zero_stays_shown_as_the_one_used():
    """Issue 21 item 6: Sam's Viking (1) loses a round and falls to 0 (Sam is out); Cook (3) is left. The
    room still says Viking was the cliché used: the card shows Viking (0/1), not Cook (the first option)."""
    sam = Character("Sam", {"Viking": 1, "Cook": 3})
    ogre = Character("Ogre", {"Ogre": 4})
    contest = Contest("Brawl", sam, ogre, dice=ScriptedDice([[1], [6, 6, 6, 6]]))
    s = Screen(ContestTable(actions=Actions.local(contest), lang="en"))
    cliche = s.t("contest.cliche")
    s.card("Sam").choose(cliche, "Viking")
    assert contest.chosen(sam.uid).name == "Viking"
    click(roll(s))
    assert sam.cliche("Viking").pool == 0 and contest.chosen(sam.uid).name == "Viking"
    c = s.card("Sam")
    assert c.chosen(cliche).startswith("Viking") and any(o.startswith("Viking") for o in c.options(cliche))
    assert c.select(cliche).disabled  # the contest is over: nothing to pick


def test_a_greyed_button_says_why_on_the_page_not_only_in_a_tooltip():
    """Issue 21 item 8: on a phone a tooltip sticks or never shows: the reason a button is greyed is a
    line of text under it, hidden while it can be pressed."""
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    s = Screen(ContestTable(actions=actions, lang="en"))
    start = s.t("contest.start")  # the form under the table, hidden while a contest is on
    assert s.why(start, hidden=True) and s.reason(start, hidden=True) in s.why(start, hidden=True)
    assert not roll(s).disabled and s.why(roll(s).name) is None
    s.card("Viking").tick(s.t("contest.inappropriate"))  # the roll now waits for the GM's approval
    assert roll(s).disabled and s.why(roll(s).name)


def test_the_inappropriate_box_says_its_text_in_the_new_language_in_the_page():
    """Issue 22: the box's text reached the page once; after switching to English it still read 부적합."""
    contest, actions, viking, pirate = duel(rolls=[])
    table = ContestTable(actions=actions, lang="ko")
    s = Screen(table)
    root = pn.panel(table).get_root()
    box = s.card("Viking").checkbox(t("contest.inappropriate", "ko"))
    page = [m for m in root.references() if getattr(m, "data", None) is not None
            and m.data.properties_with_values().get("label") == t("contest.inappropriate", "ko")]
    assert len(page) == 2  # both cards' boxes
    table.lang = "en"
    assert box.name == t("contest.inappropriate", "en")
    assert all(m.data.label == t("contest.inappropriate", "en") for m in page)  # what the page draws


def _shown_buttons(table) -> set[str]:
    """Names of the buttons a person can see (every parent visible too)."""
    return {b.name for b in Screen(table).buttons()}


def test_a_learner_view_leaves_out_the_gm_tools_a_first_game_does_not_need():
    """Issue 22: 00's first table showed every GM control (open the round, tickets, end, the new-contest
    form) with no word on them; in a notebook the learner is the whole table."""
    contest, actions, viking, pirate = duel(rolls=[[6, 6, 6, 6], [1, 1, 1], [6, 6, 6, 6], [1, 1], [6, 6, 6, 6], [1]])
    full, learner = ContestTable(actions=actions, lang="en"), ContestTable(actions=actions, lang="en", learner_view=True)
    gm_only = {t(k, "en") for k in ("contest.open_round", "contest.give_tickets", "contest.end", "contest.start")}
    assert gm_only <= _shown_buttons(full) | {t("contest.start", "en")}
    assert not gm_only & _shown_buttons(learner)
    assert {t("contest.roll", "en", n=1), t("contest.undo", "en")} <= _shown_buttons(learner)
    new_contest = t("contest.new", "en")
    assert not Screen(learner).shows(new_contest)
    for _ in range(3):
        click(roll(Screen(learner)))  # the same command path: the rolls land on both tables
    assert contest.status == "ended"
    assert Screen(full).has("button", t("contest.start", "en")) and not Screen(learner).has("button", t("contest.start", "en"))
    assert t("contest.recover", "en") in _shown_buttons(learner), "the end of the contest stays"
    learner.learner_view = False
    assert t("contest.start", "en") in _shown_buttons(learner)
