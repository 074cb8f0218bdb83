"""The save file of one contest: its whole event log in a small JSON envelope.

Saving is writing the log; loading is replaying it (ARCHITECTURE.md), so a save holds nothing the
events do not. The envelope is ``{"format": SAVE_FORMAT, "version": SAVE_VERSION, "events": [...]}``
and the events are those documented in ``events.py``. Files written by earlier versions must keep
loading: ``tests/rules/saves`` holds some, and a test loads them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .contest_parts import ContestParts
from .dice import DiceSource
from .errors import SaveFileError
from .events import EVENT_TYPES, EVENT_VERSION

if TYPE_CHECKING:
    from .contest import Contest

SAVE_FORMAT = "raisus_panel/contest"
SAVE_VERSION = 1


def dumps_save(events: list[dict[str, Any]]) -> str:
    """The save-file text for a contest's events."""
    return json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION, "events": events},
                      ensure_ascii=False, indent=1)


def loads_save(text: str | bytes) -> list[dict[str, Any]]:
    """The events of a save file, after checking it is one of ours; SaveFileError otherwise."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"This is not a raisus_panel save file (not valid JSON: {exc}).",
                            key="error.save.not_json", detail=str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError("This JSON is not a raisus_panel contest save (its 'format' is missing or different).",
                            key="error.save.not_ours")
    if data.get("version") != SAVE_VERSION:
        raise SaveFileError(f"This save is version {data.get('version')!r}; this raisus_panel reads "
                            f"version {SAVE_VERSION}. Update raisus_panel to open it.",
                            key="error.save.version", version=repr(data.get("version")), supported=SAVE_VERSION)
    events = data.get("events")
    if not isinstance(events, list) or not events or not all(isinstance(e, dict) for e in events):
        raise SaveFileError("This save has no events to load.", key="error.save.no_events")
    if events[0].get("type") != "contest_started":
        raise SaveFileError("This save is damaged: it does not begin with the contest's start.",
                            key="error.save.no_start")
    for i, event in enumerate(events, 1):
        if event.get("v") != EVENT_VERSION or event.get("type") not in EVENT_TYPES or event.get("seq") != i:
            raise SaveFileError(f"This save is damaged at event {i}: unknown type, version or order.",
                                key="error.save.damaged_at", n=i)
    return events


class ContestSave(ContestParts):
    """Mixin of :class:`~raisus_panel.rules.contest.Contest`: saving to and loading from a save file.

    It relies on the contest's event log (``_events``) and on ``from_events`` to replay a loaded log.
    """

    @classmethod
    def from_json(cls, text: str | bytes, *, dice: DiceSource | None = None) -> Contest:
        """Load a contest saved with :meth:`to_json`.

        Parameters
        ----------
        text
            The save file's text (or bytes).
        dice
            The dice source for the rounds still to play; replaying needs none.

        Returns
        -------
        Contest
            The contest, replayed to where it was saved.

        Raises
        ------
        SaveFileError
            If the text is not a good save of ours, or its events cannot be replayed.
        """
        return cls.from_events(loads_save(text), dice=dice)

    def to_json(self) -> str:
        """The contest as save-file text: its whole event log.

        Returns
        -------
        str
            JSON text that :meth:`from_json` loads back.
        """
        return dumps_save(self._events)
