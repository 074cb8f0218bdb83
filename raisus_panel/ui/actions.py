"""How components act: one adapter between clicks and the room that decides.

Components never change game state themselves. They call :meth:`Actions.act` with a command name and
plain arguments (uids, names, numbers, text), and ask :meth:`Actions.why_not_error` (or
:meth:`Actions.can`) which buttons to enable and why the others are not. The answer is the room's
own -- the role's permission, then a dry run of the real command by the rules -- never a copy of the
rules here.

There is one command path. Served, an :class:`Actions` sits on a person's ``RoomSession`` of a shared
room; in a notebook, on the GM's session of a :class:`~raisus_panel.room.LocalRoom` (one person, every
role, in memory or in a file): ``Actions.local(contest)`` adopts characters and a contest built in
plain Python and plays them there. Either way, a refused command raises
:class:`~raisus_panel.rules.RuleError` (the room's ``PermissionDenied`` is one) and nothing changes;
components catch it and show it in their language (:func:`raisus_panel.i18n.translate`: the
refusal's catalog key and fields).

The commands and their arguments are the room's (:data:`raisus_panel.room.COMMANDS`, each declared once);
``end`` is ``end_contest``, and ``save_character(data=Character.to_dict())`` creates a character or
updates the one with that uid.
"""

from __future__ import annotations

import logging
import weakref

import panel as pn
import param
from bokeh.core.properties import Int
from bokeh.document import Document
from bokeh.model import DataModel
from bokeh.models import CustomJS

from raisus_panel.room import LocalRoom, RoomSession
from raisus_panel.room.stale import answers_a_click
from raisus_panel.rules import Character, CharacterTeam, Contest, RuleError
from raisus_panel.rules.dice import DiceSource

from . import _batch, _offloop
from . import _derive as d

__all__ = ["Actions"]

log = logging.getLogger(__name__)


class SeenSeq(DataModel):
    """What a served page has shown: the room's ``seq`` its last update carried, and the browser's receipt.

    The server sets ``shown`` in the page's own update batch, with the changes that show that state;
    the browser copies it to ``ack`` as soon as it has applied them (a callback in the page). Because a
    browser sends its messages in order, a click the server receives after an ``ack`` was made on a page
    that showed that state, and a click sent before it (while the new state was on its way) carries the
    older ``ack``: what the person saw when they clicked, whatever the server knew by then.
    """

    shown = Int(default=0, help="The room's seq as of the page's last update batch (set by the server).")
    ack = Int(default=0, help="The seq the browser has shown (set by the browser; read at a click).")


#: Run in the browser when ``shown`` arrives (and when the page is ready): the page now shows it.
_ACK = "seen.ack = seen.shown"


