"""One room link as the GM hands it out: what it is, who gets it, the link with a Copy button, and a
QR code a phone can scan.

Used by the lobby (the three links of a new room) and by the GM's link management (links made
again). The QR code is drawn here, on the server, from the real URL (``segno``, pure Python), as
inline SVG: nothing of the URL goes into HTML, the SVG holds only the code's squares. A link carries
its room's secret token: it is shown to the GM who made it and never logged.
"""

from __future__ import annotations

import panel as pn
import param
import segno
from panel.custom import JSComponent

from raisus_panel.ui.kit import HTML, ComponentBase, esc

#: The roles a link is made for, in the order they are handed out.
ROLES = ("gm", "player", "spectator")
#: A joined player's own link, made again by the GM (not handed out at a room's creation).
PERSONAL = "personal"

#: Pixels per QR module, and the quiet zone around the code in modules (4 is what scanners expect).
QR_SCALE = 4
QR_BORDER = 4


def qr_svg(url: str) -> tuple[str, int]:
    """The QR code of ``url`` as inline SVG (black on white, with its quiet zone), and its size in pixels.

    Error correction M survives a screen's glare and a phone held at an angle; the SVG has a fixed
    size so the code is never scaled below what a camera reads.
    """
    code = segno.make(url, error="m", micro=False)
    size = code.symbol_size(scale=QR_SCALE, border=QR_BORDER)[0]
    return code.svg_inline(scale=QR_SCALE, border=QR_BORDER, dark="#000", light="#fff"), size


class LinkField(JSComponent):
    """A link in a read-only field with a Copy button.

    Copy uses the Clipboard API; where the page has none (an ``http://`` address other than
    localhost is not a secure context) it selects the link and copies the selection, and if even that
    is refused the link stays selected and the button says how to copy it by hand. The button is a
    real ``<button>``: Tab reaches it, Enter and Space press it. What happened is announced to screen
    readers as well as shown on the button for a moment.
    """

    url = param.String(default="", doc="""
        The link shown and copied.""")

    label = param.String(default="", doc="""
        The field's accessible name (what the link is, e.g. "Players' invitation link").""")

    copy_label = param.String(default="Copy", doc="""
        The button's text.""")

    copied_label = param.String(default="Copied", doc="""
        Shown on the button for a moment after the link was copied.""")

    selected_label = param.String(default="Selected: copy it", doc="""
        Shown when the browser refused to copy: the link is selected, to copy by hand.""")

    sets_address = param.Boolean(default=False, doc="""
        Put this link's token into the page's own address as soon as the link is shown (the GM's new
        link, on the page that replaced it): a reload then opens the new link, whatever else the page
        was doing. The browser does it itself, not through Panel's location, whose update waits until
        the page's document is idle and follows the server's idea of the address.""")

    _esm = """
    export function render({ model }) {
      const box = document.createElement("div");
      box.className = "raisus-link-field";
      const input = document.createElement("input");
      input.type = "text";
      input.readOnly = true;
      input.spellcheck = false;
      input.autocomplete = "off";
      input.className = "raisus-link-url";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "raisus-copy";
      const status = document.createElement("span");
      status.className = "raisus-copy-status";
      status.setAttribute("role", "status");
      box.append(input, button, status);
      let timer = null;

      const show = () => {
        input.value = model.url;
        input.setAttribute("aria-label", model.label);
        if (timer === null) button.textContent = model.copy_label;
      };
      const flash = (text) => {
        button.textContent = text;
        status.textContent = text;
        clearTimeout(timer);
        timer = setTimeout(() => {
          timer = null;
          status.textContent = "";
          button.textContent = model.copy_label;
        }, 2500);
      };
      const toAddress = () => {
        if (!model.sets_address || !model.url) return;
        const token = new URL(model.url, window.location.href).searchParams.get("token");
        if (!token) return;
        const here = new URL(window.location.href);
        if (here.searchParams.get("token") === token) return;
        here.searchParams.set("token", token);  // ?lang= and the rest of the address stay
        window.history.replaceState(window.history.state, "", here.href);
      };
      const selectAll = () => { input.focus(); input.setSelectionRange(0, input.value.length); };

      button.addEventListener("click", async () => {
        let copied = false;
        if (navigator.clipboard && window.isSecureContext) {
          try { await navigator.clipboard.writeText(model.url); copied = true; } catch (e) { copied = false; }
        }
        if (!copied) {
          selectAll();  // the fallback copies the selection, and a refused copy leaves the link selected
          try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
        }
        flash(copied ? model.copied_label : model.selected_label);
      });
      input.addEventListener("focus", () => input.setSelectionRange(0, input.value.length));
      for (const name of ["url", "label", "copy_label"]) model.on(name, show);
      model.on("url", toAddress);
      show();
      toAddress();
      return box;
    }
    """

    _stylesheets = ["""
    :host { width: 100%; }
    .raisus-link-field { display: flex; flex-wrap: wrap; gap: 8px; align-items: stretch; }
    .raisus-link-url {
      flex: 1 1 16rem; min-width: 0; min-height: 44px; box-sizing: border-box; padding: 6px 10px;
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9rem;
      color: #1a1a1a; background: #f6f7f9; border: 1px solid #6b7280; border-radius: 6px;
    }
    .raisus-copy {
      flex: 0 0 auto; min-height: 44px; min-width: 6rem; padding: 6px 18px; font: inherit; font-weight: 600;
      color: #fff; background: #0b5ed7; border: 1px solid #0a58ca; border-radius: 6px; cursor: pointer;
    }
    .raisus-copy:hover { background: #0a53be; }
    .raisus-copy:focus-visible, .raisus-link-url:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
    .raisus-copy-status {
      position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
    }
    """]


