"""How components act: a small adapter between clicks and whoever decides.

Components never change game state themselves. They call :meth:`Actions.act` with a command name and
plain arguments (uids, names, numbers, text), and ask :meth:`Actions.can` which buttons to enable.
Two adapters implement it:

* :class:`ContestActions` -- the notebook case: commands go straight to a :class:`~raisus_panel.rules.Contest`
  (and a local list of characters and action checks).
* :class:`SessionActions` -- a shared room: commands go to ``RoomSession.act(name, **args)``, which
  authorises the role, lets the rules decide and fans the events out to every session.

Either way, a refused command raises :class:`~raisus_panel.rules.RuleError` (or the room's permission
error) and nothing changes; components catch it and show its message.

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
``action_check``   ``character, cliche, tn, suitability="suitable", adjustment=0, automatic=False``
=================  =================================================================================
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

import panel as pn
import param

from raisus_panel.i18n import t
from raisus_panel.rules import (Character, CharacterTeam, Contest, DiceSource, RuleError, RulesProfile,
                                SeededDice, action_check)

from . import _derive as d

__all__ = ["Actions", "ContestActions", "SessionActions", "NotAllowed", "GM_ONLY", "refusals", "rules_allow"]

#: Commands only the game master may give (a hint for enabling buttons; the room checks roles).
GM_ONLY = frozenset({"approve", "give_tickets", "exchange", "end_round", "end", "veto_fate", "recover",
                     "undo", "start_contest"})

#: Commands a room answers for itself (its undo also takes back room events, such as a new character).
_ROOM_LEVEL = frozenset({"undo", "start_contest", "close_contest", "open_round"})

#: Commands that need no contest.
_NO_CONTEST = frozenset({"start_contest", "save_character", "action_check"})


class NotAllowed(RuleError):
    """A local adapter refused a command for the actor's role (a room raises its own error)."""


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


# ------------------------------------------------------------------------------ rule predicates --
def _roll_round_ok(c: Contest) -> bool:
    window = c.volunteer_window
    counts = [len(c.active_units(s)) for s in (0, 1)]
    if window and window["leader_down"]:
        # the next command first breaks the team up; count who would stand afterwards
        team = d.unit(c, window["team"])
        side = d.side_of(c, window["team"])
        penalty = c.profile.disband_penalty
        survivors = [m for m in team.active_members
                     if m is not team.leader and team.cliche_of(m).pool > penalty]
        counts[side] += len(survivors) - 1
        if counts != [1, 1]:
            return False
        return True
    if counts != [1, 1]:
        return False
    return all(d.can_roll(c, c.active_units(s)[0]) for s in (0, 1))


def _exchange_ok(c: Contest, attacker: str | None = None, target: str | None = None) -> bool:
    if c.single_roll or not c.needs_exchanges:
        return False
    if attacker is None or target is None:
        return True
    a, b = d.unit(c, attacker), d.unit(c, target)
    if a is None or b is None or d.side_of(c, attacker) == d.side_of(c, target):
        return False
    return d.can_roll(c, a) and d.can_roll(c, b)


def _choose_ok(c: Contest, unit: str, cliche: str | None = None, **_) -> bool:
    u = d.unit(c, unit)
    if u is None or isinstance(u, CharacterTeam) or not c.is_active(unit):
        return False
    if cliche is None:
        return True
    return u.has_cliche(cliche) and u.cliche(cliche).pool > 0


def _tickets_ok(c: Contest, **_) -> bool:
    return (not d.has_rolled(c) and not any(e["type"] == "tickets_given" for e in c.events)
            and not any(isinstance(u, CharacterTeam) for u in d.units(c)))


def _window_member(c: Contest, member: str):
    window = c.volunteer_window
    if not window:
        return None, None, None
    team = d.unit(c, window["team"])
    char = next((m for m in team.members if m.uid == member), None) if team else None
    return team, char, window


def _volunteer_ok(c: Contest, member: str) -> bool:
    team, char, window = _window_member(c, member)
    if char is None or char.uid in team.dropped:
        return False
    back = sum(h["extra"] + h["current"] for h in window["hits"] if h["character"] == char.uid)
    return team.cliche_of(char).pool + back >= 1


def _assign_ok(c: Contest, member: str) -> bool:
    team, char, _ = _window_member(c, member)
    return c.profile.team_loss == "leader_assigns" and char is not None and team.is_active(char)


def _drop_ok(c: Contest, member: str) -> bool:
    team = d.team_of(c, member)
    return team is not None and team.is_active(d.character(c, member))


def _form_ok(c: Contest, members=(), **_) -> bool:
    uids = [m["character"] if isinstance(m, dict) else m for m in members]
    if len(uids) < 2 or len(set(uids)) != len(uids):
        return False
    sides = set()
    for uid in uids:
        u = d.unit(c, uid)
        if u is None or isinstance(u, CharacterTeam) or d.is_mob(u) or not c.is_active(uid):
            return False
        sides.add(d.side_of(c, uid))
    return len(sides) == 1