class Actions(param.Parameterized):
    """What a component acts through: a person's session of a room, mirrored for watching.

    ``act`` gives a command, ``why_not_error``/``can`` say whether to offer it; the room authorises
    the session's role and lets the rules decide. The parameters mirror the room's ``contest``,
    ``characters`` and ``checks`` (only what changed, so watchers fire only then); components watch
    them and never change them.

    Parameters
    ----------
    session
        A :class:`~raisus_panel.room.RoomSession` (a served page's, or a local room's GM session).
        A fresh in-memory :class:`~raisus_panel.room.LocalRoom` when omitted.

    Examples
    --------
    >>> from raisus_panel.rules import Character, Contest, ScriptedDice
    >>> game = Contest("Brawl", Character("Viking", {"Viking": 4}), Character("Pirate", {"Pirate": 3}),
    ...                dice=ScriptedDice([[6, 5, 1, 1], [4, 4, 4]]))
    >>> actions = Actions.local(game)
    >>> _ = actions.act("roll_round")
    >>> game.round
    1
    """

    contest = param.ClassSelector(class_=Contest, default=None, allow_None=True, doc="""
        The contest on the table, or None before one starts. Replaced when a new contest starts.""")

    characters = param.List(default=[], item_type=Character, doc="""
        The characters at the table (player characters, NPCs and grunt mobs).""")

    checks = param.List(default=[], doc="""
        The action checks rolled so far that this session's role may see, newest last, each a
        ``CheckResult.to_dict()`` mapping plus the ``character`` uid (and ``private``: True for the
        GM's secret rolls, which only the GM sees).""")

    role = param.Selector(default="gm", objects=["gm", "player", "spectator"], doc="""
        The role of whoever acts through this adapter: "gm", "player" or "spectator".""")

    seq = param.Integer(default=0, bounds=(0, None), doc="""
        The room's event sequence number: grows whenever something happened that may change what
        can be done (e.g. after the GM opens a round); components refresh on it.""")

    missed = param.Event(doc="""
        Fires when a change of the room reached this adapter starting later than the state it last
        mirrored (a change never arrived): components then draw the room's whole state again.""")

    def __init__(self, session: RoomSession | None = None, **params):
        if session is None:
            session = LocalRoom().session
        self._session = session
        room = session.room
        role = session.actor.role.value
        super().__init__(role=role, **params)
        self._watchers = []
        self._disposed = False
        self._seen = None
        self._acked = 0  # the seq this page's own last command left it on (see ``act``)
        # (seq a run of this page's queued commands was clicked on, seq the run's last one made):
        # touched only by the page's queued work, one item at a time (see ``act_in_order``)
        self._chain = (-1, -1)
        doc = pn.state.curdoc
        if _batch.served(doc) and isinstance(doc, Document):
            self._doc = doc
            _batch.track(doc)
            self._seen = SeenSeq(shown=room.seq, ack=room.seq)
            tell = CustomJS(args={"seen": self._seen}, code=_ACK)
            self._seen.js_on_change("shown", tell)
            doc.js_on_event("document_ready", tell)  # changes made before the page connected
            doc.add_root(self._seen)
        self._mirror()
        # weakly held: an adapter nobody uses any more is collected and stops mirroring
        mirror = weakref.WeakMethod(self._mirror)

        def relay(*events):
            fn = mirror()
            if fn is None:
                return
            try:
                fn(*events)
            except Exception:  # the command is saved: one broken view must not fail it for its giver
                log.exception("a session's view of the room could not follow a change")
        self._watchers.append((room, room.param.watch(relay, ["contest", "characters", "checks", "seq",
                                                              "round_open"])))
        # served: stop mirroring when the browser tab closes
        if _batch.served(doc):
            pn.state.on_session_destroyed(lambda ctx: self.dispose())

    @classmethod
    def local(cls, *objects: Character | CharacterTeam | Contest, title: str = "Risus",
              dice: DiceSource | None = None, path=None) -> "Actions":
        """A notebook's table: a new :class:`~raisus_panel.room.LocalRoom` that adopts ``objects``.

        Characters, teams and a contest built in plain Python join the room and stay live: every
        command -- a click, :meth:`act`, or a command on the contest object itself -- changes them
        and goes into the room's log. ``dice`` roll the room's new contests and action checks (an
        adopted contest keeps its own); ``path`` keeps the room in an SQLite file.
        """
        room = LocalRoom(title, dice=dice, path=path)
        room.adopt(*objects)
        return cls(room.session)

    @property
    def session(self) -> RoomSession:
        """The room session commands go through."""
        return self._session

    @property
    def room(self):
        """The room this adapter acts on."""
        return self._session.room

    def _mirror(self, *events) -> None:
        """Copy the room's state onto the parameters -- only what changed, so watchers fire only then.

        ``events`` are the room's changes that called it. The room's events since the state mirrored
        last must start right after it: one whose ``seq`` starts later means a change never arrived,
        and :attr:`missed` fires once the whole state is copied.
        """
        room = self._session.room
        missed = any(e.name == "seq" and e.old > self.seq for e in events)
        changes = {}
        if room.contest is not self.contest:
            changes["contest"] = room.contest
        if room.characters is not getattr(self, "_mirrored_characters", None):
            self._mirrored_characters = room.characters  # the room replaces the list when it changes
            if list(room.characters) != self.characters:
                changes["characters"] = list(room.characters)
        # the session's own view of the checks: the GM's secret rolls only for the GM
        checks = self._session.checks
        if checks != self.checks:
            changes["checks"] = checks
        if room.seq != self.seq:
            changes["seq"] = room.seq
        try:
            if changes:
                self.param.update(**changes)
        finally:
            # the page shows the new state in its next batch, and ``shown`` goes with it -- even if a
            # view failed to follow: a page whose clicks were all refused as stale would be stuck
            if self._seen is not None and self._seen.shown != room.seq:
                _batch.schedule(self._doc, self, self._show_seq)
        if missed:
            log.warning("a page missed a change of its room and draws it whole again")
            self.param.trigger("missed")

    def _show_seq(self) -> None:
        """On the page's document, in its update batch: the page now shows ``seq``."""
        self._seen.shown = self.seq

    @property
    def seen_seq(self) -> int:
        """The room's sequence number as the person's page shows it: what a click is decided on.

        Sent with every command. In a notebook (or any unserved use) it is :attr:`seq`; served, it
        is what the browser confirmed it has shown, so a click made while a newer state was on its
        way to the page names the older state it was made on.
        """
        if self._seen is None:
            return self.seq
        return min(max(int(self._seen.ack), self._acked), self.seq)

    def act(self, command: str, /, *, decided_on: int | None = None, **args):
        """Give ``command`` to the room as this session; RuleError when refused (nothing changes).

        The command names the room state the page showed when the person clicked (``seen_seq``), so
        one decided on a state the room has since left is refused with what happened ("round 3 was
        already rolled by Ann") instead of answering the new state. ``decided_on`` names an older
        state the person decided on (a confirmation's first press, ``ui/_confirm.py``): the older of
        the two is sent.

        Returns the saved character for ``save_character``, the check's record for
        ``action_check``, else the room's new events.
        """
        seen, before = self._click(decided_on)
        events = self._session.act(command, seen_seq=seen, **args)
        return self._answer(command, seen, before, events)

    def act_in_order(self, command: str, /, answer, *, decided_on: int | None = None, **args) -> None:
        """Give ``command`` as :meth:`act` does, and call ``answer(result, None)`` or ``answer(None, error)``.

        Served, the store's wait happens on a worker thread, never on the event loop, and this
        page's commands apply in the order they were given (``ui/_offloop.py``): the state the page
        showed is taken now, at the click; ``answer`` runs later, on the loop, as this page.
        Elsewhere (a notebook, a test) all of it happens now.
        """
        seen, before = self._click(decided_on)

        def work():
            # Run after this page's earlier commands (one at a time, in order). A page that was up to
            # date at the click is not behind its own earlier moves, queued before this one (a cliché
            # picked, then another): what those made is what this click was decided on, as if each
            # answer had come at once. Not behind an answer, though: a second press of "Roll round 3"
            # made before the first was answered still means round 3, and is refused as stale.
            chained = seen
            if seen == before and self._chain[0] == seen:
                chained = self._chain[1]
            events = self._session.act(command, seen_seq=chained, **args)
            made = max((int(e.get("seq", 0)) for e in events if isinstance(e, dict)), default=0)
            if seen == before and made and not answers_a_click(events):
                self._chain = (seen, made)
            return events

        def answered(events, error) -> None:
            answer(None, error) if error is not None else answer(self._answer(command, seen, before, events), None)
        # A local room (a notebook's, or a served app of one person's models) mirrors its change into
        # this page's components on the thread that acts, and its store is memory or a local file:
        # it acts now, on the loop, as in a notebook. Only a shared room's store wait goes to a worker.
        local = isinstance(self._session.room, LocalRoom)
        _offloop.in_order(None if local else self._doc_or_none, work, answered)

    @property
    def _doc_or_none(self):
        return getattr(self, "_doc", None)

    def _click(self, decided_on: int | None) -> tuple[int, int]:
        """The state a command is decided on (what the page showed, or the older ``decided_on``) and the seq now."""
        seen, before = self.seen_seq, self.seq
        if decided_on is not None:
            seen = min(seen, decided_on)
        return seen, before

    def _answer(self, command: str, seen: int, before: int, events: list):
        """What :meth:`act` returns for ``command``'s saved ``events``, and the page's own seq kept."""
        if self._seen is not None and seen == before:
            # The page was up to date, and what it asked for is now the room's state: its own command
            # does not leave it behind (a served script giving two commands in a row, before its page
            # has even connected, gives the second on the state the first made).
            # Kept here, not set on the page's Bokeh model: a click is processed outside the page's
            # document lock (Panel's change callbacks), where changing a raw Bokeh model raises.
            # The state its own command made (its last event), not ``seq`` now: served, the answer is
            # read later, and another person's command may have landed since.
            made = max((int(e.get("seq", 0)) for e in events if isinstance(e, dict)), default=0)
            self._acked = max(self._acked, made or self.seq)
        if command == "action_check":  # the room's record of it, as ``checks`` holds it
            seq = next(e["seq"] for e in events if e["type"] == "action_checked")
            return next(c for c in self._session.checks if c["seq"] == seq)
        if command == "save_character":
            saved = next(e["character"]["uid"] for e in events if e["type"].startswith("character_"))
            return self.character(saved)
        return events

    def settle(self, unknown, callback) -> None:
        """Learn whether the command whose store answer was lost (``unknown``, an
        :class:`~raisus_panel.room.OutcomeUnknown` raised by :meth:`act`) was saved: ``callback(saved)``
        once, on another thread, with True, False or None (still not known; see ``Room.settle``)."""
        self._session.room.settle(unknown, callback)

    def why_not_error(self, command: str, /, **args) -> RuleError | None:
        """The refusal ``command`` with ``args`` would meet now, or None.

        The room's answer for this session (``RoomSession.why_not_error``): its role, the arguments,
        then a dry run of the rules; nothing changes. A :class:`~raisus_panel.rules.RuleError` with
        its catalog key and fields, so a component can show it in its own language.
        """
        return self._session.why_not_error(command, **args)

    def why_not(self, command: str, /, **args) -> str | None:
        """Why ``command`` with ``args`` would be refused now (the English message), or None."""
        refusal = self.why_not_error(command, **args)
        return None if refusal is None else str(refusal)

    def can(self, command: str, /, **args) -> bool:
        """Whether ``command`` with ``args`` would be accepted now."""
        return self.why_not_error(command, **args) is None

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

    def dispose(self) -> None:
        """Stop mirroring the room (call when the browser tab closes)."""
        self._disposed = True
        for obj, watcher in self._watchers:
            obj.param.unwatch(watcher)
        self._watchers = []
