"""TeamBuilder: leader, pool make-up, leader ties and the revenge bonus, as the rules say."""

from __future__ import annotations

from raisus_panel.i18n import t as i18n_t
from raisus_panel.rules import Character, CharacterTeam, Contest, ScriptedDice
from raisus_panel.ui import Actions, TeamBuilder

from .drivers import Screen


class Builder(Screen):
    """A team builder as a person sees it: tick the members, maybe pick a leader, press Form."""

    def members(self, *names: str) -> None:
        for name in names:
            self.tick(self.t("team.members"), option=name)

    def offered(self) -> list[str]:
        return sorted(self.options(self.t("team.members"), role="choices"))

    @property
    def form(self):
        return self.button(self.t("team.form"))


def builder_for(side_a, side_b, rolls=(), **kwargs):
    contest = Contest("Fight", side_a, side_b, dice=ScriptedDice(rolls))
    return contest, Builder(TeamBuilder(actions=Actions.local(contest), **kwargs))


def test_pool_make_up_and_inappropriate_members():
    knight = Character("Knight", {"Knight": 4})
    viking = Character("Viking", {"Viking": 2})
    squire = Character("Squire", {"Squire": 1})
    hairdresser = Character("Hairdresser", {"Hairdresser": 3})
    troll = Character("Troll", {"Troll": 6})
    contest, b = builder_for([knight, viking, squire, hairdresser], troll, lang="en")
    b.members("Knight", "Viking", "Squire", "Hairdresser")
    b.within("Hairdresser").tick(b.t("team.appropriate"), on=False)
    assert b.shows("Leader: Knight") and b.shows("Knight 4 + Viking + Squire = 6 dice")
    assert not b.form.disabled
    b.click(b.t("team.form"))
    team = contest.sides[0][0]
    assert isinstance(team, CharacterTeam) and contest.pool(team.uid) == 6
    assert b.shows("Knight 4 + Viking + Squire = 6 dice")  # now among the side's teams


def test_a_leader_tie_asks_for_a_leader():
    knight = Character("Knight", {"Knight": 3})
    samurai = Character("Samurai", {"Samurai": 3})
    contest, b = builder_for([knight, samurai], Character("Ninja", {"Ninja": 4}), lang="en")
    b.members("Knight", "Samurai")
    leader = b.t("team.leader")
    assert b.has("select", leader) and b.form.disabled
    assert b.shows("Leader tie")
    options = b.options(leader)
    assert len(options) == 3 and {"Knight", "Samurai"} <= set(options)
    b.click(b.t("team.form"))  # pressed anyway: the rules refuse, nothing changes
    assert b.error and len(contest.sides[0]) == 2
    b.choose(leader, "Samurai")
    assert not b.form.disabled and b.shows("Samurai 3 + Knight = 4 dice")
    b.click(b.t("team.form"))
    team = contest.sides[0][0]
    assert team.leader is samurai and contest.pool(team.uid) == 4


def test_a_team_of_one_is_not_offered():
    knight = Character("Knight", {"Knight": 3})
    contest, b = builder_for([knight, Character("Monk", {"Monk": 2})], Character("Ninja", {"Ninja": 4}))
    b.members("Knight")
    assert b.form.disabled


def test_only_the_side_s_free_characters_are_offered():
    knight, viking = Character("Knight", {"Knight": 3}), Character("Viking", {"Viking": 2})
    ogre, troll = Character("Ogre", {"Ogre": 4}), Character("Troll", {"Troll": 3})
    contest, b = builder_for([knight, viking], [ogre, troll], side=1)
    assert b.offered() == ["Ogre", "Troll"]
    b.root.side = 0
    assert b.offered() == ["Knight", "Viking"]


def test_revenge_passes_to_the_re_formed_team():
    """RULES.md scenario 21: the leader volunteers, falls, and the revenge bonus passes on."""
    knight, viking = Character("Knight", {"Knight": 2}), Character("Viking", {"Viking": 2})
    monk, squire = Character("Monk", {"Monk": 2}), Character("Squire", {"Squire": 1})
    troll = Character("Troll", {"Troll": 6})
    team = CharacterTeam([knight, viking, monk, squire], leader=knight)
    contest = Contest("Fight", team, troll, dice=ScriptedDice([[1] * 5, [2] * 6]))
    actions = Actions.local(contest)
    b = Builder(TeamBuilder(actions=actions, lang="en"))
    actions.act("roll_round")
    actions.act("volunteer", member=knight.uid)
    assert viking.cliche("Viking").current == 1 and squire.cliche("Squire").current == 0
    b.members("Viking", "Monk")
    assert b.has("select", b.t("team.leader"))  # Viking 1, Monk 1: a tie
    b.choose(b.t("team.leader"), "Viking")
    assert b.shows("Revenge bonus armed") and b.shows("2×(Viking 1) + Monk = 3 dice")
    b.click(b.t("team.form"))
    new = next(u for u in contest.sides[0] if isinstance(u, CharacterTeam))
    assert new.revenge and contest.pool(new.uid) == 3


