"""How components act: a small adapter between clicks and whoever decides.

Components never change game state themselves. They call :meth:`Actions.act` with a command name and
plain arguments (uids, names, numbers, text), and ask :meth:`Actions.why_not_error` (or
:meth:`Actions.can`) which buttons to enable and why the others are not. The answer is the rules' own:
a dry run of the real command (:meth:`Contest.why_not_error <raisus_panel.rules.Contest.why_not_error>`),
never a copy of the rules here. Two adapters implement it:

* :class:`ContestActions` -- the notebook case: commands go straight to a :class:`~raisus_panel.rules.Contest`
  (and a local list of characters and action checks).
* :class:`SessionActions` -- a shared room: commands go to ``RoomSession.act(name, **args)``, which
  authorises the role, lets the rules decide and fans the events out to every session.

Either way, a refused command raises :class:`~raisus_panel.rules.RuleError` (or the room's permission
error) and nothing changes; components catch it and show it in their language
(:func:`raisus_panel.i18n.translate`: the refusal's catalog key and fields).

Commands and their arguments (all plain values, so they can travel to a room):

=================  =================================================================================
``start_contest``  ``name, side_a=[uid, ...], side_b=[uid, ...], single_roll=False``
``choose``         ``unit, cliche, appropriate=True, approved=False``
``approve``        ``unit``
``give_tickets``   ``name=None, fitting=None`` (``{character uid: cliché}`` for the brevet option)
``roll_round``     --
``exchange``       ``attacker, target`` (unit uids)
``end_round``      --
``volunteer``      ``member`` (character uid); also ``assign_loss``, ``drop_out``
``form_team``      ``members=[{"character": uid, "cliche": name, "appropriate": bool}, ...],
                   leader=None, name=None``
``disband``        ``team``
``end``            ``outcome, winner=None``
``decide_fate``    ``character, text``; ``veto_fate``: ``character``
``recover``        ``character, cliche=None, amount=None``
``undo``           --
``save_character`` ``data`` (``Character.to_dict()`` output; a known uid updates that character)
``action_check``   ``character, cliche, tn, suitability="suitable", adjustment=0, automatic=False``;
                   a room also takes ``private=True`` (the GM's secret roll, see :meth:`Actions.supports`)
=================  =================================================================================
"""

from __future__ import annotations

import inspect
import logging
import weakref

import panel as pn
import param

from raisus_panel.i18n import t
from raisus_panel.rules import (Character, Contest, DiceSource, RuleError, RulesProfile, SeededDice,
                                action_check)
from raisus_panel.rules.errors import Phrase

from . import _derive as d

__all__ = ["Actions", "ContestActions", "SessionActions", "NotAllowed", "GM_ONLY", "refusals"]

log = logging.getLogger(__name__)

#: Commands only the game master may give (a hint for enabling buttons; the room checks roles).
GM_ONLY = frozenset({"approve", "give_tickets", "exchange", "end_round", "end", "veto_fate", "recover",
                     "undo", "start_contest"})


class NotAllowed(RuleError):
    """A local adapter refused a command for the actor's role (a room raises its own error)."""


def _refusal(key: str, cls: type[RuleError] = RuleError, **fields) -> RuleError:
    """A refusal of the local adapter: the English catalog text as its message, with key and fields."""
    return cls(t(key, "en", **fields), key=key, **fields)


def refusals() -> tuple[type[BaseException], ...]:
    """The exception types that mean "refused, nothing changed": shown to the user, never a traceback."""
    types: list[type[BaseException]] = [RuleError, PermissionError]
    try:  # the room layer may define its own permission error
        from raisus_panel import room
        denied = getattr(room, "PermissionDenied", None)
        if isinstance(denied, type) and issubclass(denied, BaseException):
            types.append(denied)
    except Exception:  # pragma: no cover - the room layer is optional here
        pass
    return tuple(types)


