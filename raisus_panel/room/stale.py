"""Commands that name the state they were decided on, and when that state is too old to act on.

A person decides on what their page shows. A click therefore carries the room's sequence number
``seq`` as the page showed it (``seen_seq``), and :meth:`Room.apply <.room.Room.apply>` refuses a
*state-bound* command when the room has moved on since then in a way that matters to it: the GM and
a player both pressing "roll round 3" get one roll, and the second is told "Round 3 was already
rolled by Ann" instead of rolling round 4. A double click of the same person is the same case: the
first click's answer is newer than what the page showed for the second.

What "matters" is deliberately simple:

* an *answer* of the game -- a round rolled or ended, a contest started or ended, a hit taken or
  handed on, a fate decided, an undo -- makes every older click stale, whoever caused it;
* any other move of the table (a cliché chosen, a round opened, a character changed ...) makes it
  stale only when someone else made it: a person knows what they did themselves;
* joining, renaming the room, action checks and new characters never do (they change nothing a
  contest command is decided on), and the GM's secret events never do for anyone who cannot see them.

``undo`` is stricter: it takes back the newest move, so *any* move after what the page showed
(someone else's, or the same person's earlier undo) makes it stale -- a stale undo never takes back
a command its giver has not seen.

A command without ``seen_seq`` (a script, a notebook cell) is decided on the state it meets.
"""

from __future__ import annotations

from typing import Any

from raisus_panel.rules.errors import Phrase

from .commands import COMMANDS, Command, undoable
from .errors import StaleCommand
from .events import Event
from .roles import Actor

#: Commands whose meaning depends on the state the person saw, so they carry ``seen_seq`` (their
#: declarations say ``state_bound``).
STATE_BOUND = frozenset(name for name, spec in COMMANDS.items() if spec.state_bound)

#: Events that ``undo`` never takes back: they are not moves of the game.
NOT_UNDONE = frozenset({"room_created", "player_joined"})


def can_be_undone(event: Event) -> bool:
    """Whether ``undo`` may take ``event`` back (with the rest of its command) -- when it is in force."""
    return event["type"] not in NOT_UNDONE and undoable(event["command"])


#: Contest events that answer a click: after one, every older click is stale, whoever made it.
_ANSWERS = frozenset({"contest_started", "round_decided", "round_ended", "contest_ended", "volunteered",
                      "loss_assigned", "team_disbanded", "dropped_out", "fate_decided", "fate_vetoed"})
#: Room events that change nothing a state-bound command (other than undo) is decided on.
_UNRELATED = frozenset({"room_created", "player_joined", "title_set", "action_checked", "character_created",
                        "dice_committed", "dice_revealed", "rules_set", "session_started", "session_ended",
                        "advancement_rolled", "advancement_invested"})
#: Contest events of committed dice: they change nothing a click is decided on.
_DICE_ONLY = frozenset({"dice_committed", "client_seed_set", "dice_revealed"})

#: How a refusal says what happened, by room event type (``contest`` events: by their own type).
_DID = {
    "title_set": Phrase("renamed the room", "term.did.title_set"),
    "action_checked": Phrase("rolled an action check", "term.did.action_checked"),
    "contest_closed": Phrase("closed the contest", "term.did.contest_closed"),
    "recovered": Phrase("restored spent dice", "term.did.recovered"),
    "undone": Phrase("undid the last move", "term.did.undone"),
    "contest_started": Phrase("started a contest", "term.did.contest_started"),
    "cliche_chosen": Phrase("chose a cliché", "term.did.cliche_chosen"),
    "approved": Phrase("approved a cliché", "term.did.approved"),
    "tickets_given": Phrase("gave tickets", "term.did.tickets_given"),
    "team_formed": Phrase("formed a team", "term.did.team_formed"),
    "volunteered": Phrase("volunteered", "term.did.volunteered"),
    "loss_assigned": Phrase("handed on a hit", "term.did.loss_assigned"),
    "team_disbanded": Phrase("disbanded a team", "term.did.team_disbanded"),
    "dropped_out": Phrase("dropped out of a team", "term.did.dropped_out"),
    "contest_ended": Phrase("ended the contest", "term.did.contest_ended"),
    "fate_decided": Phrase("decided a fate", "term.did.fate_decided"),
    "fate_vetoed": Phrase("vetoed a fate", "term.did.fate_vetoed"),
    "pumped": Phrase("pumped a cliché", "term.did.pumped"),
    "lucky_declared": Phrase("spent lucky shots", "term.did.lucky_declared"),
    "rules_set": Phrase("changed the table's rules", "term.did.rules_set"),
    "session_started": Phrase("started a new session", "term.did.session_started"),
    "session_ended": Phrase("ended the session", "term.did.session_ended"),
    "advancement_rolled": Phrase("rolled for advancement", "term.did.advancement_rolled"),
    "advancement_invested": Phrase("invested a creation die", "term.did.advancement_invested"),
}
_SOMETHING = Phrase("changed the table", "term.did.something")
_YOU = Phrase("you", "term.you")
_THE_GM = Phrase("the GM", "term.the_gm")


