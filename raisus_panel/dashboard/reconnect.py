"""When the server goes away, a page says so; when it is back, the page reloads itself.

Bokeh's own reconnect cannot bring a page back after a server restart: the new server has none of
the old sessions (nor any model id the page knows), and the page's session token, signed when the
page was served, expires after ``--session-token-expiration`` (300 s by default). An older page
then connects, is refused ("Token is expired"), and tries again with its link token in the
websocket's URL -- which the browser prints on the console on every failure.

So Bokeh does not reconnect at all here (``pn.extension(reconnect=False)``). When a page's
websocket closes, :data:`ON_CONNECTION_LOST` shows a banner in the page's language and asks the
server for a small static file (no token, no session made) until it answers; then the page reloads
its own URL, which gets it a fresh session and token and the room as the store has it now.

The room page's header says the same in a word (:func:`connection_html`): "Live" while the page is
connected and the room's store answers, "Table unavailable" while the store cannot be reached (the
server says so), and "Offline" once the websocket is gone (the browser says so, the server being
away).
"""

from __future__ import annotations

import logging

from bokeh.models import CustomJS

from raisus_panel import upstream
from raisus_panel.i18n import LANGUAGES, t
from raisus_panel.ui.kit import esc

log = logging.getLogger(__name__)

__all__ = ["CONNECTION_CSS", "LANG_CLASS", "ON_CONNECTION_LOST", "connection_html", "lang_class",
           "watch_connection"]

#: The CSS class prefix that tells the page's language to the browser (on the page's root).
LANG_CLASS = "raisus-lang-"

#: Run in the browser when the page's websocket closes (``cb_data``: Bokeh's ConnectionLost event).
ON_CONNECTION_LOST = """
if (window.raisus_away) return;  // one watcher per page, however many documents it holds
window.raisus_away = true;
const event = (cb_data && cb_data.event_name) ? cb_data : cb_obj;
// Bokeh must not retry on its own: its retries carry the link token in the websocket URL, and
// after a restart they are refused anyway. BokehJS 3.9 has no public way to say so: its event holds
// the ClientConnection (a WeakRef), whose closed_permanently stops the retries (stop_retries: only
// on the Bokeh of raisus_panel.upstream.TESTED)
const connection = event && event.connection && event.connection.deref ? event.connection.deref() : null;
if (connection && stop_retries) connection.closed_permanently = true;

const lang = (() => {
  for (const doc of Bokeh.documents)
    for (const root of doc.roots())
      for (const cls of (root.css_classes || []))
        if (cls.startsWith(lang_class)) return cls.slice(lang_class.length);
  return default_lang;
})();
const say = (texts) => texts[lang] || texts[default_lang];
let banner = document.getElementById("raisus-offline");
if (banner == null) {
  banner = document.createElement("div");
  banner.id = "raisus-offline";
  banner.className = "raisus-offline";
  banner.setAttribute("role", "alert");
  Object.assign(banner.style, {
    position: "fixed", top: "0", left: "0", right: "0", zIndex: "100000", padding: "12px 20px",
    background: "#b3261e", color: "#fff", font: "600 16px/1.4 system-ui, sans-serif",
    textAlign: "center", boxShadow: "0 2px 8px rgba(0,0,0,.3)",
  });
  document.body.prepend(banner);
}
banner.textContent = say(away);
document.body.style.paddingTop = `${banner.offsetHeight}px`;  // hide nothing of the page

// the header's connection state (inside Bokeh's shadow roots) says it too, in a word
const badges = [];
const walk = (root) => {
  for (const el of root.querySelectorAll("*")) {
    if (el.classList.contains("raisus-connection")) badges.push(el);
    if (el.shadowRoot) walk(el.shadowRoot);
  }
};
walk(document);
for (const badge of badges) {
  badge.dataset.state = "offline";
  badge.textContent = say(offline);
  badge.title = say(away);
}

// a static file: any server answers it without making a session, and its URL holds no token
const script = Array.from(document.scripts).map(s => s.src).find(src => /\\/static\\/js\\/bokeh(\\.min)?\\.js/.test(src));
const probe = script || new URL("static/js/bokeh.min.js", window.location.href).href;
// a page that reloaded a moment ago and lost its connection again waits longer (no reload loop)
const last = Number(window.sessionStorage.getItem("raisus-reloaded") || 0);
let delay = Date.now() - last < 20000 ? 15000 : 1000;
const attempt = () => {
  fetch(probe, {method: "HEAD", cache: "no-store"}).then((response) => {
    if (!response.ok) return retry();
    banner.textContent = say(back);
    window.sessionStorage.setItem("raisus-reloaded", String(Date.now()));
    window.location.reload();
  }).catch(retry);
};
const retry = () => { delay = Math.min(delay * 1.5, 10000); setTimeout(attempt, delay); };
setTimeout(attempt, delay);
"""


#: The connection state in the header: a coloured dot and a word in the page's own text colour (the
#: word carries the meaning, so it reads on light and dark pages alike).
CONNECTION_CSS = """
.raisus-connection { display: inline-block; padding: 1px 10px; border-radius: 999px; font-size: 13px;
  font-weight: 600; white-space: nowrap; border: 1.5px solid var(--panel-border-color, #d0d7de); }
.raisus-connection::before { content: "\\25CF\\00A0"; }
.raisus-connection[data-state=live]::before { color: #2da44e; }
.raisus-connection[data-state=unavailable]::before, .raisus-connection[data-state=offline]::before { color: #d1242f; }
"""


def connection_html(state: str, t) -> str:
    """The header's connection state: ``state`` "live" or "unavailable", in a page's language (``t``).

    The browser turns it to "offline" by itself when the page's connection is lost
    (:data:`ON_CONNECTION_LOST`).
    """
    word, detail = t(f"dashboard.connection.{state}"), t(f"dashboard.connection.{state}_detail")
    return f'<span class=raisus-connection data-state={state} role=status title="{esc(detail)}">{esc(word)}</span>'


def lang_class(lang: str) -> str:
    """The CSS class that tells the browser this page's language (see :data:`LANG_CLASS`)."""
    return f"{LANG_CLASS}{lang}"


def watch_connection(doc, lang: str) -> None:
    """Make the page of ``doc`` show a banner while the server is away and reload once it is back.

    Parameters
    ----------
    doc
        The session's Bokeh document (nothing happens outside a served session).
    lang
        The language the banner falls back to when the page's root does not say its own
        (:func:`lang_class`).
    """
    if doc is None or getattr(doc, "session_context", None) is None:
        return
    texts = {key: {code: t(f"dashboard.connection.{key}", code) for code in LANGUAGES}
             for key in ("away", "back", "offline")}
    stop_retries = upstream.tested("bokeh")
    if not stop_retries:
        upstream.warn_untested("bokeh", "ON_CONNECTION_LOST's stop of Bokeh's retries", log)
    doc.js_on_event("connection_lost", CustomJS(
        args={**texts, "lang_class": LANG_CLASS, "default_lang": lang, "stop_retries": stop_retries},
        code=ON_CONNECTION_LOST))