# ------------------------------------------------------------------------------------ adapters --
class Actions(param.Parameterized):
    """What a component acts through: ``act`` gives a command, ``why_not``/``can`` say whether to offer it.

    Subclasses keep ``contest``, ``characters`` and ``checks`` up to date so that components can
    watch them; components never change them.
    """

    contest = param.ClassSelector(class_=Contest, default=None, allow_None=True, doc="""
        The contest on the table, or None before one starts. Replaced when a new contest starts.""")

    characters = param.List(default=[], item_type=Character, doc="""
        The characters at the table (player characters, NPCs and grunt mobs).""")

    checks = param.List(default=[], doc="""
        The action checks rolled so far that this adapter's role may see, newest last, each a
        ``CheckResult.to_dict()`` mapping plus the ``character`` uid (and ``private``: True for the
        GM's secret rolls, which a room shows to the GM only).""")

    role = param.Selector(default="gm", objects=["gm", "player", "spectator"], doc="""
        The role of whoever acts through this adapter: "gm", "player" or "spectator".""")

    seq = param.Integer(default=0, bounds=(0, None), doc="""
        Grows whenever something happened that may change what can be done (a room's event
        sequence number, e.g. after the GM opens a round); components refresh on it.""")

    def act(self, command: str, /, **args):
        """Give ``command``; raise RuleError (or a permission error) if it is refused."""
        raise NotImplementedError

    def why_not(self, command: str, /, **args) -> str | None:
        """Why ``command`` with ``args`` would be refused now (a message for the user), or None.

        Nothing changes: the role is checked and the rules are asked for a dry run of the command.
        The English message of :meth:`why_not_error`.
        """
        refusal = self.why_not_error(command, **args)
        return None if refusal is None else str(refusal)

    def why_not_error(self, command: str, /, **args) -> RuleError | None:
        """The refusal ``command`` with ``args`` would meet now, or None.

        A :class:`~raisus_panel.rules.RuleError` (or the room's permission error) with its catalog
        key and fields, so a component can show it in its own language.
        """
        raise NotImplementedError

    def can(self, command: str, /, **args) -> bool:
        """Whether ``command`` with ``args`` would be accepted now (False for an unknown command)."""
        return self.supports(command) and self.why_not(command, **args) is None

    def supports(self, command: str, /, *arguments: str) -> bool:
        """Whether this adapter knows ``command`` (and takes these argument names) at all.

        Rooms have a few more commands (e.g. ``open_round``) and arguments (``private`` checks).
        """
        return True

    def character(self, uid: str) -> Character | None:
        """The character with ``uid`` (at the table or in the contest), or None."""
        found = next((c for c in self.characters if c.uid == uid), None)
        if found is None and self.contest is not None:
            found = d.character(self.contest, uid)
        return found

    def all_characters(self) -> list[Character]:
        """The table's characters and any others in the contest, each once."""
        out = list(self.characters)
        if self.contest is not None:
            seen = {c.uid for c in out}
            out += [c for c in self.contest.characters() if c.uid not in seen]
        return out