def check_seen_seq(seen_seq: object, seq: int) -> int | None:
    """``seen_seq`` as given (None, or a sequence number the room has reached); RuleError otherwise."""
    if seen_seq is None:
        return None
    if isinstance(seen_seq, bool) or not isinstance(seen_seq, int) or not 0 <= seen_seq <= seq:
        raise StaleCommand(f"A command names the room state it was decided on: a sequence number from 0 "
                           f"to {seq}, not {seen_seq!r}. Reload the page.", key="error.room.bad_seen_seq",
                           seq=seq, seen=repr(seen_seq))
    return seen_seq


def answers_a_click(events: list[Event]) -> bool:
    """Whether ``events`` (one command's) answer the game: after them every older click is stale, its
    giver's own too -- a page's second press of "Roll round 3", queued behind the first, must not
    roll round 4 (``ui/actions.py`` decides a queued click on its own earlier ones' state only when
    none of them answered)."""
    return any(e.get("type") == "undone" or (e.get("type") == "contest" and e["event"]["type"] in _ANSWERS)
               for e in events)


def _key(event: Event) -> tuple[str, str]:
    return (event["actor"]["role"], event["actor"]["player_id"])


def matters(event: Event, actor: Actor, command: Command[Any]) -> bool:
    """Whether ``event``, written after the page showed its state, makes ``command`` stale."""
    if event["private"] and not actor.is_gm:
        return False  # nobody may be refused (or told) because of what they cannot see
    kind = event["type"]
    if command.spec.is_undo:  # an earlier undo, too, is a move it has not seen
        return kind == "undone" or can_be_undone(event)
    if kind in _UNRELATED or (kind == "undone" and event["private"]):
        return False
    if kind == "contest" and event["event"]["type"] in _DICE_ONLY:
        return False
    if kind == "undone" or (kind == "contest" and event["event"]["type"] in _ANSWERS):
        return True
    return _key(event) != actor.key


def stale_refusal(events: list[Event], actor: Actor, command: Command[Any], seen_seq: int | None,
                  players: dict[str, str]) -> StaleCommand | None:
    """The refusal of ``command`` decided at ``seen_seq``, or None if it may go ahead.

    ``events`` is the room's whole log (``events[i]["seq"] == i + 1``); ``players`` maps player ids to
    names, for saying who moved the table on.
    """
    if seen_seq is None or not command.spec.state_bound:
        return None
    newer = [e for e in events[seen_seq:] if matters(e, actor, command)]
    if not newer:
        return None
    rolled = next((e for e in newer if e["type"] == "contest" and e["event"]["type"] == "round_decided"), None)
    if rolled is not None:
        n, who = rolled["event"]["round"], _who(rolled, actor, players)
        return StaleCommand(f"Round {n} was already rolled by {who} after your page showed it: nothing was "
                            "done. Look at the table and click again if you still want to.",
                            key="error.room.stale_round", round=n, who=who)
    last = newer[-1]
    who, what = _who(last, actor, players), _what(last)
    return StaleCommand(f"The table changed after your page showed it: {who} {what}. Nothing was done: look "
                        "at the table and click again if you still want to.", key="error.room.stale",
                        who=who, what=what)


def _who(event: Event, actor: Actor, players: dict[str, str]) -> Phrase | str:
    if _key(event) == actor.key:
        return _YOU
    if event["actor"]["role"] == "gm":
        return _THE_GM
    return players.get(event["actor"]["player_id"]) or _SOMEONE


_SOMEONE = Phrase("someone", "term.someone")


def _what(event: Event) -> Phrase:
    kind = event["type"]
    if kind == "contest":
        inner = event["event"]
        if inner["type"] == "round_ended":
            return Phrase(f"ended round {inner['round']}", "term.did.round_ended", round=inner["round"])
        return _DID.get(inner["type"], _SOMETHING)
    if kind == "round_opened":
        return (Phrase("opened the round", "term.did.round_opened") if event["open"]
                else Phrase("closed the round", "term.did.round_closed"))
    name = event.get("character", {}).get("name", "") if kind.startswith("character_") else ""
    if kind == "character_created":
        return Phrase(f"created {name}", "term.did.character_created", name=name)
    if kind == "character_updated":
        return Phrase(f"changed {name}", "term.did.character_updated", name=name)
    if kind == "character_removed":
        return Phrase(f"removed {name}", "term.did.character_removed", name=name)
    return _DID.get(kind, _SOMETHING)