def test_a_one_unit_side_shows_no_team_builder():
    """Issue 21 (low): a side of one character has no team to form: its builder is not shown."""
    knight, viking, ogre = Character("Knight", {"Knight": 4}), Character("Viking", {"Viking": 2}), Character("Ogre", {"Ogre": 8})
    contest = Contest("Fight", [knight, viking], ogre, dice=ScriptedDice([]))
    actions = Actions.local(contest)
    a, b = TeamBuilder(actions=actions, side=0, lang="en"), TeamBuilder(actions=actions, side=1, lang="en")
    assert Screen(a).texts() and not Screen(b).objects()  # the whole builder is hidden


def test_a_player_is_offered_only_their_own_characters_and_told_why():
    """Issue 21 item 5: Ann plays Olaf and Ragna; the GM's Spy is on their side too. Ann's builder lists
    Olaf and Ragna only and says plainly that the GM forms teams with others' characters and NPCs; the
    GM's lists all three, with no such note."""
    from raisus_panel.room import Actor, Room, RoomSession

    gm = Room.local("Tavern", dice=ScriptedDice([]))
    ann = RoomSession(gm.room, Actor.player("p1", "Ann"))
    ann.act("join", name="Ann")
    for name, owner in (("Olaf", "p1"), ("Ragna", "p1"), ("Spy", None), ("Ogre", None)):
        gm.act("save_character", data={"name": name, "owner": owner, "cliches": [{"name": name, "rating": 3 if name == "Olaf" else 2}]})
    uids = {c.name: c.uid for c in gm.room.characters}
    gm.act("start_contest", name="Fight", side_a=[uids["Olaf"], uids["Ragna"], uids["Spy"]], side_b=[uids["Ogre"]])
    note = "The GM can form a team with other players' characters and NPCs"
    mine = Builder(TeamBuilder(actions=Actions(ann), side=0, lang="en"))
    assert mine.offered() == ["Olaf", "Ragna"]
    assert mine.shows(note)
    theirs = Builder(TeamBuilder(actions=Actions(gm), side=0, lang="en"))
    assert theirs.offered() == ["Olaf", "Ragna", "Spy"] and not theirs.shows(note)
    mine.members("Olaf", "Ragna")
    assert not mine.form.disabled  # two of her own: she may form it


def test_a_duel_offers_no_form_a_team_button():
    """Issue 21 (low): in a one-against-one duel neither side has a team to form, so the contest table
    shows no "Form a team…" (before, it was there, enabled, and pressing it showed two hidden builders);
    with two characters on a side it is offered."""
    from raisus_panel.ui import ContestTable

    def table(side_a, side_b):
        contest = Contest("Fight", side_a, side_b, dice=ScriptedDice([]))
        return Screen(ContestTable(actions=Actions.local(contest), lang="en"))

    duel = table(Character("Olaf", {"Viking": 3}), Character("Ogre", {"Ogre": 8}))
    assert not duel.buttons(duel.t("contest.teams"))
    two = table([Character("Olaf", {"Viking": 3}), Character("Ragna", {"Skald": 2})], Character("Ogre", {"Ogre": 8}))
    assert two.buttons(two.t("contest.teams"))


def test_with_nobody_left_to_team_the_builder_lists_the_teams_and_asks_for_no_pick():
    """Issue 22 (left open): once the side's characters are in a team (or one is left alone), the
    builder said "Pick at least two characters" with nobody to pick. It lists the side's teams, says
    that nobody is left to form another, and shows no member list or Form button."""
    knight, viking = Character("Knight", {"Knight": 4}), Character("Viking", {"Viking": 2})
    squire = Character("Squire", {"Squire": 1})
    contest, b = builder_for([knight, viking, squire], Character("Troll", {"Troll": 6}), lang="en")
    b.members("Knight", "Viking")
    b.click(b.t("team.form"))
    assert b.shows("Knight 4 + Viking = 5 dice")  # among the side's teams
    assert not b.shows(b.t("team.pick_two")) and b.shows(b.t("team.none_left"))
    assert not b.controls("choices") and not b.buttons(b.t("team.form"))
    b.root.lang = "ko"
    assert b.shows(i18n_t("team.none_left", "ko"))
