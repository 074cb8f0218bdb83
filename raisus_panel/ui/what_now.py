"""WhatNow: one line at the top of a contest that tells this person what happens next."""

from __future__ import annotations

import panel as pn

from ._base import HTML, ComponentBase, esc
from ._next_step import Step, next_step
from ._shared import contest_state, once_per_change

__all__ = ["WhatNow"]

#: Bold, boxed, and marked by a sign and a border as well as a colour: "▶" and a thick border when it
#: is this person's move, "▷" and a thin one while they wait or watch (colour is never the only
#: carrier of the difference; the words say it too: "Your turn" / "Waiting for").
_CSS = """
.raisus-what-now { font-weight: bold; padding: 6px 10px; margin: 2px 0 6px 0; border-radius: 4px;
                   border-left: 3px solid #888; background: var(--panel-surface-color, #f4f4f4);
                   color: var(--panel-on-surface-color, inherit); }
.raisus-what-now.mine { border-left: 6px solid #1a7f37; background: var(--success-bg-subtle, #e8f5ea); }
.raisus-what-now .sign { margin-right: 6px; }
.raisus-what-now .label { font-weight: normal; font-size: 0.85em; margin-right: 6px; }
"""


class WhatNow(ComponentBase):
    """The one next step at the contest for whoever looks at it, in one line.

    "Your turn: choose a cliché for 기사 아린", "Waiting for the GM to open round 3", "Round 3 is
    open: waiting for the players to roll", "Contest over: write the fate of the Pirate". The line is
    worked out by :func:`raisus_panel.ui._next_step.next_step` from the same answers that enable the
    buttons (``actions.why_not_error``), so it never says "roll" while the roll button is greyed out.
    It is set apart (class ``raisus-what-now``; ``mine`` when it asks this person to act, with a ▶
    instead of a ▷, and a thicker border) and announced to screen readers as a status.

    Parameters
    ----------
    actions
        The adapter of the person the line is for (its role and session say whose turn it is).
    """

    def _build(self) -> None:
        self._step: Step | None = None
        self._line = HTML(sizing_mode="stretch_width", stylesheets=[_CSS], margin=(0, 5))

    def __panel__(self) -> pn.viewable.Viewable:
        return self._line

    @property
    def step(self) -> Step | None:
        """The step the line shows now (a catalog key with fields, and the command it asks for)."""
        return self._step

    @property
    def text(self) -> str:
        """The line as plain text, in the component's language."""
        return "" if self._step is None else self._step.text(self.language)

    def _refresh(self) -> None:
        contest = self.contest
        if self.actions.role == "spectator" and contest is not None:
            # the same for every spectator of the room in one language: worked out once per change
            key = ("WhatNow", self.language, self.actions.room.round_open)
            self._step, html = once_per_change(contest, key, contest_state(contest), self._made)
        else:
            self._step, html = self._made()
        if self._line.object != html:
            self._line.object = html

    def _made(self) -> tuple[Step, str]:
        step = next_step(self.actions)
        sign, css = ("▶", "raisus-what-now mine") if step.mine else ("▷", "raisus-what-now")
        html = (f'<div class="{css}" role="status" aria-live="polite"><span class="sign" aria-hidden="true">'
                f'{sign}</span><span class="label">{esc(self._t("what_now.label"))}:</span>'
                f"{esc(step.text(self.language))}</div>")
        return step, html
