"""ContestView (what spectators see) and the controls each role's table lays out."""

from __future__ import annotations

import panel as pn
from bokeh.document import Document
from bokeh.models import Tooltip

from raisus_panel.dashboard import RoomPage
from raisus_panel.i18n import t
from raisus_panel.room import Actor, RoomSession
from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice
from raisus_panel.ui import Actions, ContestTable, ContestView, RoundLog
from raisus_panel.ui._contest_text import dice_html

from .conftest import click, duel, room_for_two, team_vs_ogre
from .drivers import Screen, Sheet, roll_button, walk

XSS = "<img src=x onerror=alert(1)>"


def html(view: ContestView) -> str:
    return Screen(view).html()


def header(view: ContestView) -> str:
    """The first thing a view shows: the contest's name, kind and state."""
    return Screen(view).texts()[0]


def sides(view: ContestView) -> list[str]:
    """What each side's column shows (``raisus-side``); the last one runs on to the end of the view."""
    return [Screen(pn.pane.HTML(part)).text() for part in html(view).split("<div class=raisus-side>")[1:]]


def test_a_view_has_no_controls_and_follows_the_contest():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    view = ContestView(actions=actions, lang="en")
    assert not [o for o in walk(view) if isinstance(o, pn.widgets.Widget)]  # words only
    assert "Brawl" in header(view) and "next: round 1" in header(view)
    assert "Viking" in sides(view)[0] and "Pirate" in sides(view)[1] and "Pirate" not in sides(view)[0]
    assert not Screen(view).shows(t("roll.title", "en"))  # no roll yet
    contest.choose(viking, "Viking")
    contest.choose(pirate, "Pirate")
    assert "Rolls 4 dice" in sides(view)[0] and "Rolls 3 dice" in sides(view)[1]
    contest.roll_round()
    assert Screen(view).shows(t("roll.title", "en"))
    assert dice_html([6, 5, 1, 1]) in html(view) and dice_html([4, 4, 4]) in html(view)
    assert "Rolls 2 dice" in sides(view)[1]  # the pirate lost a die
    assert "next: round 2" in header(view)


def test_a_view_shows_a_team_the_result_and_the_fates():
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(ogre=1, rolls=[[6] * 6, [1]])
    view = ContestView(actions=actions, lang="en")
    side = sides(view)[0]
    assert t("team.leader_is", "en", name="Knight") in side
    for member in ("Knight", "Viking", "Squire"):
        assert f"{member} — {member}" in side
    contest.choose(ogre, "Ogre")
    contest.roll_round()
    assert contest.status == "ended" and t("contest.status_ended", "en") in header(view)
    assert Screen(view).shows(t("contest.ended_winner", "en", side=t("side.0", "en"), names=team.name))
    owed = contest.owed_fates
    assert owed and Screen(view).text().count(t("contest.fate_owed", "en")) == len(owed)
    contest.decide_fate(ogre, "Joins the circus")
    assert Screen(view).shows("Joins the circus")


def test_a_view_escapes_names_and_speaks_the_viewers_language():
    a, b = Character(XSS, {XSS: 3}), Character("Pirate", {"Pirate": 3})
    contest = Contest(XSS, a, b, dice=ScriptedDice([[6, 6, 6], [1, 1, 1]]))
    view = ContestView(actions=Actions.local(contest))  # Korean by default
    contest.choose(a, XSS)
    contest.choose(b, "Pirate")
    contest.roll_round()
    assert XSS not in html(view) and "&lt;img src=x onerror=alert(1)&gt;" in html(view)
    assert Screen(view).shows(t("roll.title", "ko"))
    view.lang = "en"
    assert Screen(view).shows(t("roll.title", "en"))


def test_without_a_contest_a_view_says_so():
    view = ContestView(actions=Actions(), lang="en")
    s = Screen(view)
    assert [x for x in s.texts() if x != s.what_now] == [t("odds.no_contest", "en")]  # no sides, no roll


def buttons(component) -> set[str]:
    return {o.name for o in walk(component, hidden=True) if isinstance(o, pn.widgets.Button)}


