"""The room the served tests and the room benchmark play: Ann's team against the GM's Ogre.

A GM; a player, Ann, who joined with the invitation and owns Knight, Viking and Squire; the GM's NPC
Ogre; and a contest, "Siege", with Ann's three characters as one team on side A against the Ogre.
"""

from __future__ import annotations

from raisus_panel.room import Actor


def siege_room(registry, title: str, ratings=(6, 3, 2, 8)) -> tuple:
    """Make the room in ``registry`` with Knight, Viking, Squire and Ogre rated ``ratings``.

    Returns the room, its links by role (Ann's personal link as "player") and the characters' uids.
    """
    room, links = registry.create_room(title, gm_name="GM")
    gm = Actor.gm("GM")
    _, ann_token = registry.join(links.player, "Ann")
    ann = next(iter(room.players))

    def character(name, owner, rating):
        data = {"name": name, "owner": owner, "cliches": [{"name": name, "rating": rating}]}
        return room.apply(gm, "create_character", data)[0]["character"]["uid"]

    uids = {name.lower(): character(name, owner, rating) for name, owner, rating in
            zip(("Knight", "Viking", "Squire", "Ogre"), (ann, ann, ann, ""), ratings)}
    start_siege(room, uids)
    return room, {"gm": links.gm, "player": ann_token, "spectator": links.spectator}, uids


def start_siege(room, uids) -> None:
    """The GM starts the Siege: Ann's team on side A against the Ogre."""
    room.apply(Actor.gm("GM"), "start_contest", {
        "name": "Siege", "side_b": [uids["ogre"]],
        "teams": [{"side": 0, "members": [[uids["knight"], "Knight", True], [uids["viking"], "Viking", True],
                                          [uids["squire"], "Squire", True]]}]})
