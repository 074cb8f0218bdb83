"""Light or dark: a page's theme is part of its address (``?theme=dark``), like its language.

Panel reads ``theme`` from a served page's URL and gives its widgets the dark design; the charts
follow it (the charts' own dark theme) and the contest's own colours come from
Panel's theme variables. The switch reloads the page at the same address with the other theme, so
a bookmark or a reconnect keeps it.
"""

from __future__ import annotations

import panel as pn

from raisus_panel.ui.kit import ScriptButton, style

__all__ = ["SWITCH_THEME", "is_dark", "theme_label", "theme_switch"]

#: Run in the browser when the switch is pressed: the same page, in the other theme.
SWITCH_THEME = """
const url = new URL(window.location.href);
if (to === "dark") url.searchParams.set("theme", "dark"); else url.searchParams.delete("theme");
window.location.replace(url.href);
"""


def is_dark() -> bool:
    """Whether this page is dark (its address says ``theme=dark``)."""
    return pn.config.theme == "dark"


def theme_switch() -> pn.widgets.Button:
    """A button that shows this page in the other theme; label it with :func:`theme_label`."""
    return ScriptButton(width=110, css_classes=["raisus-theme-switch"], **style("light", outline=True),
                        script=SWITCH_THEME, script_args={"to": "default" if is_dark() else "dark"})


def theme_label(t) -> str:
    """The switch's label in a component's language (``t(key)``): what pressing it gives."""
    return t("dashboard.theme.light" if is_dark() else "dashboard.theme.dark")
