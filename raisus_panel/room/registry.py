"""The server's rooms: create them with their links, find a room by a link, join with an invitation.

A served Panel app runs its script once per browser tab, so shared rooms must not be created there:
they live in a :class:`RoomRegistry` kept in this module (:func:`get_registry`), loaded lazily
from the store the first time a link points at them.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from raisus_panel.rules import RuleError
from raisus_panel.rules.errors import Phrase
from raisus_panel.rules.validation import clean_name

from .commands import new_player_id
from .errors import StoreError, UnknownRoom
from .roles import Actor, PermissionDenied, Role
from .room import Room, create_in_store
from .session import RoomSession
from .sqlite_store import SQLiteStore
from .store import MemoryStore, Store
from .tokens import hash_token, matches, new_token, token_room
from .transfer import import_room

_GM_NAME = Phrase("GM's name", "term.gm_name")


@dataclass(frozen=True)
class RoomLinks:
    """The three tokens of a new room. Hand each to the right people; they are shown only once.

    ``gm`` runs the room, ``player`` invites players (each joins with a name and gets a personal
    token), ``spectator`` lets people watch. The tokens are left out of the repr.
    """

    room_id: str
    gm: str = field(repr=False)
    player: str = field(repr=False)
    spectator: str = field(repr=False)

    def url(self, role: Role | str, base: str) -> str:
        """``base`` with the token of ``role`` as the ``token`` query parameter."""
        token = getattr(self, Role(role).value)
        return f"{base}{'&' if '?' in base else '?'}token={token}"


class RoomRegistry:
    """The rooms of one store, with their links.

    Parameters
    ----------
    store
        Where rooms and link hashes are kept.
    dice_factory
        Makes the dice source of each room loaded or created (seeded from the OS by default). Also
        an attribute: a test or a demo may set it to play rooms on known dice.

    Notes
    -----
    Link hashes live in the store's room metadata under ``"auth"``, never in the event log, so an
    exported room carries no credentials and an imported room gets new links.
    """

    def __init__(self, store: Store, *, dice_factory=None):
        self.store = store
        self.dice_factory = dice_factory
        self._rooms: dict[str, Room] = {}
        self._lock = threading.RLock()

    def _dice(self):
        return self.dice_factory() if self.dice_factory else None

    def _new_links(self, room_id: str) -> tuple[RoomLinks, dict]:
        links = RoomLinks(room_id, new_token(room_id), new_token(room_id), new_token(room_id))
        auth = {"gm": hash_token(links.gm), "player": hash_token(links.player),
                "spectator": hash_token(links.spectator), "players": {}}
        return links, auth

    def create_room(self, title: str, *, gm_name: str = "GM") -> tuple[Room, RoomLinks]:
        """A new room and its three links (GM, player invitation, spectator)."""
        gm_name = clean_name(gm_name, _GM_NAME)
        with self._lock:
            room_id = create_in_store(self.store, title, meta={"gm_name": gm_name})
            links, auth = self._new_links(room_id)
            self.store.set_meta(room_id, {**self.store.room_meta(room_id), "auth": auth})
            return self.get(room_id), links

    def import_room(self, text: str | bytes, *, gm_name: str = "GM") -> tuple[Room, RoomLinks]:
        """Import a room file (see :func:`~.transfer.import_room`) with new links."""
        gm_name = clean_name(gm_name, _GM_NAME)
        with self._lock:
            room = import_room(self.store, text, dice=self._dice(), meta={"gm_name": gm_name})
            links, auth = self._new_links(room.room_id)
            self.store.set_meta(room.room_id, {**self.store.room_meta(room.room_id), "auth": auth})
            self._rooms[room.room_id] = room
            return room, links

    def get(self, room_id: str) -> Room:
        """The room ``room_id``, loaded from the store (replayed) the first time and then cached."""
        with self._lock:
            room = self._rooms.get(room_id)
            if room is None:
                room = self._rooms[room_id] = Room.load(self.store, room_id, dice=self._dice())
            return room

    def rooms(self) -> list[dict]:
        """Every room of the store: ``room_id`` and ``title`` (as created), oldest first."""
        out = []
        for room_id in self.store.list_rooms():
            title = self._rooms[room_id].title if room_id in self._rooms else self.store.room_meta(room_id).get("title", "")
            out.append({"room_id": room_id, "title": title})
        return out

    # -- links --------------------------------------------------------------------------------
    def _auth(self, token) -> tuple[str, dict, dict]:
        room_id = token_room(token)
        try:
            meta = self.store.room_meta(room_id)
        except UnknownRoom:
            raise PermissionDenied("This link is not valid for any room: the room may have been "
                                   "removed; ask the GM for a new link.", key="error.link.no_room") from None
        return room_id, meta, meta.get("auth", {})

    def _identify(self, token) -> tuple[Room, Actor | None, Role]:
        room_id, meta, auth = self._auth(token)
        if matches(token, auth.get("gm")):
            return self.get(room_id), Actor.gm(meta.get("gm_name", "GM")), Role.GM
        if matches(token, auth.get("spectator")):
            return self.get(room_id), Actor.spectator(), Role.SPECTATOR
        if matches(token, auth.get("player")):
            return self.get(room_id), None, Role.PLAYER
        player_id = (auth.get("players") or {}).get(hash_token(token))
        if player_id:
            room = self.get(room_id)
            return room, Actor.player(player_id, room.players.get(player_id, "")), Role.PLAYER
        raise PermissionDenied("This link is not valid for this room (it may be old): ask the GM for a "
                               "new one.", key="error.link.old")

    def reissue_links(self, session: RoomSession, roles=("player", "spectator")) -> dict[str, str]:
        """New tokens for the players' invitation and the spectators' link (the old ones stop working).

        For a GM who lost the links or wants to shut out someone who had one. Players who already
        joined keep their personal links; the GM link is not reissued here.
        """
        if not session.actor.is_gm:
            raise PermissionDenied("Only the GM can hand out new links.", key="error.permission.links")
        roles = [Role(r).value for r in roles]
        if "gm" in roles:
            raise RuleError("The GM link is not reissued from a room page.", key="error.link.gm_reissue")
        room_id = session.room.room_id
        with self._lock:
            meta = self.store.room_meta(room_id)
            auth = dict(meta.get("auth", {}))
            tokens = {role: new_token(room_id) for role in roles}
            auth.update({role: hash_token(token) for role, token in tokens.items()})
            self.store.set_meta(room_id, {**meta, "auth": auth})
        return tokens

    def resolve(self, token: str) -> tuple[Room, Role]:
        """The room a link's token opens and the role it gives; PermissionDenied for a bad token."""
        room, _, role = self._identify(token)
        return room, role

    def open_session(self, token: str) -> RoomSession:
        """A session for a GM, spectator or personal player token.

        The player *invitation* is not an identity: join with :meth:`join` first.
        """
        room, actor, _ = self._identify(token)
        if actor is None:
            raise PermissionDenied("This is the players' invitation: join with your name first.",
                                   key="error.link.join_first")
        return RoomSession(room, actor)

    def join(self, invite_token: str, name: str) -> tuple[RoomSession, str]:
        """A player joins with the invitation: returns their session and their personal token.

        The personal token brings the same player back (another tab, another day); keep it.
        """
        with self._lock:
            room, actor, role = self._identify(invite_token)
            if role is not Role.PLAYER or actor is not None:
                raise PermissionDenied("Join with the players' invitation link.", key="error.link.use_invitation")
            events = room.apply(Actor.player(new_player_id(), name), "join", {"name": name})
            player = events[0]["player"]
            token = new_token(room.room_id)
            meta = self.store.room_meta(room.room_id)
            auth = dict(meta.get("auth", {}))
            auth["players"] = {**auth.get("players", {}), hash_token(token): player["player_id"]}
            try:
                self.store.set_meta(room.room_id, {**meta, "auth": auth})
            except StoreError:
                raise RuleError("You joined, but your personal link could not be saved: join again "
                                "to get one.", key="error.link.not_saved") from None
            return RoomSession(room, Actor.player(player["player_id"], player["name"])), token

    def __repr__(self) -> str:
        return f"RoomRegistry({self.store!r}, loaded={len(self._rooms)})"


_registries: dict[str, RoomRegistry] = {}
_registries_lock = threading.Lock()


def get_registry(db_path: str | os.PathLike | None = None) -> RoomRegistry:
    """The process-wide registry of a database file (created once, then shared by every session).

    ``None`` gives a registry in memory (rooms vanish with the process).
    """
    key = ":memory:" if db_path is None else str(Path(db_path).resolve())
    with _registries_lock:
        registry = _registries.get(key)
        if registry is None:
            store = MemoryStore() if db_path is None else SQLiteStore(db_path)
            registry = _registries[key] = RoomRegistry(store)
        return registry
