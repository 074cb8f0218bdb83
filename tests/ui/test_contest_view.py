"""ContestView (what spectators see) and the controls each role's table lays out."""

from __future__ import annotations

import panel as pn
from bokeh.document import Document
from bokeh.models import Tooltip

from raisus_panel.dashboard import RoomPage
from raisus_panel.i18n import t
from raisus_panel.room import Actor, RoomSession
from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice
from raisus_panel.ui import ContestTable, ContestView, Actions
from raisus_panel.ui._base import hint
from raisus_panel.ui._contest_text import dice_html

from .conftest import click, duel, room_for_two, team_vs_ogre
from .test_components import walk

XSS = "<img src=x onerror=alert(1)>"


def html(view: ContestView) -> str:
    return view._header.object + " " + view._body.object


def test_a_view_has_no_controls_and_follows_the_contest():
    contest, actions, viking, pirate = duel(rolls=[[6, 5, 1, 1], [4, 4, 4]])
    view = ContestView(actions=actions, lang="en")
    assert not [o for o in walk(view) if isinstance(o, pn.widgets.Widget)]  # words only
    assert "Brawl" in view._header.object and "next: round 1" in view._header.object
    assert "Viking" in view._parts["sides"][0] and "Pirate" in view._parts["sides"][1]
    assert view._parts["last_roll"] == ""
    contest.choose(viking, "Viking")
    contest.choose(pirate, "Pirate")
    assert "Rolls 4 dice" in view._parts["sides"][0] and "Rolls 3 dice" in view._parts["sides"][1]
    contest.roll_round()
    assert dice_html([6, 5, 1, 1]) in view._parts["last_roll"] and dice_html([4, 4, 4]) in view._parts["last_roll"]
    assert "Rolls 2 dice" in view._parts["sides"][1]  # the pirate lost a die
    assert "next: round 2" in view._header.object


def test_a_view_shows_a_team_the_result_and_the_fates():
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(ogre=1, rolls=[[6] * 6, [1]])
    view = ContestView(actions=actions, lang="en")
    side = view._parts["sides"][0]
    assert t("team.leader_is", "en", name="Knight") in side
    for member in ("Knight", "Viking", "Squire"):
        assert f"{member} — {member}" in side
    contest.choose(ogre, "Ogre")
    contest.roll_round()
    assert contest.status == "ended" and t("contest.status_ended", "en") in view._header.object
    assert t("contest.ended_winner", "en", side=t("side.0", "en"), names=team.name) in view._parts["result"]
    owed = contest.owed_fates
    assert owed and all(t("contest.fate_owed", "en") in view._parts["fates"] for _ in owed)
    contest.decide_fate(ogre, "Joins the circus")
    assert "Joins the circus" in view._parts["fates"]


def test_a_view_escapes_names_and_speaks_the_viewers_language():
    a, b = Character(XSS, {XSS: 3}), Character("Pirate", {"Pirate": 3})
    contest = Contest(XSS, a, b, dice=ScriptedDice([[6, 6, 6], [1, 1, 1]]))
    view = ContestView(actions=Actions.local(contest))  # Korean by default
    contest.choose(a, XSS)
    contest.choose(b, "Pirate")
    contest.roll_round()
    assert XSS not in html(view) and "&lt;img src=x onerror=alert(1)&gt;" in html(view)
    assert t("roll.title", "ko") in view._parts["last_roll"]
    view.lang = "en"
    assert t("roll.title", "en") in view._parts["last_roll"]


def test_without_a_contest_a_view_says_so():
    view = ContestView(actions=Actions(), lang="en")
    assert t("odds.no_contest", "en") in view._header.object and view._body.object == ""


def buttons(component) -> set[str]:
    return {o.name for o in walk(component) if isinstance(o, pn.widgets.Button)}


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
    assert ann_table._roll.disabled and hint(ann_table._roll)


def test_a_spectators_room_page_shows_the_view_and_builds_other_tabs_when_opened():
    gm, ann, olaf, spy = room_for_two()
    gm.act("start_contest", name="Brawl", side_a=[olaf.uid], side_b=[spy.uid])
    watcher = RoomPage(RoomSession(gm.room, Actor.spectator()), lang="en")
    player = RoomPage(ann, lang="en")
    assert isinstance(watcher._table, ContestView) and isinstance(player._table, ContestTable)
    assert set(watcher._tab_children) == {"table"}  # the other tabs are made when first opened
    watcher._tabs.active = 1
    assert "log" in watcher._tab_children and watcher._log.entries()
    watcher._tabs.active = 2  # characters: the roster, but no sheet to edit
    assert "Olaf" in watcher._roster.object and not hasattr(watcher, "_sheet")
    player._tabs.active = 2
    assert player._sheet is not None and "Olaf" in player._roster.object


def test_button_titles_are_plain_text_even_with_html_in_a_name():
    knight, viking = Character(XSS, {"Knight": 4}), Character("Viking", {"Viking": 2})
    ogre = Character("Ogre", {"Ogre": 8})
    team = CharacterTeam([knight, viking])
    contest = Contest("Fight", team, ogre, dice=ScriptedDice([[6] * 5, [1] * 8]))
    table = ContestTable(actions=Actions.local(contest), lang="en")
    contest.choose(ogre, "Ogre")
    click(table._roll)  # the team won: volunteering is refused, naming the team
    volunteer = table._cards[team.uid]["members"][viking.uid]["volunteer"]
    assert volunteer.disabled and XSS in hint(volunteer)
    # the reason is the element's title attribute, which a browser shows as text: no tag can form
    # from it (no Markdown, no HTML), and no tooltip model is made for it
    model = volunteer.get_root(Document())
    assert model.html_attributes == {"title": hint(volunteer), "data-why": hint(volunteer)} and "\\" not in hint(volunteer)
    assert volunteer.description is None and not any(isinstance(m, Tooltip) for m in model.references())


def test_a_table_can_be_shown_in_two_notebook_outputs():
    """Each output is a document of its own: they must not share a model."""
    contest, actions, team, (knight, viking, squire, ogre) = team_vs_ogre(rolls=[[6] * 6, [1] * 8])
    table = ContestTable(actions=actions)
    contest.choose(ogre, "Ogre")
    click(table._roll)
    assert contest.round == 1 and all(hint(b) for b in (table._undo, table._roll))
    first, second = Document(), Document()
    for doc in (first, second):
        doc.add_root(table.__panel__().get_root(doc))
    assert not set(first.models) & set(second.models)
    assert not any(isinstance(m, Tooltip) for m in (*first.models, *second.models))  # titles, not tooltips
