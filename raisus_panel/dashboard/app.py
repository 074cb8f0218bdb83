"""Which page a browser gets: the lobby, the invitation, or a room -- by the token in its link."""

from __future__ import annotations

import logging
import time

import panel as pn
from bokeh.core.properties import String
from bokeh.model import DataModel
from bokeh.models import CustomJS

from raisus_panel import i18n
from raisus_panel.i18n import t
from raisus_panel.room import PermissionDenied, Role, RoomRegistry, StoreError, get_registry
from raisus_panel.rules import RuleError
from raisus_panel.ui.kit import Button, ComponentBase, esc, schedule, served

from . import bounds, redact
from .join import JoinPage
from .keyboard import keyboard_tabs
from .language import page_language
from .link_card import LinkCard
from .loading import RoomLoader
from .lobby import Lobby
from .reconnect import lang_class, watch_connection
from .room_page import RoomPage
from .settings import client_address, limits, query_param, store_url
from .wire import lean_serialisation, send_utf8, short_errors

log = logging.getLogger(__name__)

CSS = """
.raisus-roster td, .raisus-roster th { padding: 2px 10px; text-align: left; }
.raisus-role { opacity: .75; margin-top: -8px; }
"""

# Phones and Korean, on every page:
# - Bokeh sizes its widgets from --bokeh-font-size (12 px unless set: its public size variable,
#   inherited into every widget's shadow root). Under 600 px, at 18.5 px, a button, a field or a menu
#   is 40 px tall, big enough for a finger.
# - Korean lines break between words, not inside one (browsers break Hangul anywhere); both
#   properties are inherited into every shadow root, and a long link still breaks where it must.
CSS += """
@media (max-width: 600px) { html { --bokeh-font-size: 18.5px; } }
.raisus-lang-ko { word-break: keep-all; overflow-wrap: break-word; }
"""


def page_for(registry: RoomRegistry, token: str):
    """The page for ``token``: the lobby without one, the join form for the players' invitation,
    the room for a GM, spectator or personal player token, and a clear refusal for anything else.

    Built at once, reading the store on this thread; a served page uses :func:`page_shell`.
    """
    if not token:
        return Lobby(registry=registry, lang=page_language())
    return build_page(registry, token, open_link(registry, token))


def page_shell(registry: RoomRegistry, token: str):
    """:func:`page_for`, served: the lobby, or "loading the room…" while a worker reads the link and the room."""
    if not token:
        return Lobby(registry=registry, lang=page_language())
    if not registry.store.shared:
        # a store of this process (a SQLite file, memory) answers in milliseconds and never pauses
        # for a network: its page is built at once, as page_for does. The shell is for a shared one.
        return page_for(registry, token)
    view = query_param("view")  # read now: the page is built later, in a callback
    shell = RoomLoader(open=lambda: open_link(registry, token, tries=OPEN_TRIES), lang=page_language(),
                       build=lambda opened: build_page(registry, token, opened, view=view))
    shell.load()
    return shell


#: How often a served page tries to read its link while the store does not answer (a second apart):
#: it says "loading the room…" meanwhile, on a worker, and opens once the store is back.
OPEN_TRIES = 6


def open_link(registry: RoomRegistry, token: str, *, tries: int = 1) -> tuple:
    """What opening ``token`` reads from the store (it may wait): ``("room", session, role)``,
    ``("invite", room title)``, ``("refused", error)`` or ``("failed",)``; up to ``tries`` times
    while the store cannot be reached."""
    for _ in range(tries - 1):
        opened = _open_link(registry, token)
        if not (opened[0] == "refused" and isinstance(opened[1], StoreError)
                and getattr(opened[1], "key", None) == "error.store.unavailable"):
            return opened
        time.sleep(1.0)
    return _open_link(registry, token)


def _open_link(registry: RoomRegistry, token: str) -> tuple:
    try:
        room, role = registry.resolve(token)
        if role is Role.PLAYER:
            try:
                return ("room", registry.open_session(token), role)
            except PermissionDenied:  # the invitation itself: join with a name first
                return ("invite", room.title)
        return ("room", registry.open_session(token), role)
    except RuleError as exc:
        return ("refused", exc)
    except Exception:  # a bug or a store failure: the details go to the log, never to the browser
        log.exception("could not open a link's page")
        return ("failed",)


