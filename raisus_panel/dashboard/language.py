"""A page's language: the address's ``?lang=``, else the browser's (``Accept-Language``), else the server's.

The lobby and the join page are a table's first pages, often opened by someone who reads only one of the
catalogs' languages: they start in the language the person asked for (the address) or the browser
prefers, and carry the same two-button switch as the room page, kept in the address so a reload keeps it.
"""

from __future__ import annotations

import panel as pn

from raisus_panel.i18n import LANGUAGES
from raisus_panel.ui.kit import ComponentBase, served, style

from .settings import query_param

__all__ = ["browser_language", "language_switch", "page_language"]


def browser_language(header: str) -> str | None:
    """The first catalog language of an ``Accept-Language`` header, by its q-values (``en-US;q=0.8``), or None."""
    ranked = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue  # a malformed weight: skip that language, not the header
        lang = tag.strip().lower().split("-")[0]
        if lang in LANGUAGES and q > 0:
            ranked.append((-q, index, lang))
    return min(ranked)[2] if ranked else None


def page_language() -> str | None:
    """This session's language: ``?lang=`` when it names a catalog, else the browser's, else None (the server's)."""
    asked = query_param("lang")
    if asked in LANGUAGES:
        return asked
    headers = pn.state.headers or {}
    return browser_language(str(headers.get("Accept-Language") or headers.get("accept-language") or ""))


def language_switch(component: ComponentBase) -> pn.widgets.RadioButtonGroup:
    """The ko/en switch for ``component``'s page: it sets the component's ``lang``, and the address's ``?lang=``."""
    switch = pn.widgets.RadioButtonGroup(options=list(LANGUAGES), value=component.language, width=110,
                                         css_classes=["raisus-lang-switch"], **style("light", outline=True))
    switch.param.watch(lambda e: setattr(component, "lang", e.new), "value")
    if pn.state.location is not None and served(component._doc):
        pn.state.location.sync(switch, {"value": "lang"})
    return switch