def _recover_ok(c: Contest, character: str, cliche: str | None = None, **_) -> bool:
    char = d.character(c, character)
    if char is None:
        return False
    cliches = [x for x in char.cliches if cliche is None or x.name == cliche]
    return any(x.current < x.rating for x in cliches)


_ACTIVE_RULES: dict[str, Callable[..., bool]] = {
    "roll_round": lambda c, **_: _roll_round_ok(c),
    "exchange": _exchange_ok,
    "end_round": lambda c, **_: d.exchange_played(c),
    "choose": _choose_ok,
    "approve": lambda c, unit, **_: c.needs_approval(unit),
    "give_tickets": _tickets_ok,
    "volunteer": lambda c, member, **_: _volunteer_ok(c, member),
    "assign_loss": lambda c, member, **_: _assign_ok(c, member),
    "drop_out": lambda c, member, **_: _drop_ok(c, member),
    "disband": lambda c, team, **_: isinstance(d.unit(c, team), CharacterTeam),
    "form_team": _form_ok,
    "end": lambda c, **_: True,
}

_ENDED_RULES: dict[str, Callable[..., bool]] = {
    "decide_fate": lambda c, character, **_: character in c.owed_fates,
    "veto_fate": lambda c, character, **_: character in c.fates,
    "recover": _recover_ok,
}


def rules_allow(contest: Contest | None, command: str, /, **args) -> bool:
    """Whether the rules would accept ``command`` with ``args`` right now (no state is changed).

    A hint for enabling buttons, computed from the contest's public state; the rules still decide
    when the command is given. Unknown commands are allowed (the rules will say no if they must).
    """
    name = command
    if name in _NO_CONTEST:
        return True
    if contest is None:
        return False
    if name == "undo":
        return len(contest.events) > 1
    if name == "veto_fate":
        return _ENDED_RULES[name](contest, **args)
    try:
        if name in _ENDED_RULES:
            return contest.status == "ended" and bool(_ENDED_RULES[name](contest, **args))
        if name in _ACTIVE_RULES:
            return contest.status == "active" and bool(_ACTIVE_RULES[name](contest, **args))
    except (RuleError, KeyError, TypeError, ValueError, AttributeError):
        return False
    return True