class ContestActions(Actions):
    """Commands applied directly to local models: a notebook table with every role.

    Parameters
    ----------
    contest
        The contest to play, or None to start one later with ``act("start_contest", ...)``.
    characters
        The characters at the table; the contest's characters are added.
    dice
        Dice for new contests and action checks (a :class:`~raisus_panel.rules.SeededDice` by default).
    profile
        Rules options for new contests.
    role
        "gm" (default) may do everything; "player" is refused the GM's commands; "spectator" all.

    Examples
    --------
    >>> from raisus_panel.rules import Character, Contest, ScriptedDice
    >>> contest = Contest("Brawl", Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3}),
    ...                   dice=ScriptedDice([[6, 5, 1, 1], [4, 4, 4]]))
    >>> actions = ContestActions(contest)
    >>> _ = actions.act("roll_round")
    >>> contest.round
    1
    """

    dice = param.ClassSelector(class_=DiceSource, default=None, allow_None=True, precedence=-1, doc="""
        Where new contests' and action checks' dice come from; the contest's own dice are kept.""")

    profile = param.ClassSelector(class_=RulesProfile, default=None, allow_None=True, doc="""
        The rules options for contests started through this adapter (defaults when None).""")

    def __init__(self, contest: Contest | None = None, *, characters=None, dice: DiceSource | None = None,
                 profile: RulesProfile | None = None, role: str = "gm", **params):
        chars = list(characters or [])
        super().__init__(contest=contest, characters=chars, dice=dice, profile=profile, role=role, **params)
        self._adopt_contest_characters()
        self.param.watch(lambda e: self._adopt_contest_characters(), "contest")

    def _adopt_contest_characters(self) -> None:
        if self.contest is None:
            return
        known = {c.uid for c in self.characters}
        new = [c for c in self.contest.characters() if c.uid not in known]
        if new:
            self.characters = [*self.characters, *new]

    def _dice(self) -> DiceSource:
        if self.dice is None:
            self.dice = SeededDice()
        return self.dice

    # -- the adapter ---------------------------------------------------------------------------
    def _handler(self, command: str):
        """What runs ``command``: the contest's own method for contest commands, else a local one."""
        if command in Contest.COMMANDS:
            return getattr(Contest, command)
        return getattr(self, f"_do_{command}", None)

    def supports(self, command: str, /, *arguments: str) -> bool:
        """Whether ``command`` can run here, taking ``arguments`` (names) -- no ``private`` checks."""
        handler = self._handler(command)
        if handler is None:
            return False
        return set(arguments) <= set(inspect.signature(handler).parameters)

    def _role_allows(self, name: str) -> bool:
        if self.role == "spectator":
            return False
        return self.role == "gm" or name not in GM_ONLY

    def _admit(self, command: str) -> None:
        """Raise what refuses ``command`` before the rules are asked: unknown, the role, no contest."""
        if self._handler(command) is None:
            raise ValueError(f"Unknown command {command!r}.")
        if not self._role_allows(command):
            role = Phrase(t(f"role.{self.role}", "en"), f"role.{self.role}")
            raise _refusal("error.table.role", NotAllowed, role=role, command=command)
        if command in Contest.COMMANDS and self.contest is None:
            raise _refusal("error.table.no_contest")

    def _contest_args(self, command: str, args: dict) -> dict:
        """The adapter's plain arguments as the contest method takes them (its names are the same).

        Contest methods take uids themselves; only a team's members and leader must be characters:
        ``{"character": uid, "cliche": name, "appropriate": bool}`` -> ``(character, cliche, appropriate)``.
        """
        if command != "form_team":
            return args
        members = [(self._contest_character(m["character"]), m["cliche"], bool(m.get("appropriate", True)))
                   for m in args.get("members", ())]
        leader = args.get("leader")
        return {**args, "members": members, "leader": self._contest_character(leader) if leader else None}

    def _contest_character(self, uid: str) -> Character:
        char = d.character(self.contest, uid)
        if char is None:
            raise _refusal("error.table.unknown_character", uid=uid)
        return char

    def why_not_error(self, command: str, /, **args) -> RuleError | None:
        """The refusal ``command`` would meet now -- the role's or the rules' -- or None.

        Contest commands are a dry run of the contest's own command (:meth:`Contest.why_not_error`:
        the same checks, no dice used, nothing changed). Raises ValueError for an unknown command.
        """
        try:
            self._admit(command)
            if command in Contest.COMMANDS:
                return self.contest.why_not_error(command, **self._contest_args(command, args))
        except RuleError as exc:
            return exc.with_traceback(None)
        return None

    def act(self, command: str, /, **args):
        """Run ``command`` on the local models; RuleError when refused (nothing changes)."""
        self._admit(command)
        if command in Contest.COMMANDS:
            return getattr(self.contest, command)(**self._contest_args(command, args))
        return self._handler(command)(**args)

    # -- commands the contest does not run ------------------------------------------------------
    def _do_start_contest(self, name: str, side_a=(), side_b=(), single_roll: bool = False):
        def pick(uids):
            chars = []
            for uid in uids:
                char = self.character(uid)
                if char is None:
                    raise _refusal("error.table.unknown_character", uid=uid)
                chars.append(char)
            return chars
        if self.contest is not None and self.contest.status == "active":
            raise _refusal("error.table.contest_running")
        contest = Contest(name, pick(side_a), pick(side_b), single_roll=bool(single_roll),
                          profile=self.profile, dice=self._dice())
        self.contest = contest
        return contest.events

    def _do_save_character(self, data: dict) -> Character:
        fresh = Character.from_dict(data)  # validates every field (RuleError)
        old = self.character(fresh.uid)
        if old is None:
            self.characters = [*self.characters, fresh]
            return fresh
        if type(old) is not type(fresh):
            raise _refusal("error.table.kind_change")
        if self.contest is not None and self.contest.status == "active" and \
                any(c.uid == old.uid for c in self.contest.characters()):
            raise _refusal("error.table.in_contest", name=old.name)
        updates = {k: getattr(fresh, k) for k in ("name", "description", "owner", "cliches")}
        if isinstance(fresh, type(old)) and hasattr(fresh, "member_rating"):
            updates.update(member_rating=fresh.member_rating, count=fresh.count)
        old.param.update(**updates)
        return old

    def _do_action_check(self, character, cliche, tn, suitability="suitable", adjustment=0,
                         automatic=False) -> dict:
        char = self.character(character)
        if char is None:
            raise _refusal("error.table.unknown_character", uid=character)
        profile = self.contest.profile if self.contest is not None else self.profile
        result = action_check(char.cliche(cliche), tn, suitability=suitability, adjustment=adjustment,
                              automatic=automatic, dice=self._dice(), profile=profile)
        record = {**result.to_dict(), "character": char.uid}
        self.checks = [*self.checks, record]
        return record


