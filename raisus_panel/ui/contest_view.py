"""ContestView: a contest (대결) as a spectator sees it -- the same table in words, with no controls."""

from __future__ import annotations

import panel as pn

from raisus_panel.rules import CharacterTeam

from . import _contest_text as text
from . import _derive as d
from ._base import HTML, ComponentBase, esc
from ._charts import unit_colors
from ._shared import contest_state, once_per_change
from .what_now import WhatNow

#: Both sides side by side where they fit at 300 px each, one above the other on a phone.
SIDES_CSS = """
.raisus-sides { display: flex; flex-wrap: wrap; column-gap: 20px; }
.raisus-side { flex: 1 1 300px; min-width: 0; }
"""


class ContestView(ComponentBase):
    """The contest on the table without a single control: for people who only watch.

    It shows what :class:`ContestTable` shows in words -- the header with the round and what the
    table waits for (a :class:`~raisus_panel.ui.WhatNow` line), both sides' units with their status,
    pools, team make-up and members, the last roll with every attempt, the result and the fates -- in
    two HTML panes, so a spectator's page stays light (made once per change for every spectator of
    the room in a language). Everything people typed is escaped.

    Parameters
    ----------
    actions
        The adapter whose ``contest`` is shown (nothing is ever sent through it).
    """

    def _build(self) -> None:
        # two panes: the header above the "what now" line, and the rest below it. Every round
        # changes all of the rest at once (both sides' pools, the last roll, the result), so one pane
        # sends no more than several would, and each pane costs a spectator's page tens of kilobytes
        self._header = HTML(sizing_mode="stretch_width")
        # what the table waits for, first under the header
        self._what_now = WhatNow(actions=self.actions, lang=self.lang)
        self.param.watch(lambda e: setattr(self._what_now, "lang", e.new), "lang")
        self.param.watch(lambda e: setattr(self._what_now, "actions", e.new), "actions")
        self._body = HTML(sizing_mode="stretch_width", stylesheets=[text.CONTEST_CSS, SIDES_CSS])
        self._parts: dict = {}  # the HTML of each part shown (see _texts)
        self._layout = pn.Column(self._header, self._what_now, self._body, sizing_mode="stretch_width",
                                 css_classes=["raisus-contest-view"])

    def __panel__(self):
        return self._layout

    def set_shown(self, shown: bool) -> None:
        """Whether the view is on screen (its "what now" line follows it); see ComponentBase."""
        super().set_shown(shown)
        self._what_now.set_shown(shown)

    def dispose(self) -> None:
        """Remove every watcher on shared state, the "what now" line's too."""
        super().dispose()
        self._what_now.dispose()

    def _refresh(self) -> None:
        contest = self.contest
        if contest is None:
            self._parts = {}
            self._header.object = f"<i>{esc(self._t('odds.no_contest'))}</i>"
            self._body.object = ""
            return
        # the same for every spectator of the room in this language: made once per change
        self._parts = once_per_change(contest, ("ContestView", self.language), contest_state(contest),
                                      lambda: self._texts(contest))
        self._header.object, self._body.object = self._parts["header"], self._parts["body"]

    def _texts(self, contest) -> dict:
        """The HTML of each part: ``header``, ``sides`` (one per side), ``last_roll``, ``result``,
        ``fates``; and ``body``, all but the header as the lower pane shows them."""
        t = self._t
        colors = unit_colors(contest)
        sides = tuple(f"<h4>{esc(t(f'side.{s}'))}</h4>" + "".join(self._unit_html(contest, u, colors) for u in side)
                      for s, side in enumerate(contest.sides))
        names = d.names(contest)
        parts = {"header": text.header_html(contest, t), "sides": sides, "last_roll": text.last_roll_html(contest, t),
                 "result": text.result_html(contest, t),
                 "fates": "".join(f"<p><b>{esc(names.get(uid, uid))}</b>: {text.fate_html(contest, uid, t)}</p>"
                                  for uid in contest.owed_fates)}
        columns = "".join(f"<div class=raisus-side>{side}</div>" for side in sides)
        parts["body"] = f"<div class=raisus-sides>{columns}</div>{parts['last_roll']}{parts['result']}{parts['fates']}"
        return parts

    def _unit_html(self, contest, u, colors: dict) -> str:
        body = text.unit_head_html(contest, u, self._t, cliche=True)
        if isinstance(u, CharacterTeam):
            body += "<ul>" + "".join(f"<li>{esc(text.member_label(u, m, self._t))}</li>" for m in u.members) + "</ul>"
        return f"{text.unit_open_tag(contest, u, colors)}{body}</div>"
