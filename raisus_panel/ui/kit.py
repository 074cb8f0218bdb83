"""What the pages above the components build with: the dashboard's pages and the reports.

The components' own modules (``ui._base``, ``ui._batch``, ...) are private so that their insides can
change; this module names the few pieces the dashboard and :mod:`raisus_panel.report` share with
them, so that a change to one of those pieces is a change to a public name, seen in review.

- :class:`ComponentBase`, :class:`Button` (its reason in a plain ``title``), :class:`ScriptButton`
  (a button that runs a script in the page only), :data:`HTML`, :func:`style`, :func:`wrap`,
  :func:`set_objects`, :data:`TABS_CSS`: a component's base class and layout helpers; :func:`grey`
  (disable a control with its reason said under it), :data:`WHY_SCRIPT` (the page script that draws
  those reasons).
- :class:`ConfirmStep`: the inline "Are you sure?" before an action nobody can take back.
- :func:`esc`, :func:`md_esc`: escaping for HTML and Markdown panes (names are the players' text).
- :func:`served`, :func:`schedule`, :func:`schedule_every`, :func:`once_per_change`: timing on a served page;
  :func:`background`: store work nobody waits for, off the event loop.
- :mod:`derive` (what a role sees of a contest), :data:`CONTEST_CSS` and the ``*_html`` functions,
  :func:`trail`: the contest's text, as the table and the reports write it.
"""

from . import _derive as derive
from ._base import (
                    HTML,
                    TABS_CSS,
                    WHY_SCRIPT,
                    Button,
                    ComponentBase,
                    ScriptButton,
                    esc,
                    grey,
                    md_esc,
                    set_objects,
                    style,
                    wrap,
)
from ._batch import schedule, schedule_every, served
from ._confirm import ConfirmStep
from ._contest_text import CONTEST_CSS, fate_html, member_label, result_html, roll_table_html, unit_head_html
from ._offloop import background
from ._shared import once_per_change
from ._trail import trail

__all__ = ["CONTEST_CSS", "HTML", "TABS_CSS", "Button", "background", "ComponentBase", "ConfirmStep", "ScriptButton", "derive",
           "WHY_SCRIPT", "esc", "fate_html", "grey", "md_esc", "member_label", "once_per_change", "result_html", "roll_table_html",
           "schedule", "schedule_every", "served", "set_objects", "style", "trail", "unit_head_html", "wrap"]
