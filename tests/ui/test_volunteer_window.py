"""Issue 21, Medium 3: after Gunnar's team loses a round, Brother Monk's player is offered to volunteer
(the what-now line and the room both), before the leader's hit has any consequence."""

from raisus_panel.room import Actor, Room, RoomSession
from raisus_panel.rules import ScriptedDice
from raisus_panel.ui import Actions
from raisus_panel.ui._next_step import next_step


def test_monks_player_is_offered_the_window_and_the_contest_goes_on():
    gm = Room.local("Tavern", dice=ScriptedDice([[1, 1], [2, 2, 2]]))
    sam = RoomSession(gm.room, Actor.player("p1", "Sam"))
    sam.act("join", name="Sam")
    gm.act("save_character", data={"name": "Gunnar", "cliches": [{"name": "Skald", "rating": 1}]})
    gm.act("save_character", data={"name": "Brother Monk", "owner": "p1", "cliches": [{"name": "Monk", "rating": 1}]})
    gm.act("save_character", data={"name": "Ogre", "cliches": [{"name": "Ogre", "rating": 3}]})
    gunnar, monk, ogre = gm.room.characters
    gm.act("start_contest", name="Ogre fight", side_a=[gunnar.uid, monk.uid], side_b=[ogre.uid])
    gm.act("form_team", members=[gunnar.uid, monk.uid], leader=gunnar.uid)
    gm.act("roll_round")  # the team loses: Gunnar takes the hit for now
    contest = gm.room.contest
    assert contest.status == "active" and contest.volunteer_window["leader_down"]
    step = next_step(Actions(sam))
    assert step.key == "what_now.you.volunteer"
    assert sam.can("volunteer", member=monk.uid)
    assert next_step(Actions(gm)).key == "what_now.gm.volunteer"
    sam.act("volunteer", member=monk.uid)
    monk_now = next(c for c in contest.characters() if c.uid == monk.uid)
    gunnar_now = next(c for c in contest.characters() if c.uid == gunnar.uid)
    assert (gunnar_now.cliche("Skald").current, monk_now.cliche("Monk").current) == (1, 0)
    assert contest.status == "active"


def test_with_leader_assigns_the_line_says_the_hit_can_be_handed_on():
    """Issue 22 (seen pressing "Take the hit" served): after a lost round the what-now line said only
    that a member may volunteer, though with "leader assigns" the leader's player, or the GM, may also
    hand the hit on. It says so (where "Take the hit" is), and only with that option."""
    from raisus_panel.i18n import t

    for team_loss, says in (("leader_assigns", True), ("leader", False)):
        gm = Room.local("Tavern", dice=ScriptedDice([[1, 1, 1, 1, 1], [2] * 8]))
        ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
        ann.act("join", name="Ann")
        for name, cliche, rating in (("Sir Ann", "Knight", 4), ("Squire Tim", "Squire", 2)):
            gm.act("save_character", data={"name": name, "owner": "p1", "cliches": [{"name": cliche, "rating": rating}]})
        gm.act("save_character", data={"name": "Ogre", "cliches": [{"name": "Ogre", "rating": 8}]})
        knight, tim, ogre = gm.room.characters
        gm.act("start_contest", name="Bridge", side_a=[knight.uid, tim.uid], side_b=[ogre.uid],
               profile={"team_loss": team_loss})
        gm.act("form_team", members=[knight.uid, tim.uid], leader=knight.uid)
        gm.act("roll_round")  # the team loses
        assert ann.can("assign_loss", member=tim.uid) is says
        for lang in ("en", "ko"):
            mine, gms = next_step(Actions(ann)).text(lang), next_step(Actions(gm)).text(lang)
            assert (t("what_now.note.hand_on", lang, leader="Sir Ann") in mine) is says
            assert (t("what_now.note.no_volunteer_hand_on", lang, leader="Sir Ann") in gms) is says
            assert (t("what_now.note.no_volunteer", lang, leader="Sir Ann") in gms) is not says
            assert (t("contest.assign_loss", lang) in mine) is says  # names the button
