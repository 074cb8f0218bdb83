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


class ContestView(ComponentBase):
    """The contest on the table without a single control: for people who only watch.

    It shows what :class:`ContestTable` shows in words -- the header with the round and what the
    table waits for (a :class:`~raisus_panel.ui.WhatNow` line), both sides' units with their status,
    pools, team make-up and members, the last roll with every attempt, the result and the fates -- in
    a handful of HTML panes, so a spectator's page stays light and each
    change sends only the panes whose text changed. Everything people typed is escaped.

    Parameters
    ----------
    actions
        The adapter whose ``contest`` is shown (nothing is ever sent through it).
    """

    def _build(self) -> None:
        # few panes (each holds a few models per page) but apart where they change on their own
        self._header = HTML(sizing_mode="stretch_width")
        # what the table waits for, first under the header
        self._what_now = WhatNow(actions=self.actions, lang=self.lang)
        self.param.watch(lambda e: setattr(self._what_now, "lang", e.new), "lang")
        self.param.watch(lambda e: setattr(self._what_now, "actions", e.new), "actions")
        self._sides = [HTML(sizing_mode="stretch_width", stylesheets=[text.CONTEST_CSS]) for _ in (0, 1)]
        self._last_roll = HTML(sizing_mode="stretch_width", stylesheets=[text.CONTEST_CSS])
        self._result = HTML(sizing_mode="stretch_width")
        self._fates = HTML(sizing_mode="stretch_width")
        self._layout = pn.Column(self._header, self._what_now, pn.Row(*self._sides, sizing_mode="stretch_width"),
                                 self._last_roll, self._result, self._fates, sizing_mode="stretch_width",
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
            self._header.object = f"<i>{esc(self._t('odds.no_contest'))}</i>"
            for pane in (*self._sides, self._last_roll, self._result, self._fates):
                pane.object = ""
            return
        # the same for every spectator of the room in this language: made once per change
        texts = once_per_change(contest, ("ContestView", self.language), contest_state(contest),
                                lambda: self._texts(contest))
        for pane, html in zip((self._header, *self._sides, self._last_roll, self._result, self._fates), texts):
            pane.object = html

    def _texts(self, contest) -> tuple[str, ...]:
        """The panes' HTML: header, both sides, last roll, result, fates."""
        t = self._t
        colors = unit_colors(contest)
        sides = tuple(f"<h4>{esc(t(f'side.{s}'))}</h4>" + "".join(self._unit_html(contest, u, colors) for u in side)
                      for s, side in enumerate(contest.sides))
        names = d.names(contest)
        fates = "".join(f"<p><b>{esc(names.get(uid, uid))}</b>: {text.fate_html(contest, uid, t)}</p>"
                        for uid in contest.owed_fates)
        return (text.header_html(contest, t), *sides, text.last_roll_html(contest, t), text.result_html(contest, t),
                fates)

    def _unit_html(self, contest, u, colors: dict) -> str:
        body = text.unit_head_html(contest, u, self._t, cliche=True)
        if isinstance(u, CharacterTeam):
            body += "<ul>" + "".join(f"<li>{esc(text.member_label(u, m, self._t))}</li>" for m in u.members) + "</ul>"
        return f"{text.unit_open_tag(contest, u, colors)}{body}</div>"
