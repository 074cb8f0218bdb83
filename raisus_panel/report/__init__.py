"""Session reports: one self-contained HTML file per contest or per room session, kept after the game.

>>> from raisus_panel.rules import Character, Contest, ScriptedDice
>>> game = Contest("Brawl", Character("Olaf", {"Viking": 4}), Character("Jack", {"Pirate": 1}),
...                dice=ScriptedDice([[6, 6, 6, 6], [1]]))
>>> _ = game.roll_round()
>>> page = report(game, lang="en")
>>> "Brawl" in page.html() and "<script" in page.html()
True

The file opens offline, years later: BokehJS and the charts' data are inside it, nothing is fetched.
It prints on A4 (each contest from a new page). Everything people typed is escaped. A room's report
is built from what one role may see (a spectator's view unless told otherwise): the GM's secret
rolls are in no one else's report.

The layer sits on ``ui/`` (it lays out the same charts and log a page shows) and under ``dashboard/``.
"""

from __future__ import annotations

from pathlib import Path

from raisus_panel import i18n
from raisus_panel.room import Actor, LocalRoom, Room, RoomSession
from raisus_panel.rules import Contest, RuleError
from raisus_panel.ui import Actions

from . import sources
from .document import Document
from .sources import Session

__all__ = ["Report", "report", "read_file"]


class Report:
    """A session report: :meth:`html` is the whole file, :meth:`save` writes it.

    Make one with :func:`report` (from a contest or a room) or :func:`read_file` (from a file's text).
    The HTML is made once, when first asked for.

    Parameters
    ----------
    session
        What the report shows (:class:`~.sources.Session`).
    lang
        "ko" or "en".
    """

    def __init__(self, session: Session, lang: str):
        self.session = session
        self.lang = lang
        self._document = Document(session, lang)
        self._html: str | None = None

    @property
    def title(self) -> str:
        """The report's title (the room's or the contest's, in the report's language)."""
        return self._document._title()

    def html(self) -> str:
        """The whole report as one HTML document (made on the first call)."""
        if self._html is None:
            self._html = self._document.html()
        return self._html

    def save(self, path) -> Path:
        """Write the report to ``path`` (UTF-8) and return the path."""
        path = Path(path)
        path.write_text(self.html(), encoding="utf-8")
        return path

    def __repr__(self) -> str:
        return f"Report({self.session.title!r}, lang={self.lang!r}, contests={len(self.session.contests)})"


def _lang(lang: str | None) -> str:
    lang = lang or i18n.settings.lang
    if lang not in i18n.LANGUAGES:
        raise RuleError(f"There is no report in {lang!r}: choose one of {', '.join(i18n.LANGUAGES)}.",
                        key="error.report.lang", lang=repr(lang), choices=", ".join(i18n.LANGUAGES))
    return lang


def report(source, lang: str | None = None, *, actor: Actor | None = None,
           contest: int | str | None = None) -> Report:
    """The report of a contest or of a room's session.

    Parameters
    ----------
    source
        A :class:`~raisus_panel.rules.Contest` (reported from a copy: it is left as it is), a
        :class:`~raisus_panel.room.Room`, a :class:`~raisus_panel.room.RoomSession`, a
        :class:`~raisus_panel.room.LocalRoom` or an :class:`~raisus_panel.ui.Actions` (a room as
        that session's actor sees it).
    lang
        "ko" or "en"; the global language setting when None.
    actor
        For a room: whose view the report shows (a spectator's, without the GM's secret rolls, when None).
    contest
        For a room: only the contest with this number (1 = the first played) or this uid.

    Raises
    ------
    RuleError
        An unknown language, or no contest with that number.
    """
    lang = _lang(lang)
    if isinstance(source, Contest):
        return Report(sources.from_contest(source), lang)
    if isinstance(source, (Actions, LocalRoom)):
        source = source.session
    if isinstance(source, RoomSession):
        actor, source = actor or source.actor, source.room
    if isinstance(source, Room):
        return Report(sources.from_room(source, actor, contest=contest), lang)
    raise TypeError(f"report() takes a Contest, a Room, a RoomSession, a LocalRoom or Actions, "
                    f"not {type(source).__name__}")


def read_file(text: str | bytes, lang: str | None = None, *, contest: int | None = None) -> Report:
    """The report of a file: a room export (``Room.export_json``) or a contest's save (``Contest.to_json``).

    A room export's report shows what everyone at the table saw (not the GM's secret rolls).

    Raises
    ------
    RuleError
        The file is too large, not JSON, not one of ours, damaged, or has no contest ``contest``.
    """
    lang = _lang(lang)
    return Report(sources.read_file(text, contest=contest), lang)