def build_page(registry: RoomRegistry, token: str, opened: tuple, *, view: str | None = None):
    """The page for what :func:`open_link` read (no store read here: it runs on the event loop)."""
    if opened[0] == "room":
        _, session, role = opened
        if view is None:
            view = query_param("view")
        # the stream view is a spectator's (a GM or player page keeps its controls)
        # ?view=table (and table-stream): a spectator's table drawn in the browser (ui/table_view.py)
        watcher = role is Role.SPECTATOR
        return RoomPage(session, stream=watcher and view in ("stream", "table-stream"),
                        table_view=watcher and view in ("table", "table-stream"))
    if opened[0] == "invite":
        holder = pn.Column(sizing_mode="stretch_width")
        join = JoinPage(registry=registry, invite=token, title=opened[1], lang=page_language(),
                        on_joined=lambda session, _: holder.__setitem__(slice(None), joined_page(join, session)))
        holder[:] = [join]
        return holder
    if opened[0] == "refused":  # heading and reason in one language: the page's (?lang=) or the server's
        lang = query_param("lang") if query_param("lang") in i18n.LANGUAGES else i18n.settings.lang
        return pn.pane.Alert(f"**{esc(t('dashboard.refused', lang))}** {esc(i18n.translate(opened[1], lang))}",
                             alert_type="danger", css_classes=["raisus-refused"])
    return failed_page()


def joined_page(join: JoinPage, session) -> list:
    """What a player sees once joined: their personal link to keep, over the room.

    The link's card puts its token into the page's address in the browser (a reload, or a bookmark,
    brings the player back as themselves): a join answered off the event loop -- any shared store --
    cannot rely on Panel's location, whose change did not reach the address at all then.
    """
    page = RoomPage(session, lang=join.language)
    card = LinkCard(role="personal", url=join.personal_link, sets_address=True, heading_level=2,
                    who="dashboard.join.joined", lang=join.language)
    # on a phone the card fills the first screen: once the link is kept, the player puts it away
    hide = Button(name=t("dashboard.join.hide_link", join.language), button_type="primary",
                  min_height=44, margin=(0, 10, 10, 10), css_classes=["raisus-hide-link"])
    kept = pn.Column(card, hide, sizing_mode="stretch_width")
    hide.on_click(lambda _: kept.param.update(visible=False))

    def relabel(event) -> None:
        card.lang = event.new
        hide.name = t("dashboard.join.hide_link", event.new)
    page.param.watch(relabel, "lang")
    return [kept, page]


def failed_page():
    """What a page shows when it could not be built (the details are in the log)."""
    return pn.pane.Alert(f"**{esc(t('dashboard.failed'))}**", alert_type="danger", css_classes=["raisus-failed"])


def _page_template():
    """Panel's own page template with a viewport declared, and the page's language, at the end of ``<head>``.

    Without a viewport a phone lays a page out 980 px wide and shrinks it to fit its screen: every
    button ends up a few pixels tall. Panel's default page (``base.html``) declares none, and it says
    ``<html lang="en">`` on every page, so a screen reader would read a Korean page with an English
    voice: the template sets the page's language (``raisus_lang``, a template variable). A document is
    rendered with its ``template`` (Bokeh's public ``Document.template``), so the pages extend Panel's
    template by its empty ``postamble`` block rather than copy it.
    """
    from panel.io.resources import BASE_TEMPLATE

    return BASE_TEMPLATE.environment.from_string(
        '{% extends "base.html" %}{% block postamble %}'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '{% if raisus_lang %}'
        '<script>document.documentElement.lang = {{ raisus_lang | tojson }};</script>'
        '{% endif %}'
        '{% endblock %}')


#: The template of every page the dashboard serves (see :func:`_page_template`).
PAGE_TEMPLATE = _page_template()


