"""The server's rooms: create them with their links, find a room by a link, join with an invitation.

A served Panel app runs its script once per browser tab, so shared rooms must not be created there:
they live in a :class:`RoomRegistry` kept in this module (:func:`get_registry`), loaded lazily
from the store the first time a link points at them, and dropped from memory again once no
session uses them (the store keeps them; the next link loads them again).

The GM manages the links from the room: reissue the invitation and the spectators' link, revoke a
player's personal link, replace the GM link. A link that stops working closes the pages opened with
it (:class:`LinkSession`), and opening it again says why.
"""

from __future__ import annotations

import copy
import logging
import os
import threading
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from raisus_panel.rules import RuleError
from raisus_panel.rules.dice import DiceSource
from raisus_panel.rules.errors import Phrase
from raisus_panel.rules.validation import clean_name

from .commands import new_player_id, same_name
from .errors import JoinNotKnownYet, OutcomeUnknown, StoreError, UnknownRoom
from .limits import CommandRate, CreationQuota, Limits, too_large
from .roles import Actor, PermissionDenied, Role
from .room import Room, create_in_store, new_room_id
from .session import RoomSession
from .store import Store
from .store_url import open_store, store_key
from .tokens import hash_token, matches, new_token, token_room
from .transfer import import_room

log = logging.getLogger(__name__)

_GM_NAME = Phrase("GM's name", "term.gm_name")
#: How many replaced link hashes a room remembers, to tell their holders why they no longer work.
_RETIRED_KEPT = 50


def _revoked() -> PermissionDenied:
    return PermissionDenied("The GM removed you from this room: this link no longer works.",
                            key="error.link.revoked")


def _replaced() -> PermissionDenied:
    return PermissionDenied("The GM replaced this link: ask the GM for the new one.", key="error.link.replaced")


def _gm_replaced(room_id: str) -> PermissionDenied:
    """A GM link that was replaced: the one who holds it is the GM, so "ask the GM" would be no way
    back -- it names the newest link and, for a GM who lost that one, the shell command of the
    server's owner."""
    return PermissionDenied("This GM link was replaced by a newer one: open the GM link you were given last. "
                            f"Lost it? Whoever runs the server can make a new one with: raisus links {room_id} "
                            "--new-gm", key="error.link.gm_replaced", room_id=room_id)


def _size(text: object, most: int) -> int:
    """The size of a file's content in bytes (only as exact as needed to compare with ``most``)."""
    if isinstance(text, (bytes, bytearray)):
        return len(text)
    if isinstance(text, str):
        return len(text) if len(text) > most else len(text.encode("utf-8", "surrogatepass"))
    return 0


