"""The room's commands, each declared once: what it takes, who may give it, and what it does.

:data:`COMMANDS` maps each command's name to its :class:`~.spec.CommandSpec`. The room
(:meth:`Room.apply <..room.Room.apply>`), the permissions (:func:`..permissions.authorize`), the
staleness check (:mod:`..stale`) and the pages read these declarations; none of them names a
command. One command runs straight down::

    parse_command(name, args)  ->  stale?  ->  authorize  ->  plan (room) / contest step  ->  append  ->  project

* **parse** -- :func:`parse_command` checks the command's name and argument names, and its
  :class:`~.spec.Args` subclass's ``parse`` reads the arguments once into a frozen dataclass (ids are
  text, flags true or false, members and teams well formed). What the rules judge (a target number,
  a cliché's rating, a fate's words) is carried as given and judged when the command is decided.
* **who may** -- ``gm_only`` (the words of "Only the GM can ...") or ``players`` (a function that
  raises :class:`~..roles.PermissionDenied` unless a joined player may). The GM may everything,
  spectators nothing.
* **stale** -- ``state_bound``: it answers what the person's page showed, so it is refused when the
  room moved on since (``seen_seq``).
* **undo** -- ``undoable``: whether ``undo`` takes it back.
* **what it does** -- a *room* command's ``plan`` reads the state and returns the payloads of the events
  to write (:func:`..events.room_event`), changing nothing, so a refused or dry-run command leaves no
  trace; a *contest* command's ``contest`` step maps ids to the contest's objects and names the
  :class:`~raisus_panel.rules.Contest` method the room runs on the live contest (which rolls, records
  and rolls back by itself). ``undo`` has neither: the room's own, it needs the whole log.

What a player may (the GM may everything; a spectator nothing):

==================  ======================================================================
command             a player may ...
==================  ======================================================================
join                register themselves (once)
create_character    create a character they own (``owner`` is theirs or left empty)
update_character    edit their own character (not give it away); once it has been in a
                    contest, only its name and description: its clichés, ratings and
                    current dice are the GM's (a player must not restore lost dice)
remove_character    remove their own character
action_check        roll for their own character, in the open (no secret roll, no
                    automatic success, no TN adjustment: those are the GM's)
choose              pick the cliché of their own unit; an inappropriate one waits for the GM
roll_round          roll, once the GM opened the round (``open_round``), if one of their
exchange            characters is in the contest
volunteer, drop_out for their own team member
assign_loss         hand on a hit, if they play the team's leader ("leader assigns" option)
form_team, disband  with (of) their own characters only; the GM teams up anyone
decide_fate         when one of their characters is on the winning side
set_client_seed     set their own client seed (mixed into the dice), before the first roll
pump                pump their own unit's cliché (a team: if they play its leader)
spend_lucky         spend their own character's lucky shots on its unit's next roll
roll_advancement,   advance their own character after the GM ended a session
invest_advancement
==================  ======================================================================

GM only: ``set_title``, ``start_contest``, ``close_contest``, ``open_round``, ``approve``,
``give_tickets``, ``end_round``, ``end_contest``, ``veto_fate``, ``recover``, ``undo``,
``reveal_dice``, ``reveal_checks``, ``set_rules``, ``new_session``, ``end_session``, and the secret,
automatic or adjusted forms of ``action_check``. What the GM accepts of a character's creation (its
``accepted``: a hook, a tale, a character over the creation budget) is the GM's too.

How to add a command
--------------------
1. In the module of its area (``table.py``: the table, contests starting and closing, rounds;
   ``characters.py``: characters, checks, recovery; ``contest.py``: what the running contest decides;
   ``campaign.py``: the table's rules, sessions, advancement),
   write its arguments as a frozen :class:`~.spec.Args` dataclass with a ``parse(raw)`` classmethod
   (or use ``Args`` itself when it takes none), and its decision: a ``plan(state, actor, args, ctx)``
   returning ``room_event(...)`` payloads, or a ``contest`` step returning a
   :class:`~.spec.ContestCall`. A new room event type is declared in ``events.ROOM_EVENT_FIELDS`` and
   applied in ``projection.apply_event``.
2. Add one :class:`~.spec.CommandSpec` to that module's ``SPECS``: ``gm_only=Phrase(...)`` (its words
   in both catalogs, ``term.gm.<command>``) or ``players=...``, and ``state_bound``/``undoable``.
3. Add its row to the permission table of ``tests/room/test_permissions.py`` (every command must be
   there) and a test of what it does. Nothing else names it: the room, permissions, staleness and
   pages read the declaration, and ``ui.Actions.act(name, **args)`` gives it by name.
"""

