"""ConfirmStep: "Are you sure? — Yes, remove Sam / Cancel", inline, between a button and what it does.

For the one-click actions nobody can take back from their own page: removing a player, new links,
dropping out of a team, ending or closing a contest. No browser dialog (``confirm()`` blocks the page,
looks foreign and cannot be styled or translated), nothing on hover only: pressing the button opens a
short line right after it with the question and two buttons, in the page's tab order, each a finger's
size on a phone. Yes names what happens ("Yes, remove Sam"), Cancel closes the line.

Yes acts once: the line closes as it acts, and a second press of the same line (a double tap, a
click that was on its way) does nothing. The line also closes by itself when its button is greyed out
or hidden (the table moved on: the action is no longer offered). A room command sent from Yes names the
state the person decided on when they pressed the first button (``decided_on``), so if the table
changed in a way that matters in between, the room refuses it as stale, as it would a plain click.
"""

from __future__ import annotations

from collections.abc import Callable

import panel as pn
import param

from ._base import HTML, esc, style, wrap

__all__ = ["ConfirmStep"]

#: A finger's size on a phone (44 px, Apple's and WCAG's target). Yes in a darker red than Bokeh's
#: (white on #d9534f reads at 3.96:1; on #b02a37 at 6.3:1, WCAG asks 4.5:1).
_CONFIRM_CSS = """
@media (max-width: 600px) { :host .bk-btn { min-height: 44px; min-width: 44px; } }
:host .bk-btn-danger:not([disabled]) { background-color: #b02a37; border-color: #b02a37; color: #fff; }
:host .bk-btn-danger:not([disabled]):hover { background-color: #8c1d28; border-color: #8c1d28; }
"""
_QUESTION_CSS = ":host { font-weight: 600; } p { margin: 0 4px; }"


class ConfirmStep(pn.viewable.Viewer):
    """The inline confirmation of one button's action (see the module docstring).

    The owner keeps the trigger button where it was and puts this step's view right after it; it
    gives the texts in its own language (:meth:`relabel`).

    Parameters
    ----------
    trigger
        The button that opens the step (its own ``on_click`` must not act any more).
    on_yes
        What Yes does, called with ``decided_on`` (the room's sequence number the page showed when the
        trigger was pressed, or None without ``seen``).
    seen
        The page's ``seen_seq`` now (``Actions.seen_seq``), for room commands; None for other actions.
    ready
        Asked when the trigger is pressed: False keeps the question closed (the owner has said what is
        missing, e.g. an outcome not typed yet). None: always ready.
    """

    question = param.String(default="", doc="""
        The question, with what will happen ("Are you sure? Sam's link stops working.").""")

    yes_label = param.String(default="", doc="""
        The Yes button's label, naming the action ("Yes, remove Sam").""")

    cancel_label = param.String(default="", doc="""
        The Cancel button's label.""")

    opened = param.Boolean(default=False, doc="""
        Whether the question is shown (the trigger was pressed, and neither Yes nor Cancel since).""")

    def __init__(self, trigger, on_yes: Callable[[int | None], object], *,
                 seen: Callable[[], int] | None = None, ready: Callable[[], bool] | None = None, **params):
        super().__init__(**params)
        self._trigger = trigger
        self._on_yes = on_yes
        self._seen = seen
        self._ready = ready
        self.decided_on: int | None = None
        # as wide as its words (up to a line's measure): Yes and Cancel follow it, not the far edge
        self._question = HTML(stylesheets=[_QUESTION_CSS],
                              styles={"flex": "0 1 auto", "min-width": "0", "max-width": "48em"})
        kw = style("danger")
        self._yes = pn.widgets.Button(**{**kw, "stylesheets": [*kw["stylesheets"], _CONFIRM_CSS]},
                                      css_classes=["raisus-confirm-yes"])
        kw = style("light", outline=True)
        self._cancel = pn.widgets.Button(**{**kw, "stylesheets": [*kw["stylesheets"], _CONFIRM_CSS]},
                                         css_classes=["raisus-confirm-cancel"])
        self._box = wrap(self._question, self._yes, self._cancel, align_items="center", visible=False,
                         css_classes=["raisus-confirm"],
                         styles={"border-left": "4px solid var(--danger-bg-color, #dc3545)",
                                 "padding-left": "6px", "margin": "2px 0 6px 0"})
        trigger.on_click(lambda e: self.open())
        self._yes.on_click(lambda e: self.confirm())
        self._cancel.on_click(lambda e: self.cancel())
        # the action is no longer offered (greyed out, hidden): the question goes with it
        trigger.param.watch(self._on_trigger, ["disabled", "visible"])
        self.param.watch(self._show, ["question", "yes_label", "cancel_label", "opened"])
        self._show()

    def __panel__(self):
        return self._box

    def relabel(self, question: str, yes: str, cancel: str) -> None:
        """Put the texts on the step, in the owner's language (escaped here)."""
        self.param.update(question=question, yes_label=yes, cancel_label=cancel)

    def open(self) -> None:
        """Ask (the trigger was pressed): remember the state the person decided on."""
        if self._trigger.disabled or not self._trigger.visible:
            return
        if self._ready is not None and not self._ready():
            self.opened = False
            return
        self.decided_on = self._seen() if self._seen is not None else None
        self.opened = True

    def cancel(self) -> None:
        """Close the question without acting."""
        self.opened = False

    def confirm(self):
        """Yes: act once (a second press of an answered question does nothing); what ``on_yes`` returned."""
        if not self.opened:
            return None
        self.opened = False
        return self._on_yes(self.decided_on)

    def _on_trigger(self, *_) -> None:
        if self.opened and (self._trigger.disabled or not self._trigger.visible):
            self.opened = False

    def _show(self, *_) -> None:
        self._question.object = f'<p role="status">{esc(self.question)}</p>'
        self._yes.name = self.yes_label
        self._cancel.name = self.cancel_label
        if self._box.visible != self.opened:
            self._box.visible = self.opened