class LinkSession(RoomSession):
    """A served person's session, opened with a link; closed when the GM revokes or replaces that link.

    ``credential`` names the link: ``"gm"``, ``"spectator"`` or ``"player:<player id>"``. A closed
    session refuses every command with :attr:`closed` (the reason), and tells the callbacks given to
    :meth:`on_close` once -- a page shows the reason and lets go of the room.
    """

    def __init__(self, room: Room, actor: Actor, credential: str, registry: "RoomRegistry | None" = None,
                 digest: str = "") -> None:
        super().__init__(room, actor)
        self.credential = credential
        #: The hash of the link's token: a process that did not change the links checks it against
        #: the room's link hashes when another process did (:meth:`RoomRegistry._links_changed`).
        self.digest = digest
        #: The registry that opened it: where its GM manages the room's links.
        self.registry = registry
        #: Why this session was closed (a PermissionDenied), or None while it is open.
        self.closed: PermissionDenied | None = None
        self._on_close: list[Callable[[PermissionDenied], None]] = []
        self._presence: set[str] = set()
        self._lock = threading.Lock()

    def connect(self, session_id: str) -> None:
        """Show this session as present (not once it is closed)."""
        if self.closed is None:
            self._presence.add(str(session_id))
            super().connect(session_id)

    def disconnect(self, session_id: str) -> None:
        self._presence.discard(str(session_id))
        super().disconnect(session_id)

    def on_close(self, callback: Callable[[PermissionDenied], None]) -> Callable[[], None]:
        """Call ``callback(reason)`` when this session is closed (at once if it is); returns a remover.

        The callback runs on the thread that closes the session (the GM's click): it must only
        schedule its page's change, as room subscribers do.
        """
        with self._lock:
            reason = self.closed
            if reason is None:
                self._on_close.append(callback)
        if reason is not None:
            callback(reason)

        def remove() -> None:
            with self._lock:
                if callback in self._on_close:
                    self._on_close.remove(callback)
        return remove

    def close(self, reason: PermissionDenied) -> None:
        """Close the session for ``reason`` (a second close does nothing)."""
        with self._lock:
            if self.closed is not None:
                return
            self.closed = reason
            callbacks, self._on_close = self._on_close, []
            present, self._presence = self._presence, set()
        for session_id in present:
            self.room.disconnect(session_id)
        for callback in callbacks:
            try:
                callback(reason)
            except Exception:  # one broken page must not stop the GM's click
                log.exception("a closed session's callback failed")

    def act(self, command: str, /, command_id: str | None = None, seen_seq: int | None = None,
            **args: object) -> list[dict[str, Any]]:
        if self.closed is not None:
            raise self.closed
        if self.registry is not None:  # one person cannot flood the room's permanent log
            self.registry.command_rate.take(f"{self.room.room_id}/{self.digest or self.credential}")
        return super().act(command, command_id=command_id, seen_seq=seen_seq, **args)

    def why_not_error(self, command: str, /, **args: object) -> RuleError | None:
        return self.closed if self.closed is not None else super().why_not_error(command, **args)


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
    limits
        The largest room file and how many rooms may be made (:class:`~.limits.Limits`).

    Notes
    -----
    Link hashes live in the store's room metadata under ``"auth"``, never in the event log, so an
    exported room carries no credentials and an imported room gets new links.

    Rooms are held only while something uses them (a session, a page): the registry keeps them
    weakly, so a room nobody has open leaves memory and is loaded again from the store on demand.
    There is never a second copy of a room in one process: a room is reloaded only once nothing
    can reach the old one.
    """

    def __init__(self, store: Store, *, dice_factory: Callable[[], DiceSource | None] | None = None,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.dice_factory = dice_factory
        self.limits = limits or Limits()
        self._quota = CreationQuota(self.limits, times=store)  # shared by every process on a shared store
        #: Each link's commands (every page opened with one link draws on the same bucket).
        self.command_rate = CommandRate(self.limits)
        self._rooms: weakref.WeakValueDictionary[str, Room] = weakref.WeakValueDictionary()
        # the sessions opened with links, by room, to close them when their link stops working
        self._sessions: dict[str, weakref.WeakSet[LinkSession]] = {}
        # Guards the two maps above, and only them: never held across a store call, so a store slow to
        # answer one room's page does not hold up what the registry knows of every other room.
        self._lock = threading.RLock()
        self._loading: dict[str, threading.Lock] = {}  # a room being loaded: one load per room at a time
        self._creating = threading.Lock()  # a creation's limit check and its count, as one step
        # another server process may reissue or revoke links (a shared store tells)
        store.on_meta(self._links_changed)

    def _dice(self) -> DiceSource | None:
        return self.dice_factory() if self.dice_factory else None

    def _new_links(self, room_id: str) -> tuple[RoomLinks, dict[str, Any]]:
        links = RoomLinks(room_id, new_token(room_id), new_token(room_id), new_token(room_id))
        auth = {"gm": hash_token(links.gm), "player": hash_token(links.player),
                "spectator": hash_token(links.spectator), "players": {}}
        return links, auth

    def create_room(self, title: str, *, gm_name: str = "GM", client: str | None = None) -> tuple[Room, RoomLinks]:
        """A new room and its three links (GM, player invitation, spectator).

        ``client`` (an address) counts the room against that client's limit; every room counts
        against the server's. :class:`~.limits.LimitReached` when a limit is met (nothing made).
        """
        gm_name = clean_name(gm_name, _GM_NAME)
        with self._creating:
            self._quota.check(client)
            # the room and its links are written in one step: a crash between them would leave a
            # room nobody can open
            links, auth = self._new_links(new_room_id())
            room_id = create_in_store(self.store, title, room_id=links.room_id,
                                      meta={"gm_name": gm_name, "auth": auth})
            self._quota.record(client)
            return self.get(room_id), links

    def import_room(self, text: str | bytes, *, gm_name: str = "GM", client: str | None = None) -> tuple[Room, RoomLinks]:
        """Import a room file (see :func:`~.transfer.import_room`) with new links.

        Refused before it is read when larger than ``limits.max_upload_bytes``; counts against the
        room limits as :meth:`create_room` does.
        """
        gm_name = clean_name(gm_name, _GM_NAME)
        size = _size(text, self.limits.max_upload_bytes)
        if size > self.limits.max_upload_bytes:
            raise too_large(size, self.limits.max_upload_bytes)
        with self._creating:
            self._quota.check(client)
            links, auth = self._new_links(new_room_id())  # written with the room, in one step
            room = import_room(self.store, text, room_id=links.room_id, dice=self._dice(),
                               meta={"gm_name": gm_name, "auth": auth}, max_bytes=self.limits.max_upload_bytes)
            self._quota.record(client)
        with self._lock:
            return self._rooms.setdefault(room.room_id, room), links

    def get(self, room_id: str) -> Room:
        """The room ``room_id``: the one in memory while anything uses it, else loaded from the store."""
        with self._lock:
            room = self._rooms.get(room_id)
            if room is not None:
                return room
            loading = self._loading.setdefault(room_id, threading.Lock())
        with loading:  # a second page asking meanwhile waits for this load, not for other rooms
            with self._lock:
                room = self._rooms.get(room_id)
            if room is not None:
                return room
            try:
                loaded = Room.load(self.store, room_id, dice=self._dice())
            finally:
                with self._lock:
                    self._loading.pop(room_id, None)
            with self._lock:  # one copy of a room in the process, whoever loaded it
                return self._rooms.setdefault(room_id, loaded)

    @property
    def loaded(self) -> list[str]:
        """The ids of the rooms in memory now (those some session, page or caller still holds)."""
        return list(self._rooms.keys())

    def rooms(self) -> list[dict[str, Any]]:
        """Every room of the store: ``room_id`` and ``title`` (as created), oldest first."""
        out = []
        for room_id in self.store.list_rooms():
            room = self._rooms.get(room_id)
            title = room.title if room is not None else self.store.room_meta(room_id).get("title", "")
            out.append({"room_id": room_id, "title": title})
        return out

    # -- links --------------------------------------------------------------------------------
    def _auth(self, token: object) -> tuple[str, dict[str, Any], dict[str, Any]]:
        room_id = token_room(token)
        try:
            meta = self.store.room_meta(room_id)
        except UnknownRoom:
            raise PermissionDenied("This link is not valid for any room: the room may have been "
                                   "removed; ask the GM for a new link.", key="error.link.no_room") from None
        return room_id, meta, meta.get("auth", {})

    def _identify(self, token: object) -> tuple[Room, Actor | None, str, str]:
        """The room, the actor (None for the invitation), the credential and the hash of a token."""
        room_id, meta, auth = self._auth(token)
        assert isinstance(token, str)  # token_room (in _auth) refused what is not text
        if matches(token, auth.get("gm")):
            return self.get(room_id), Actor.gm(meta.get("gm_name", "GM")), "gm", auth["gm"]
        if matches(token, auth.get("spectator")):
            return self.get(room_id), Actor.spectator(), "spectator", auth["spectator"]
        if matches(token, auth.get("player")):
            return self.get(room_id), None, "invitation", auth["player"]
        digest = hash_token(token)
        player_id = (auth.get("players") or {}).get(digest)
        if player_id:
            room = self.get(room_id)
            return room, Actor.player(player_id, room.players.get(player_id, "")), f"player:{player_id}", digest
        if digest in (auth.get("revoked") or {}):
            raise _revoked()
        if digest in (auth.get("retired_gm") or []):
            raise _gm_replaced(room_id)
        if digest in (auth.get("retired") or []):
            raise _replaced()
        raise PermissionDenied("This link is not valid for this room (it may be old): ask the GM for a "
                               "new one.", key="error.link.old")

    @staticmethod
    def _role(credential: str) -> Role:
        return Role.GM if credential == "gm" else Role.SPECTATOR if credential == "spectator" else Role.PLAYER

    def _session(self, room: Room, actor: Actor, credential: str, digest: str) -> LinkSession:
        session = LinkSession(room, actor, credential, self, digest)
        with self._lock:
            self._sessions = {k: v for k, v in self._sessions.items() if v}  # forget rooms with no session
            self._sessions.setdefault(room.room_id, weakref.WeakSet()).add(session)
        return session

    def sessions(self, room_id: str) -> list[LinkSession]:
        """The sessions opened with links to ``room_id`` that are still in use and open."""
        with self._lock:
            return [s for s in list(self._sessions.get(room_id, ())) if s.closed is None]

    def _close(self, room: Room, credential: str, reason: PermissionDenied, *, keep: RoomSession | None = None) -> int:
        """Close every open session of ``credential`` but ``keep``, and clear their presence."""
        closing = [s for s in self.sessions(room.room_id) if s.credential == credential and s is not keep]
        for session in closing:
            session.close(reason)  # the session leaves the presence line too
        return len(closing)

    def _gm_only(self, session: RoomSession) -> None:
        if not isinstance(session, RoomSession) or not session.actor.is_gm or getattr(session, "closed", None):
            raise PermissionDenied("Only the GM can hand out new links.", key="error.permission.links")

    def _update_auth(self, room_id: str, change: Callable[[dict[str, Any]], None]) -> None:
        """Change a room's link hashes in one step, however many processes change them at once."""
        def update(meta: dict[str, Any]) -> dict[str, Any]:
            auth = copy.deepcopy(meta.get("auth", {}))
            change(auth)
            return {**meta, "auth": auth}
        self.store.update_meta(room_id, update)

    def _links_changed(self, room_id: str) -> None:
        """Another process changed a room's links: close this process's sessions whose link stopped working.

        The store calls it (on its listener thread) for every change of a room's metadata, this
        process's own included; a session whose link still works is left alone.
        """
        open_here = self.sessions(room_id)
        if not open_here:
            return
        try:
            auth = self.store.room_meta(room_id).get("auth", {})
        except (StoreError, UnknownRoom):
            return  # unreachable now: checked again when the store is back
        players = auth.get("players") or {}
        for session in open_here:
            if not session.digest:
                continue
            if session.credential in ("gm", "spectator"):
                if auth.get(session.credential) != session.digest:
                    session.close(_gm_replaced(room_id) if session.credential == "gm" else _replaced())
            elif players.get(session.digest) != session.actor.player_id:
                session.close(_revoked())

    @staticmethod
    def _retire(auth: dict[str, Any], *digests: str | None) -> None:
        auth["retired"] = [*(auth.get("retired") or []), *[d for d in digests if d]][-_RETIRED_KEPT:]

    @classmethod
    def _retire_gm(cls, auth: dict[str, Any]) -> None:
        """Retire the GM link in force, remembered as the GM's (its refusal shows the GM the way back)."""
        cls._retire(auth, auth.get("gm"))
        if auth.get("gm"):
            auth["retired_gm"] = [*(auth.get("retired_gm") or []), auth["gm"]][-_RETIRED_KEPT:]

    def reissue_links(self, session: RoomSession, roles: Iterable[str] = ("player", "spectator")) -> dict[str, str]:
        """New tokens for the players' invitation and the spectators' link (the old ones stop working).

        For a GM who lost the links or wants to shut out someone who had one. Players who already
        joined keep their personal links; pages open with the old spectators' link are closed (their
        people need the new link). The GM link is replaced with :meth:`replace_gm_link`.
        """
        self._gm_only(session)
        names = [Role(r).value for r in roles]
        if "gm" in names:
            raise RuleError("The GM link is not reissued from a room page.", key="error.link.gm_reissue")
        room_id = session.room.room_id
        tokens = {role: new_token(room_id) for role in names}

        def change(auth: dict[str, Any]) -> None:
            self._retire(auth, *(auth.get(role) for role in names))
            auth.update({role: hash_token(token) for role, token in tokens.items()})
        self._update_auth(room_id, change)
        if "spectator" in names:
            self._close(session.room, "spectator", _replaced())
        return tokens

    def replace_gm_link(self, session: RoomSession) -> str:
        """A new GM link for a GM whose link leaked: the old one stops working at once.

        Every other page open with the old GM link is closed; the asking GM's page stays. Show the
        new token once, as at the room's creation: only its hash is kept.
        """
        self._gm_only(session)
        room_id = session.room.room_id
        token = new_token(room_id)

        def change(auth: dict[str, Any]) -> None:
            self._retire_gm(auth)
            auth["gm"] = hash_token(token)
        old_digest = getattr(session, "digest", "")
        if isinstance(session, LinkSession):  # before other processes hear of it: this page stays
            session.digest = hash_token(token)
        try:
            self._update_auth(room_id, change)
        except BaseException:
            if isinstance(session, LinkSession):
                session.digest = old_digest
            raise
        self._close(session.room, "gm", _replaced(), keep=session)
        return token

    def new_gm_link(self, room_id: str) -> str:
        """A new GM link for a room, for the server's owner (``raisus links ROOM --new-gm``), not a page.

        The way back for a GM who lost their only link: the old GM link stops working and its open
        pages close, as with :meth:`replace_gm_link`. Returns the new token, shown once.
        """
        if not isinstance(room_id, str) or not room_id:
            raise RuleError("Name the room by its id (the part of a link's token before the dot).",
                            key="error.link.no_room_id")
        try:
            self.store.room_meta(room_id)
        except UnknownRoom:
            raise RuleError(f"There is no room {room_id!r} on this store: check the room's id and the store.",
                            key="error.link.unknown_room", room_id=repr(room_id)) from None
        token = new_token(room_id)

        def change(auth: dict[str, Any]) -> None:
            self._retire_gm(auth)
            auth["gm"] = hash_token(token)
        self._update_auth(room_id, change)
        room = self._rooms.get(room_id)  # pages of other processes close when the store tells them
        if room is not None:
            self._close(room, "gm", _gm_replaced(room_id))
        return token

    def revoke_player(self, session: RoomSession, player_id: str) -> int:
        """Revoke a joined player's personal link: their open pages close, the link is refused from now on.

        The player stays in the room's log and their characters stay at the table (the GM may give
        them to someone else). To keep them from joining again, reissue the invitation as well.
        Returns how many open sessions were closed.
        """
        self._gm_only(session)
        room = session.room
        if not isinstance(player_id, str) or player_id not in room.players:
            raise RuleError(f"There is no player with id {player_id!r} in this room: reload the page to see who "
                            "joined.", key="error.link.no_player", player_id=repr(player_id))

        def change(auth: dict[str, Any]) -> None:
            players = dict(auth.get("players") or {})
            gone = [digest for digest, pid in players.items() if pid == player_id]
            auth["players"] = {d: pid for d, pid in players.items() if pid != player_id}
            auth["revoked"] = {**(auth.get("revoked") or {}), **dict.fromkeys(gone, player_id)}
        self._update_auth(room.room_id, change)
        return self._close(room, f"player:{player_id}", _revoked())

    def reissue_player_link(self, session: RoomSession, player_id: str) -> str:
        """A new personal link for a player who lost theirs, or whom the GM removed and takes back.

        The same player (their name, their characters) comes back with it; every older personal
        link of theirs stops working ("replaced") and its open pages close. Returns the new token,
        shown once to the GM, who hands it to the player.
        """
        self._gm_only(session)
        room = session.room
        if not isinstance(player_id, str) or player_id not in room.players:
            raise RuleError(f"There is no player with id {player_id!r} in this room: reload the page to see who "
                            "joined.", key="error.link.no_player", player_id=repr(player_id))
        token = new_token(room.room_id)

        def change(auth: dict[str, Any]) -> None:
            players = dict(auth.get("players") or {})
            old = [digest for digest, pid in players.items() if pid == player_id]
            players = {d: pid for d, pid in players.items() if pid != player_id}
            players[hash_token(token)] = player_id
            auth["players"] = players
            # their removal is over: their old links say "replaced", not "removed"
            revoked = auth.get("revoked") or {}
            old += [d for d, pid in revoked.items() if pid == player_id]
            auth["revoked"] = {d: pid for d, pid in revoked.items() if pid != player_id}
            self._retire(auth, *old)
        self._update_auth(room.room_id, change)
        self._close(room, f"player:{player_id}", _replaced())
        return token

    def revoked_players(self, room_id: str) -> set[str]:
        """The ids of the players whose links the GM revoked (and who hold no link since)."""
        auth = self.store.room_meta(room_id).get("auth", {})
        holding = set((auth.get("players") or {}).values())
        return set((auth.get("revoked") or {}).values()) - holding

    def resolve(self, token: str) -> tuple[Room, Role]:
        """The room a link's token opens and the role it gives; PermissionDenied for a bad token."""
        room, _, credential, _ = self._identify(token)
        return room, self._role(credential) if credential != "invitation" else Role.PLAYER

    def open_session(self, token: str) -> LinkSession:
        """A session for a GM, spectator or personal player token.

        The player *invitation* is not an identity: join with :meth:`join` first.
        """
        room, actor, credential, digest = self._identify(token)
        if actor is None:
            raise PermissionDenied("This is the players' invitation: join with your name first.",
                                   key="error.link.join_first")
        return self._session(room, actor, credential, digest)

    def join(self, invite_token: str, name: str) -> tuple[LinkSession, str]:
        """A player joins with the invitation: returns their session and their personal token.

        The personal token brings the same player back (another tab, another day); keep it. A name
        already taken at the table -- another player's or the GM's -- is refused: names tell people
        apart there.
        """
        room, actor, credential, _ = self._identify(invite_token)
        if credential != "invitation":
            raise PermissionDenied("Join with the players' invitation link.", key="error.link.use_invitation")
        gm_name = self.store.room_meta(room.room_id).get("gm_name", "GM")
        if isinstance(name, str) and same_name(name, gm_name):
            raise RuleError(f"{gm_name} is the GM's name here: choose another name.",
                            key="error.room.name_is_gm", name=gm_name)
        joining = Actor.player(new_player_id(), name)
        room.check(joining, "join", {"name": name})  # a name taken or unfit is refused before anything is written
        token = new_token(room.room_id)
        digest = hash_token(token)
        # The personal link is saved before the join: a player the room holds always has theirs. In
        # the other order a lost answer left a player at the table whom nobody could be -- the same
        # name was refused as taken. Now a failure before the join leaves at most a hash nobody holds.
        def change(auth: dict[str, Any]) -> None:
            auth["players"] = {**auth.get("players", {}), digest: joining.player_id}
        try:
            self._update_auth(room.room_id, change)
        except StoreError:
            raise StoreError("You have not joined yet: the room store did not answer. Join again.",
                             key="error.link.not_joined") from None
        try:
            events = room.apply(joining, "join", {"name": name})
        except OutcomeUnknown as unknown:  # the join may land yet: its link is saved, and goes with it
            raise JoinNotKnownYet.about(unknown, token) from None
        except RuleError:
            self._forget_link(room.room_id, digest)
            raise
        player = events[0]["player"]
        actor = Actor.player(player["player_id"], player["name"])
        return self._session(room, actor, f"player:{actor.player_id}", digest), token

    def _forget_link(self, room_id: str, digest: str) -> None:
        """Take back a personal link saved for a join that was refused (best effort: nobody holds it)."""
        def change(auth: dict[str, Any]) -> None:
            auth["players"] = {k: v for k, v in auth.get("players", {}).items() if k != digest}
        try:
            self._update_auth(room_id, change)
        except StoreError:
            log.warning("a refused join's unused link hash stays in room %s", room_id)

    def __repr__(self) -> str:
        return f"RoomRegistry({self.store!r}, loaded={len(self._rooms)})"


_registries: dict[str, RoomRegistry] = {}
_registries_lock = threading.Lock()


def get_registry(store: str | os.PathLike[str] | None = None, *, limits: Limits | None = None) -> RoomRegistry:
    """The process-wide registry of a store (opened once, then shared by every session).

    ``store`` names it as :func:`~.store_url.open_store` takes it: a SQLite file path or
    ``sqlite:///`` URL, a ``redis://`` URL, or None for a registry in memory (rooms vanish with the
    process). ``limits``, when given, become the registry's limits (the served dashboard passes the
    server's settings).
    """
    key = store_key(store)
    with _registries_lock:
        registry = _registries.get(key)
        if registry is None:
            registry = _registries[key] = RoomRegistry(open_store(store), limits=limits)
        elif limits is not None and limits != registry.limits:
            registry.limits = limits
            registry._quota = CreationQuota(limits, times=registry.store)
        return registry