class SessionActions(Actions):
    """Commands sent to a shared room through a ``RoomSession`` (``session.act(name, **args)``).

    The room authorises the session's role and lets the rules decide; this adapter mirrors the
    room's ``contest``, ``characters`` and ``checks`` so components can watch them.

    Parameters
    ----------
    session
        A ``raisus_panel.room.RoomSession``: ``.act(name, **args)``, ``.why_not(name, **args)``, ``.room``
        (with ``contest``, ``characters``, ``checks``) and ``.actor`` (with a ``role``).
    """

    def __init__(self, session, **params):
        self._session = session
        room = session.room
        role = getattr(getattr(session, "actor", None), "role", None)
        role = getattr(role, "value", role)  # the room's Role enum, or plain text
        super().__init__(role=role if role in ("gm", "player", "spectator") else "spectator", **params)
        self._watchers = []
        self._mirror()
        names = [n for n in ("contest", "characters", "checks", "seq", "round_open") if n in room.param]
        if names:
            # weakly held: an adapter nobody uses any more is collected and stops mirroring
            mirror = weakref.WeakMethod(self._mirror)

            def relay(*events):
                fn = mirror()
                if fn is None:
                    return
                try:
                    fn()
                except Exception:  # the command is saved: one broken view must not fail it for its giver
                    log.exception("a session's view of the room could not follow a change")
            self._watchers.append((room, room.param.watch(relay, names)))
        # served: stop mirroring when the browser tab closes
        doc = pn.state.curdoc
        if doc is not None and getattr(doc, "session_context", None) is not None:
            pn.state.on_session_destroyed(lambda ctx: self.dispose())

    @property
    def session(self):
        """The room session commands go through."""
        return self._session

    def _mirror(self) -> None:
        """Copy the room's state onto the parameters -- only what changed, so watchers fire only then."""
        room = self._session.room
        changes = {}
        contest = getattr(room, "contest", None)
        if contest is not self.contest:
            changes["contest"] = contest
        characters = getattr(room, "characters", None) or []
        if characters is not getattr(self, "_mirrored_characters", None):
            self._mirrored_characters = characters  # the room replaces the list when it changes
            if list(characters) != self.characters:
                changes["characters"] = list(characters)
        # the session's own view of the checks includes the GM's secret rolls only for the GM
        checks = getattr(self._session, "checks", None)
        if checks is None:
            checks = getattr(room, "checks", None)
        checks = list(checks or [])
        if checks != self.checks:
            changes["checks"] = checks
        seq = max(0, int(getattr(room, "seq", 0) or 0))
        if seq != self.seq:
            changes["seq"] = seq
        if changes:
            self.param.update(**changes)

    def act(self, command: str, /, **args):
        """Send the command to the room (which raises when it refuses).

        Returns what the adapter contract promises: the saved character for ``save_character``,
        the check's record for ``action_check``, else the room's events.
        """
        events = self._session.act(command, **args)
        if command == "action_check":
            for event in events or []:
                if event.get("type") == "action_checked":
                    return {**event["check"], "character": event["character"],
                            "private": bool(event.get("private", False))}
        if command == "save_character":
            uid = args.get("data", {}).get("uid")
            found = next((c for c in self.characters if c.uid == uid), None)
            if found is None and self.characters:
                found = self.characters[-1]
            return found
        return events

    def supports(self, command: str, /, *arguments: str) -> bool:
        """Whether the room knows ``command`` and takes ``arguments`` (its command table)."""
        try:
            from raisus_panel.room.commands import ALIASES, ARGUMENTS, SAVE_CHARACTER
        except ImportError:  # pragma: no cover - an older room layer
            return True
        if command == SAVE_CHARACTER:
            return set(arguments) <= {"data"}
        takes = ARGUMENTS.get(ALIASES.get(command, command))
        return takes is not None and set(arguments) <= takes

    def why_not_error(self, command: str, /, **args) -> RuleError | None:
        """The room's answer for this session: its role, the arguments and the rules.

        The room checks permission and arguments, then asks the contest for a dry run of the
        command (``RoomSession.why_not_error``); nothing changes. A session that only has
        ``why_not`` gives its reason as a refusal without a key (shown as it is).
        """
        ask = getattr(self._session, "why_not_error", None)
        if ask is not None:
            return ask(command, **args)
        reason = self._session.why_not(command, **args)
        return None if reason is None else RuleError(reason)

    def dispose(self) -> None:
        """Stop mirroring the room (call when the browser tab closes)."""
        for obj, watcher in self._watchers:
            obj.param.unwatch(watcher)
        self._watchers = []
