"""A checkbox whose text is its label: what a screen reader announces and what a finger can press.

Bokeh 3.9's ``Checkbox`` (behind ``pn.widgets.Checkbox``) draws its text in a ``<div>`` beside the
``<input>``, not in a ``<label>``: the box has no accessible name (axe-core's ``label`` rule, critical),
and only the 13 px box itself takes a click or a tap. :class:`LabelledCheckbox` is the same control
written with Panel's public ``JSComponent``: the box and its text inside one ``<label>``, at least
40 px tall. It keeps the parameters the components use (``value``, ``name`` as the text,
``disabled``), so it replaces ``pn.widgets.Checkbox`` where it is made.

The page draws the text from ``label``, which follows ``name``: Panel 1.9 sends a ``JSComponent``'s
``name`` to the page once, when it is drawn, and never its later changes, so a box drawn in Korean
kept "부적합" after the language switched to English (issue 22).
"""

from __future__ import annotations

import param
from panel.custom import JSComponent


class LabelledCheckbox(JSComponent):
    """A checkbox with its text as its ``<label>`` (see the module docstring)."""

    name = param.String(default="", constant=False, doc="""
        The text beside the box, which is also its accessible name.""")

    label = param.String(default="", doc="""
        The text as the page shows it: set from ``name`` (read-only; change ``name``).""")

    value = param.Boolean(default=False, doc="""
        Whether the box is ticked.""")

    disabled = param.Boolean(default=False, doc="""
        Whether the box is greyed out and cannot be ticked (declared here so the browser's view gets it).""")

    why = param.String(default=None, allow_None=True, doc="""
        Why the box is greyed, shown as text under it while it is disabled (None: nothing shown).
        Plain text, in the page's language (set it with ``disabled`` through ``_base.grey``).""")

    def __init__(self, **params):
        params["label"] = params.get("name", "")
        super().__init__(**params)

    @param.depends("name", watch=True)
    def _follow_name(self) -> None:
        self.label = self.name

    _esm = """
    export function render({ model }) {
      const root = document.createElement("div");
      const label = document.createElement("label");
      label.className = "raisus-checkbox";
      const box = document.createElement("input");
      box.type = "checkbox";
      const text = document.createElement("span");
      label.append(box, text);
      // why it is greyed, as the buttons say it (ui/_base.py WHY_SCRIPT): a line under it, in this
      // shadow root, which the box points to (an id resolves only within its own shadow root)
      const why = document.createElement("small");
      why.className = "raisus-why";
      why.id = "raisus-why";
      root.append(label, why);
      const show = () => {
        box.checked = model.value;
        box.disabled = model.disabled;
        label.classList.toggle("raisus-disabled", model.disabled);
        text.textContent = model.label;
        const reason = model.disabled && model.why ? model.why : "";
        why.textContent = reason;
        why.hidden = !reason;
        if (reason) box.setAttribute("aria-describedby", "raisus-why");
        else box.removeAttribute("aria-describedby");
      };
      box.addEventListener("change", () => { model.value = box.checked; });
      for (const name of ["value", "disabled", "label", "why"]) model.on(name, show);
      show();
      return root;
    }
    """

    _stylesheets = ["""
    .raisus-checkbox {
      display: inline-flex; align-items: center; gap: 8px; min-height: 40px; padding: 0 4px;
      cursor: pointer; font: inherit; color: inherit; user-select: none;
    }
    .raisus-checkbox input { width: 18px; height: 18px; margin: 0; cursor: inherit; }
    .raisus-checkbox.raisus-disabled { cursor: not-allowed; color: #5f6368; }
    .raisus-why { display: block; margin: 0 4px 4px; font-size: 0.9em; line-height: 1.3; opacity: 0.9;
                  overflow-wrap: anywhere; white-space: normal; }
    .raisus-checkbox input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
    """]