def declare_viewport(doc) -> None:
    """Render ``doc``'s page with :data:`PAGE_TEMPLATE`, which declares a viewport for phones."""
    if doc is not None:
        doc.template = PAGE_TEMPLATE


class PageLang(DataModel):
    """The language a served page shows, for the browser to keep ``<html lang>`` on it.

    A model of its own, a root of the page's document, not a Panel ``jscallback`` on the page's
    layout: a layout with a JS link makes Panel walk every Bokeh model of the page whenever a pane
    there is redrawn, to look for links -- on a GM's page, for each chart of a newly started contest.
    """

    lang = String(default="", help="The page's language, e.g. ``ko``.")


#: Keeps ``<html lang>`` on the page's language when a room page switches it.
_FOLLOW_LANG = "if (cb_obj.lang) document.documentElement.lang = cb_obj.lang;"


def follow_lang(doc, page: ComponentBase) -> None:
    """Keep ``<html lang>`` of ``doc``'s page on ``page``'s language when it switches."""
    if not served(doc):
        return
    shown = PageLang(lang=page.language)
    shown.js_on_change("lang", CustomJS(code=_FOLLOW_LANG))
    doc.add_root(shown)

    def show() -> None:  # in the page's update batch: a raw Bokeh model changes only on its own document
        shown.lang = page.language
    page.param.watch(lambda e: schedule(doc, page, show), "lang")


def serve_panel_css_locally(doc) -> None:
    """Make every Panel style sheet of ``doc``'s page come from this server, never from Panel's CDN.

    Panel points a served page's style sheets at its local files when it answers the page's GET, by
    the document's ``dist_url`` template variable. A page whose websocket reaches another process
    than its GET (several processes behind a load balancer) gets its session made at connect time,
    with no GET on that process: without this its models would all link the CDN, and an offline
    table would show unstyled. Set before the page's models exist, so each is made with it.
    """
    if doc is None or getattr(doc, "session_context", None) is None:
        return
    from panel.io.resources import LOCAL_DIST

    rel = pn.state.rel_path
    doc.template_variables.setdefault("dist_url", f"{rel}/{LOCAL_DIST}" if rel else LOCAL_DIST)


def create_app(registry: RoomRegistry | None = None):
    """Build one browser session's page (call it once per session, e.g. from ``panel serve``)."""
    send_utf8()  # Korean texts travel at half the size
    short_errors()  # a message the server cannot apply gets a refusal, not a traceback
    lean_serialisation()  # a page's document costs less to send, byte for byte the same
    redact.install()  # link tokens never reach the log (``raisus serve`` does this before serving)
    serve_panel_css_locally(pn.state.curdoc)
    declare_viewport(pn.state.curdoc)  # every page, refusals included: a phone shows it at its own width
    # counted before anything is built: past the bounds a page is one pane, never a lobby or a room
    verdict, busy = bounds.guard(pn.state.curdoc, client_address())
    try:
        if verdict != bounds.PAGE:
            page = bounds.refusal_page(busy, page_language() or i18n.settings.lang)
        else:
            # the store is read on a worker, never on the event loop every page shares
            page = page_shell(registry or get_registry(store_url(), limits=limits()), query_param("token"))
    except Exception:  # a bug or a store failure: the details go to the log, never to the browser
        log.exception("could not build a page")
        page = failed_page()
    lang = page.language if isinstance(page, ComponentBase) else page_language() or i18n.settings.lang
    root = pn.Column(page, sizing_mode="stretch_width", styles={"max-width": "1400px", "margin": "0 auto"},
                     css_classes=[lang_class(lang)])
    if isinstance(page, ComponentBase):  # the banner of a lost connection speaks the page's language
        page.param.watch(lambda e: setattr(root, "css_classes", [lang_class(page.language)]), "lang")
        follow_lang(pn.state.curdoc, page)  # and so does <html lang>
    if pn.state.curdoc is not None:
        pn.state.curdoc.template_variables["raisus_lang"] = lang
    watch_connection(pn.state.curdoc, lang)
    if verdict == bounds.PAGE:
        keyboard_tabs(pn.state.curdoc)  # the tabs open with Enter or Space, not only with a click
    return root