class LinkCard(ComponentBase):
    """One link of a room: its title, who gets it and what it does, the link to copy, and its QR code.

    Parameters
    ----------
    role
        Whose link it is: "gm", "player" (the players' invitation) or "spectator".
    url
        The link itself.
    heading_level
        The level of the card's title (3 in the lobby, under its h2; 4 on the Room tab).
    """

    role = param.Selector(default="player", objects=[*ROLES, PERSONAL], doc="""
        Whose link it is: "gm" (the GM's seat), "player" (the players' invitation), "spectator", or
        "personal" (one joined player's own link).""")

    url = param.String(default="", doc="""
        The link (with its secret token): shown, copied and drawn as a QR code.""")

    heading_level = param.Integer(default=3, bounds=(2, 6), doc="""
        The HTML heading level of the card's title, to fit the page it is on.""")

    sets_address = param.Boolean(default=False, doc="""
        Put the link's token into this page's address (see :attr:`LinkField.sets_address`).""")

    who = param.String(default="", doc="""
        The catalog key of the words under the title; empty: who gets this role's link.""")

    def _build(self) -> None:
        self._text = HTML(sizing_mode="stretch_width", margin=(0, 10), css_classes=["raisus-link-text"])
        self._field = LinkField(url=self.url, sets_address=self.sets_address, sizing_mode="stretch_width", margin=(0, 10, 10, 10),
                                css_classes=[f"raisus-link-{self.role}"])
        self._qr = HTML(css_classes=["raisus-qr"], margin=(5, 10))
        self._layout = pn.FlexBox(
            pn.Column(self._text, self._field, sizing_mode="stretch_width",
                      styles={"flex": "1 1 18rem", "min-width": "0"}),
            self._qr, flex_wrap="wrap", align_items="center", sizing_mode="stretch_width",
            margin=(5, 10), styles={"border": "1px solid #d0d4da", "border-radius": "8px", "padding": "4px 0"},
            css_classes=["raisus-link-card", f"raisus-link-card-{self.role}"])
        self.param.watch(self._on_url, "url")

    def _relabel(self) -> None:
        title = self._t(f"dashboard.link.{self.role}")
        level = self.heading_level
        self._text.object = (f"<h{level} class='raisus-link-title'>{esc(title)}</h{level}>"
                             f"<p class='raisus-link-who'>{esc(self._t(self.who or f'dashboard.link.{self.role}.who'))}</p>")
        self._field.param.update(label=title, copy_label=self._t("dashboard.link.copy"),
                                 copied_label=self._t("dashboard.link.copied"),
                                 selected_label=self._t("dashboard.link.selected"))
        self._draw_qr()

    def _on_url(self, event) -> None:
        self._field.url = event.new
        self._draw_qr()

    def _draw_qr(self) -> None:
        if not self.url:
            self._qr.param.update(object="", visible=False)
            return
        label = self._t("dashboard.link.qr", title=self._t(f"dashboard.link.{self.role}"))
        svg, size = qr_svg(self.url)
        self._qr.param.update(object=f"<div role='img' aria-label='{esc(label)}' style='line-height:0'>{svg}</div>",
                              width=size, height=size, visible=True)

    def __panel__(self):
        return self._layout