def test_each_role_gets_the_table_of_its_controls():
    gm, ann, olaf, spy = room_for_two()
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    gm_table = ContestTable(actions=Actions(gm), lang="en")
    ann_table = ContestTable(actions=Actions(ann), lang="en")
    gm_only = {t(k, "en") for k in ("contest.undo", "contest.give_tickets", "contest.end", "contest.recover",
                                    "contest.start", "contest.approve")}
    assert gm_only <= buttons(gm_table)
    assert not gm_only & buttons(ann_table)  # not laid out for a player: fewer models per page
    assert t("contest.roll", "en", n=1) in buttons(ann_table)
    # the widgets still answer for the room's reasons (a player's roll waits for the GM)
    roll = roll_button(Screen(ann_table))
    assert roll.disabled and roll.title


def test_a_spectators_room_page_shows_the_view_and_builds_other_tabs_when_opened():
    gm, ann, olaf, spy = room_for_two()
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    watcher = Screen(RoomPage(RoomSession(gm.room, Actor.spectator()), lang="en"))
    player = Screen(RoomPage(ann, lang="en"))
    contest, log, characters = (t(f"dashboard.tab.{k}", "en") for k in ("table", "log", "characters"))
    assert watcher.shown_tab == contest == player.shown_tab
    # the watcher's table is the view (words only, no control), the player's the table to play at
    assert watcher.part("raisus-contest-view") is not None and not watcher.tab(contest).controls()
    assert player.part("raisus-contest-view") is None and roll_button(player) is not None
    # the other tabs are made when first opened: until then each holds nothing at all
    assert all(len(watcher.tab(title).objects(hidden=True)) == 1 for title in watcher.tabs() if title != contest)
    watcher.open_tab(log)
    heading = RoundLog(actions=Actions(RoomSession(gm.room, Actor.spectator())), lang="en").entries()[0][0]
    assert watcher.shows(t("log.title", "en")) and watcher.shows(heading)
    watcher.open_tab(characters)  # the roster, but no sheet to edit
    assert "Olaf" in watcher.marked("raisus-roster") and not watcher.tab(characters).controls(hidden=True)
    player.open_tab(characters)
    sheet = Sheet(player.tab(characters).root, "en")  # the player's sheet to edit, under the roster
    assert sheet.controls("text", t("sheet.name", "en"), hidden=True) and "Olaf" in player.marked("raisus-roster")


def test_button_titles_are_plain_text_even_with_html_in_a_name():
    knight, viking = Character(XSS, {"Knight": 4}), Character("Viking", {"Viking": 2})
    ogre = Character("Ogre", {"Ogre": 8})
    team = CharacterTeam([knight, viking])
    contest = Contest("Fight", team, ogre, dice=ScriptedDice([[6] * 5, [1] * 8]))
    table = ContestTable(actions=Actions.local(contest), lang="en")
    contest.choose(ogre, "Ogre")
    s = Screen(table)
    click(roll_button(s))  # the team won: volunteering is refused, naming the team
    volunteer = s.card(team.name).within("Viking — ").button(s.t("contest.volunteer"))
    assert volunteer.disabled and XSS in volunteer.title
    # the reason is the element's title attribute, which a browser shows as text: no tag can form
    # from it (no Markdown, no HTML), and no tooltip model is made for it
    model = volunteer.get_root(Document())
    assert model.html_attributes == {"title": volunteer.title, "data-why": volunteer.title} and "\\" not in volunteer.title
    assert volunteer.description is None and not any(isinstance(m, Tooltip) for m in model.references())


def test_a_table_can_be_shown_in_two_notebook_outputs():
    """Each output is a document of its own: they must not share a model."""
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls=[[6] * 6, [1] * 8])
    table = ContestTable(actions=actions)
    contest.choose(ogre, "Ogre")
    s = Screen(table)
    click(roll_button(s))
    assert contest.round == 1 and all(b.title for b in (s.button(s.t("contest.undo")), roll_button(s)))
    first, second = Document(), Document()
    for doc in (first, second):
        doc.add_root(table.__panel__().get_root(doc))
    assert not set(first.models) & set(second.models)
    assert not any(isinstance(m, Tooltip) for m in (*first.models, *second.models))  # titles, not tooltips