# ------------------------------------------------------------------------------------ adapters --
class Actions(param.Parameterized):
    """What a component acts through: ``act`` gives a command, ``can`` says whether to offer it.

    Subclasses keep ``contest``, ``characters`` and ``checks`` up to date so that components can
    watch them; components never change them.
    """

    contest = param.ClassSelector(class_=Contest, default=None, allow_None=True, doc="""
        The contest on the table, or None before one starts. Replaced when a new contest starts.""")

    characters = param.List(default=[], item_type=Character, doc="""
        The characters at the table (player characters, NPCs and grunt mobs).""")

    checks = param.List(default=[], doc="""
        The action checks rolled so far, newest last, each a ``CheckResult.to_dict()`` mapping plus
        the ``character`` uid.""")

    role = param.Selector(default="gm", objects=["gm", "player", "spectator"], doc="""
        The role of whoever acts through this adapter: "gm", "player" or "spectator".""")

    seq = param.Integer(default=0, bounds=(0, None), doc="""
        Grows whenever something happened that may change what can be done (a room's event
        sequence number, e.g. after the GM opens a round); components refresh on it.""")

    def act(self, command: str, /, **args):
        """Give ``command``; raise RuleError (or a permission error) if it is refused."""
        raise NotImplementedError

    def can(self, command: str, /, **args) -> bool:
        """Whether ``command`` with ``args`` would be accepted now (for enabling buttons)."""
        raise NotImplementedError

    def supports(self, command: str) -> bool:
        """Whether this adapter knows ``command`` at all (rooms have a few more, e.g. ``open_round``)."""
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
    def supports(self, command: str) -> bool:
        """Whether there is a local handler for ``command``."""
        return hasattr(self, f"_do_{command}")

    def can(self, command: str, /, **args) -> bool:
        """Role hint and rules hint together (see :func:`rules_allow`)."""
        if not self.supports(command) or not self._role_allows(command):
            return False
        return rules_allow(self.contest, command, **args)

    def _role_allows(self, name: str) -> bool:
        if self.role == "spectator":
            return False
        return self.role == "gm" or name not in GM_ONLY

    def act(self, command: str, /, **args):
        """Run ``command`` on the local models; RuleError when refused (nothing changes)."""
        handler = getattr(self, f"_do_{command}", None)
        if handler is None:
            raise ValueError(f"Unknown command {command!r}.")
        if not self._role_allows(command):
            raise NotAllowed(t("error.role", role=t(f"role.{self.role}"), command=command))
        if command not in _NO_CONTEST and self.contest is None:
            raise RuleError(t("error.no_contest"))
        return handler(**args)

    # -- contest commands ---------------------------------------------------------------------
    def _do_start_contest(self, name: str, side_a=(), side_b=(), single_roll: bool = False):
        def pick(uids):
            chars = []
            for uid in uids:
                char = self.character(uid)
                if char is None:
                    raise RuleError(t("error.unknown_character", uid=uid))
                chars.append(char)
            return chars
        if self.contest is not None and self.contest.status == "active":
            raise RuleError(t("error.contest_running"))
        contest = Contest(name, pick(side_a), pick(side_b), single_roll=bool(single_roll),
                          profile=self.profile, dice=self._dice())
        self.contest = contest
        return contest.events

    def _do_choose(self, unit, cliche, appropriate=True, approved=False):
        return self.contest.choose(unit, cliche, appropriate=appropriate, approved=approved)

    def _do_approve(self, unit):
        return self.contest.approve(unit)

    def _do_give_tickets(self, name=None, fitting=None):
        return self.contest.give_tickets(fitting, name=name)

    def _do_roll_round(self):
        return self.contest.roll_round()

    def _do_exchange(self, attacker, target):
        return self.contest.exchange(attacker, target)

    def _do_end_round(self):
        return self.contest.end_round()

    def _do_volunteer(self, member):
        return self.contest.volunteer(member)

    def _do_assign_loss(self, member):
        return self.contest.assign_loss(member)

    def _do_drop_out(self, member):
        return self.contest.drop_out(member)

    def _do_disband(self, team):
        return self.contest.disband(team)

    def _do_form_team(self, members, leader=None, name=None):
        specs = []
        for m in members:
            char = d.character(self.contest, m["character"])
            if char is None:
                raise RuleError(t("error.unknown_character", uid=m["character"]))
            specs.append((char, m["cliche"], bool(m.get("appropriate", True))))
        lead = d.character(self.contest, leader) if leader else None
        return self.contest.form_team(specs, leader=lead, name=name or None)

    def _do_end(self, outcome, winner=None):
        return self.contest.end(outcome, winner)

    def _do_decide_fate(self, character, text):
        return self.contest.decide_fate(character, text)

    def _do_veto_fate(self, character):
        return self.contest.veto_fate(character)

    def _do_recover(self, character, cliche=None, amount=None):
        return self.contest.recover(character, cliche, amount)

    def _do_undo(self):
        return self.contest.undo()

    # -- characters and checks ----------------------------------------------------------------
    def _do_save_character(self, data: dict) -> Character:
        fresh = Character.from_dict(data)  # validates every field (RuleError)
        old = self.character(fresh.uid)
        if old is None:
            self.characters = [*self.characters, fresh]
            return fresh
        if type(old) is not type(fresh):
            raise RuleError(t("error.kind_change"))
        if self.contest is not None and self.contest.status == "active" and \
                any(c.uid == old.uid for c in self.contest.characters()):
            raise RuleError(t("error.in_contest", name=old.name))
        updates = {k: getattr(fresh, k) for k in ("name", "description", "owner", "cliches")}
        if isinstance(fresh, type(old)) and hasattr(fresh, "member_rating"):
            updates.update(member_rating=fresh.member_rating, count=fresh.count)
        old.param.update(**updates)
        return old

    def _do_action_check(self, character, cliche, tn, suitability="suitable", adjustment=0,
                         automatic=False) -> dict:
        char = self.character(character)
        if char is None:
            raise RuleError(t("error.unknown_character", uid=character))
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
        A ``raisus_panel.room.RoomSession``: ``.act(name, **args)``, ``.can(name, **args)``, ``.room``
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
                if fn is not None:
                    fn()
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
        room = self._session.room
        # the session's own view of the checks includes the GM's secret rolls only for the GM
        checks = getattr(self._session, "checks", None)
        if checks is None:
            checks = getattr(room, "checks", None)
        self.param.update(contest=getattr(room, "contest", None),
                          characters=list(getattr(room, "characters", None) or []),
                          checks=list(checks or []), seq=max(0, int(getattr(room, "seq", 0) or 0)))

    def act(self, command: str, /, **args):
        """Send the command to the room (which raises when it refuses).

        Returns what the adapter contract promises: the saved character for ``save_character``,
        the check's record for ``action_check``, else the room's events.
        """
        events = self._session.act(command, **args)
        if command == "action_check":
            for event in events or []:
                if event.get("type") == "action_checked":
                    return {**event["check"], "character": event["character"]}
        if command == "save_character":
            uid = args.get("data", {}).get("uid")
            found = next((c for c in self.characters if c.uid == uid), None)
            if found is None and self.characters:
                found = self.characters[-1]
            return found
        return events

    def supports(self, command: str) -> bool:
        """Whether the room knows ``command`` (its command table, when it publishes one)."""
        try:
            from raisus_panel.room.commands import ALIASES, ARGUMENTS, SAVE_CHARACTER
        except ImportError:  # pragma: no cover - an older room layer
            return True
        return command in ARGUMENTS or command in ALIASES or command == SAVE_CHARACTER

    def can(self, command: str, /, **args) -> bool:
        """The room's answer for this role, and the rules hint."""
        try:
            if not self._session.can(command, **args):
                return False
        except Exception:
            return False
        if command in _ROOM_LEVEL:  # the room's own log, not only the contest's
            return True
        return rules_allow(self.contest, command, **args)

    def dispose(self) -> None:
        """Stop mirroring the room (call when the browser tab closes)."""
        for obj, watcher in self._watchers:
            obj.param.unwatch(watcher)
        self._watchers = []