from __future__ import annotations

from typing import Any

from raisus_panel.rules import RuleError
from raisus_panel.rules.errors import Phrase

from ..projection import RoomState
from . import campaign, characters, contest, table
from .characters import CHARACTER_FIELDS
from .contest import client_seed_owner
from .names import PLAYER_ID, name_key, new_player_id, same_name
from .spec import Args, Command, CommandSpec, ContestCall, Context
from .table import ROOM_TITLE

__all__ = [
    "ALIASES", "ARGUMENTS", "Args", "CHARACTER_FIELDS", "COMMANDS", "Command", "CommandSpec", "ContestCall",
    "Context", "GM_ONLY", "PLAYER_ID", "ROOM_TITLE", "SAVE_CHARACTER", "client_seed_owner", "name_key",
    "new_player_id", "parse_command", "same_name", "undoable",
]

#: Every command, by name.
COMMANDS: dict[str, CommandSpec[Any]] = {
    spec.name: spec for spec in table.SPECS + characters.SPECS + contest.SPECS + campaign.SPECS}

#: Every command and the arguments it takes (read from the declarations).
ARGUMENTS: dict[str, frozenset[str]] = {name: spec.args.names() for name, spec in COMMANDS.items()}

#: What each GM-only command does, for "Only the GM can ..." messages (read from the declarations).
GM_ONLY: dict[str, Phrase] = {name: spec.gm_only for name, spec in COMMANDS.items() if spec.gm_only is not None}

#: Other names accepted for a command (the Contest method's name).
ALIASES = {"end": "end_contest"}
#: ``save_character(data=Character.to_dict())`` creates the character, or updates it if its uid is known.
SAVE_CHARACTER = "save_character"

#: Commands the room writes that are no declarations -- a new room, a notebook adopting its objects, a
#: command given on an adopted contest directly -- and whether ``undo`` takes them back.
RECORDED = {"create_room": False, "adopt": False, "contest": True}


def undoable(command: str) -> bool:
    """Whether ``undo`` may take back the events of ``command`` (a name as events record it)."""
    spec = COMMANDS.get(command)
    if spec is not None:
        return spec.undoable
    return RECORDED.get(command, True)  # a name from an imported file: as any move


def parse_command(name: object, args: object, state: RoomState | None = None) -> Command[Any]:
    """The command ``name`` with its arguments parsed, or RuleError naming what is wrong.

    Aliases become their command (``end`` -> ``end_contest``; ``save_character`` -> create or
    update, by whether ``state`` knows the character's uid).
    """
    if not isinstance(name, str):
        raise RuleError(f"A command is named by text, not {name!r}.", key="error.room.command_not_text",
                        command=repr(name))
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RuleError(f"The arguments of {name} are a mapping of names to values.",
                        key="error.room.args_not_mapping", command=name)
    if name == SAVE_CHARACTER:
        if set(args) != {"data"} or not isinstance(args["data"], dict):
            raise RuleError("save_character takes 'data': the character as Character.to_dict() gives it.",
                            key="error.room.save_character_data")
        args = args["data"]
        known = state is not None and args.get("uid") in state.characters
        name = "update_character" if known else "create_character"
    name = ALIASES.get(name, name)
    spec = COMMANDS.get(name)
    if spec is None:
        commands = ", ".join(sorted(COMMANDS))
        raise RuleError(f"Unknown command {name!r}; the commands are: {commands}.", key="error.room.unknown_command",
                        command=repr(name), commands=commands)
    allowed = spec.args.names()
    unknown = set(args) - allowed
    if unknown:
        takes = ", ".join(sorted(allowed)) or Phrase("none", "term.none")
        names = ", ".join(sorted(map(str, unknown)))
        raise RuleError(f"{name} does not take {names} (it takes: {takes}).", key="error.room.unknown_arguments",
                        command=name, names=names, allowed=takes)
    return Command(spec, spec.args.parse(args))
