"""What every component shares: language, the actions adapter, refusals, and served-session hygiene.

Not a component itself. Components subclass :class:`ComponentBase` and implement ``_build`` (make
widgets once), ``_relabel`` (put the current language's texts on them) and ``_refresh`` (show the
models' state); they register every watcher on shared state through :meth:`ComponentBase._watch`, so
:meth:`ComponentBase.dispose` (called when a served session ends) removes them all.
"""

from __future__ import annotations

import html
import logging
import re
import string
import weakref

import panel as pn
import param
from bokeh.models import CustomJS
from panel.layout.base import ListLike
from panel.viewable import Layoutable

from raisus_panel import i18n, upstream
from raisus_panel.i18n import LANGUAGES
from raisus_panel.room import NotKnownYet, OutcomeUnknown
from raisus_panel.rules import RuleError

from . import _batch, _offloop
from .actions import Actions

log = logging.getLogger(__name__)

#: ASCII punctuation, which Markdown lets a backslash escape, except the ``&`` and ``;`` of the entities
#: that html.escape makes (``&amp;``, ``&lt;``, ``&gt;``).
_MD_PUNCTUATION = "[" + re.escape(string.punctuation.replace("&", "").replace(";", "")) + "]"
_MD_SPECIAL = re.compile(f"({_MD_PUNCTUATION})")


def esc(text) -> str:
    """HTML-escape any value for an HTML pane."""
    return html.escape(str(text), quote=True)


def md_esc(text) -> str:
    """Escape text for a Markdown pane, so that it shows verbatim: no HTML, no Markdown.

    ``&``, ``<`` and ``>`` become entities first (``quote=False``: an entity for ``'`` would have its
    ``#`` escaped below and show as ``&#x27;``), then every other ASCII punctuation character gets a
    backslash, so no emphasis, link, heading, list or autolink can form.
    """
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def percent(p) -> str:
    """``0.5734`` -> ``"57.3%"`` (``"<0.1%"``/``">99.9%"`` near the ends, so a chance never looks certain)."""
    p = float(p)
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{100 * p:.1f}%"


#: The ring around what has the keyboard's focus: dark blue, solid and 2px wide, so it stands out
#: (at least 3:1) on white, on light grey and beside every button colour.
FOCUS_RING = "outline: 2px solid #0550ae;"

#: Bokeh only lowers a disabled button's opacity to .65, which leaves a solid coloured button (or a
#: "light" one) looking pressable. Greyed out, faded and with a dashed border, a disabled button looks
#: disabled in every colour and variant (none of their rules sets these properties).
#: Bokeh marks a focused button with a 1px light-grey dotted outline, which is hard to see: a button
#: reached with the keyboard gets :data:`FOCUS_RING` (above its neighbours in a button group).
DISABLED_CSS = """
:host .bk-btn[disabled] {
  opacity: 0.4;
  filter: grayscale(100%);
  border-style: dashed;
  box-shadow: none;
  cursor: not-allowed;
}
""" + f":host .bk-btn:focus-visible {{ {FOCUS_RING} outline-offset: 2px; position: relative; z-index: 1; }}\n" + "".join(
    # An outlined button's words in its colour's text shade from Panel's theme (the button colour itself
    # reads at only 4.1:1 on a dark page): 4.5:1 or more on a light page and on a dark one alike.
    f":host(.outline) .bk-btn-{kind}:not(:hover):not([disabled]):not(.bk-active) "
    f"{{ color: var(--{kind}-text-color, {light}); }}\n"
    for kind, light in (("primary", "#0a58ca"), ("success", "#146c43"), ("danger", "#b02a37"),
                        ("warning", "#997404"), ("info", "#087990")))

#: A card's header is a button too, and Panel draws it focused without any mark at all
#: (``outline: unset``): for every ``pn.Card``'s ``stylesheets``.
CARD_CSS = f".card-header:focus-visible {{ {FOCUS_RING} outline-offset: -2px; }}"

#: A tab header reached with the keyboard: Bokeh draws it with a 1px light-grey dotted outline
#: only. For every ``pn.Tabs``'s ``stylesheets``.
TABS_CSS = f":host .bk-tab:focus-visible {{ {FOCUS_RING} outline-offset: -2px; }}"


#: A button group (``pn.widgets.RadioButtonGroup``) whose buttons wrap onto more lines: Bokeh keeps them
#: on one line whatever the width, and a long group makes a phone's page scroll sideways. On a phone
#: the buttons stand apart, each with its own rounded corners: Bokeh joins them (inner corners square,
#: each overlapping the one before by 1 px), which would leave square ends in the middle of a line once
#: they wrap. Its own selectors are as specific as five classes, hence ``!important``.
WRAP_GROUP_CSS = """
:host .bk-btn-group { flex-wrap: wrap; }
@media (max-width: 600px) {
  :host .bk-btn-group { gap: 6px; }
  :host .bk-btn-group > .bk-btn { margin-left: 0 !important; border-radius: var(--border-radius) !important; }
}
"""


def style(kind: str = "default", outline: bool = False) -> dict:
    """Keyword arguments that colour a button (or button group) and make it look disabled when it is.

    Solid is for the main action of a form; other actions are outlined (``outline=True``).
    """
    colour = {"color": kind, "variant": "outline" if outline else "solid"}
    return {**colour, "stylesheets": [DISABLED_CSS]}


def wrap(*objects, align_items: str = "end", **params) -> pn.FlexBox:
    """A row that wraps: what does not fit beside goes below (a phone's 390 px), nothing scrolls sideways.

    Its element has the class ``raisus-row`` (a Panel ``FlexBox`` has no class of its own to find it by).
    """
    params["css_classes"] = ["raisus-row", *params.get("css_classes", [])]
    return pn.FlexBox(*objects, flex_wrap="wrap", align_items=align_items, sizing_mode="stretch_width", **params)


def set_options(select, options, prefer=None) -> None:
    """Give a Select new options in one update, keeping its value if still offered (else ``prefer``,
    else the first option, else None)."""
    values = list(options.values()) if isinstance(options, dict) else list(options)
    value = select.value
    if value not in values:
        value = prefer if prefer in values else (values[0] if values else None)
    if select.options != options or select.value != value:
        select.param.update(options=options, value=value)


class _NoLayout(ListLike, Layoutable):
    """The layout an :class:`HTML` pane makes of itself for when it is shown alone: none.

    Panel gives every pane a layout of its own (a ``Row`` around it, ``pane.layout``) for when the
    pane is displayed by itself. Ours always sit in a component's layout, so that Row was never
    shown, yet it cost each pane (a page holds dozens) a Panel object and its watchers.
    """

    _models: dict = {}  # read by Panel's fallback re-render (a Row holds the models it shows there)

    def __init__(self, *objects, **params):
        super().__init__(objects=list(objects), **params)


class HTML(pn.pane.HTML):
    """An HTML pane whose text changes send only the new text -- or, streaming, only its new tail.

    When its text changes, Panel's HTML pane recomputes every property of its model, style sheets
    included (as new Bokeh models): each update then costs a few milliseconds, re-sends them, and
    makes a served page walk its whole document again. This pane sets the model's ``text`` alone
    (through the pane's own transformation, so sanitising and escaping rules still apply); every
    other parameter is synced by Panel as usual. With ``enable_streaming=True`` (text that grows at
    its end, like a log), Panel's streaming sends only what follows the part that stayed the same.
    """

    _text_only = False

    default_layout = param.ClassSelector(default=_NoLayout, class_=(ListLike,), is_instance=False, doc="""
        The layout the pane makes of itself (``pane.layout``): none, see ``_NoLayout``.""")

    def _update(self, ref, model) -> None:
        # Panel 1.9's ``_update`` (``HTMLBasePane``) recomputes every property of the model; upstream
        # has no "only the text" update. On another Panel, Panel's own (see raisus_panel.upstream)
        if not upstream.tested("panel"):
            upstream.warn_untested("panel", "ui.HTML's text-only updates", log)
            super()._update(ref, model)
            return
        if not self.enable_streaming:
            model.update(**self._process_param_change({"object": self.object}))
            return
        self._text_only = True
        try:
            super()._update(ref, model)
        finally:
            self._text_only = False

    def _process_param_change(self, params):
        params = super()._process_param_change(params)
        if self._text_only:
            params.pop("stylesheets", None)
        return params


#: Once per page: every control with a reason to be greyed (its element's ``data-why``, see
#: :class:`Button`) gets that reason as a line of text in its own shadow root, right under it, and the
#: control points to the line with ``aria-describedby`` (an id resolves only within one shadow root,
#: so the line cannot be a pane beside it). Bokeh redraws a widget's shadow root on some changes and
#: makes views for new models at any time: one MutationObserver watches the page and every shadow root
#: in it, and after each batch of changes the page looks again (a walk of a few thousand elements, well
#: under a millisecond). Its callback runs before the browser paints, so no frame shows a greyed
#: control without its reason; an idle page does no work (a timer did, every 300 ms, on every phone).
WHY_SCRIPT = """
if (!window.raisusWhy) {
  const fix = (host) => {
    const root = host.shadowRoot;
    const why = host.getAttribute("data-why") || "";
    const control = root.querySelector("button, input, select, textarea");
    const lines = Array.from(root.children).filter((el) => el.classList.contains("raisus-why"));
    let line = lines.shift();
    for (const extra of lines) extra.remove();
    if (why && control) {
      if (!line) {
        line = document.createElement("small");
        line.className = "raisus-why";
        line.id = "raisus-why";
        line.style.cssText = "display:block;margin:4px 0 0;font-size:0.9em;line-height:1.3;" +
          "overflow-wrap:anywhere;white-space:normal;text-align:start;opacity:0.9;";
      }
      if (line.parentNode !== root || line.nextSibling) root.appendChild(line);  // after a redraw
      if (line.textContent !== why) line.textContent = why;
      if (control.getAttribute("aria-describedby") !== "raisus-why") control.setAttribute("aria-describedby", "raisus-why");
    } else if (line) {
      line.remove();
      if (control) control.removeAttribute("aria-describedby");
    }
  };
  // an observer sees its own root's subtree only, not into shadow roots: each is watched once found
  const watched = new WeakSet();
  const watch = (root) => {
    if (watched.has(root)) return;
    watched.add(root);
    observer.observe(root, {childList: true, subtree: true, attributes: true, attributeFilter: ["data-why"]});
  };
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) {
        watch(el.shadowRoot);
        if (el.hasAttribute("data-why") || el.shadowRoot.getElementById("raisus-why")) fix(el);
        walk(el.shadowRoot);
      }
    }
  };
  // fix() changes only what is wrong, so the changes it makes bring one more walk that changes nothing
  const observer = new MutationObserver(() => walk(document));
  window.raisusWhy = () => walk(document);
  watch(document);
}
setTimeout(window.raisusWhy, 0);
"""


class Button(pn.widgets.Button):
    """A button whose ``title`` (what it does) and ``why`` (why it is greyed) are attributes of its element.

    Not a hover tooltip model (a button's ``description``): a tooltip model syncs its ``visible``
    back whole with the next change (the server logged ``reference already known`` for each), and a
    tapped tooltip stuck on a phone, over the next control (issue 21). ``title`` travels as a plain
    attribute; ``why`` as ``data-why``, which the page (:data:`WHY_SCRIPT`) shows as a line of text
    right under the button, pointed to by ``aria-describedby``: nothing depends on hover.
    """

    title = param.String(default=None, allow_None=True, doc="""
        The button's title: the browser shows it when the pointer rests on the button. Plain text.""")

    why = param.String(default=None, allow_None=True, doc="""
        Why the button is greyed, shown as text under it while it is disabled (None: nothing shown).
        Plain text, in the page's language.""")

    _rename = {**pn.widgets.Button._rename, "title": None, "why": None}

    def _process_param_change(self, params):
        changed = "title" in params or "why" in params
        params.pop("title", None)
        params.pop("why", None)
        props = super()._process_param_change(params)
        if changed:  # Bokeh's ``html_attributes`` of the button's element
            props["html_attributes"] = _why_attributes(self)
        return props

    def _get_model(self, doc, root=None, parent=None, comm=None):
        model = super()._get_model(doc, root, parent, comm)
        # the script starts with the page's first reason, and looks again whenever one changes
        model.js_on_change("html_attributes", CustomJS(code=WHY_SCRIPT))
        if doc is not None and not getattr(doc, "_raisus_why", False):
            doc._raisus_why = True
            doc.js_on_event("document_ready", CustomJS(code=WHY_SCRIPT))
        return model


def _why_attributes(widget) -> dict:
    """The element attributes that carry ``widget``'s title and reason (see :class:`Button`)."""
    attributes = {"title": widget.title} if getattr(widget, "title", None) else {}
    if widget.why:
        attributes["data-why"] = widget.why
    return attributes


class _SaysWhy:
    """Mixin of a Panel widget whose ``why`` (why it is greyed) the page shows under it, as
    :class:`Button` does: set ``why`` with ``disabled``, None when it can be used."""

    def _process_param_change(self, params):
        changed = "why" in params
        params.pop("why", None)
        props = super()._process_param_change(params)
        if changed:
            props["html_attributes"] = _why_attributes(self)
        return props

    def _get_model(self, doc, root=None, parent=None, comm=None):
        model = super()._get_model(doc, root, parent, comm)
        model.js_on_change("html_attributes", CustomJS(code=WHY_SCRIPT))
        return model


_WHY_DOC = """
        Why the field is greyed, shown as text under it while it is disabled (None: nothing shown).
        Plain text, in the page's language."""


class TextInput(_SaysWhy, pn.widgets.TextInput):
    """A text field that says why it is greyed, under it (see :class:`Button`)."""

    why = param.String(default=None, allow_None=True, doc=_WHY_DOC)
    _rename = {**pn.widgets.TextInput._rename, "why": None}


class TextAreaInput(_SaysWhy, pn.widgets.TextAreaInput):
    """A text area that says why it is greyed, under it (see :class:`Button`)."""

    why = param.String(default=None, allow_None=True, doc=_WHY_DOC)
    _rename = {**pn.widgets.TextAreaInput._rename, "why": None}


class IntInput(_SaysWhy, pn.widgets.IntInput):
    """A number field that says why it is greyed, under it (see :class:`Button`)."""

    why = param.String(default=None, allow_None=True, doc=_WHY_DOC)
    _rename = {**pn.widgets.IntInput._rename, "why": None}


class Select(_SaysWhy, pn.widgets.Select):
    """A drop-down that says why it is greyed, under it (see :class:`Button`)."""

    why = param.String(default=None, allow_None=True, doc=_WHY_DOC)
    _rename = {**pn.widgets.Select._rename, "why": None}


def grey(widget, reason: str | None) -> None:
    """Disable ``widget`` with ``reason`` shown under it, or enable it (``reason`` None), in one change."""
    if widget.disabled != (reason is not None) or widget.why != reason:
        widget.param.update(disabled=reason is not None, why=reason)


class ScriptButton(Button):
    """A button that runs a script in the browser when pressed (open a page, reload in another theme).

    The script sits on the button's own Bokeh model, not in a Panel JS link (``js_on_click``): one
    link anywhere on a page makes Panel walk every Bokeh model of the page each time a pane there is
    redrawn, to look for links -- on a GM's page, for every chart of a newly started contest.
    """

    script = param.String(default="", doc="""
        The JavaScript run in the browser when the button is pressed (``cb_obj`` is the button).""")

    script_args = param.Dict(default={}, doc="""
        Plain values the script reads by name.""")

    _rename = {**Button._rename, "script": None, "script_args": None}

    def _get_model(self, doc, root=None, parent=None, comm=None):
        model = super()._get_model(doc, root, parent, comm)
        model.js_on_event("button_click", CustomJS(args=dict(self.script_args), code=self.script))
        return model


def hint(button) -> str | None:
    """The text of a button's title (why it is disabled, or what it does), or None."""
    return getattr(button, "title", None)


def why(button) -> str | None:
    """The reason shown under a greyed button, or None while it can be pressed."""
    return getattr(button, "why", None)


def set_objects(layout, objects) -> None:
    """Give a layout new children only if they differ: the same objects in the same order leave it
    alone. A served page re-walks its whole document for every new list of children."""
    objects = list(objects)
    current = layout.objects
    if len(current) != len(objects) or any(a is not b for a, b in zip(current, objects)):
        layout.objects = objects


def _weak_relay(obj: param.Parameterized, method):
    """A watcher callback that calls ``method`` while its object lives, then unwatches itself."""
    ref = weakref.WeakMethod(method)
    holder: list = []

    def relay(*events):
        target = ref()
        if target is None:
            for watcher in holder:
                try:
                    obj.param.unwatch(watcher)
                except Exception:
                    pass
            holder.clear()
            return
        target(*events)

    def bind(watcher):
        holder.append(watcher)
        return watcher

    relay.bind = bind
    return relay


class ComponentBase(pn.viewable.Viewer):
    """Base of the raisus_panel components (see the module docstring)."""

    actions = param.ClassSelector(class_=Actions, default=None, allow_None=True, doc="""
        The adapter commands go through and state is read from, on a room session (a notebook's
        local room or a served page's session). A new local room's when omitted.""")

    lang = param.Selector(default=None, objects=[None, *LANGUAGES], allow_None=True, doc="""
        The language of this component: "ko" or "en". None follows raisus_panel.i18n.settings.lang.""")

    _version = param.Integer(default=0, precedence=-1, doc="""
        Private: counts refreshes, so panes bound to it recompute when the models changed.""")

    def __init__(self, **params):
        if params.get("actions") is None:
            params["actions"] = Actions()
        super().__init__(**params)
        self._watchers: list[tuple[param.Parameterized, object]] = []
        self._contest_watchers: list[tuple[param.Parameterized, object]] = []
        self._watched_contest = None
        self._disposed = False
        self._shown = True
        self._behind = False  # a refresh was skipped while hidden
        # the room's seq this component last drew, and the seq the first change delivered since then
        # started from: a change that starts later than what was drawn means one never arrived
        self._drawn_seq: int | None = None
        self._from_seq: int | None = None
        # served: remember our own document, so changes made from another session or thread are
        # applied on it, and clean up when the tab closes
        self._doc = pn.state.curdoc
        _batch.track(self._doc)  # this page's updates wait until it is ready
        self._build()
        self._watch(i18n.settings, self._on_global_lang, "lang")
        self.param.watch(self._on_lang, "lang")
        self.param.watch(self._on_actions, "actions")
        self._wire_actions()
        self._relabel()
        self._refresh_now()
        if self._doc is not None and getattr(self._doc, "session_context", None) is not None:
            pn.state.on_session_destroyed(self._on_session_destroyed)

    @property
    def _error(self) -> pn.pane.Alert:
        """Where a refusal is shown (made when a layout or a refusal first needs it)."""
        if "_error_pane" not in self.__dict__:
            self._error_pane = pn.pane.Alert("", alert_type="danger", visible=False, sizing_mode="stretch_width")
        return self._error_pane

    @property
    def _info(self) -> pn.pane.Alert:
        """Where a success is shown (made when first needed): charts and views never need one."""
        if "_info_pane" not in self.__dict__:
            self._info_pane = pn.pane.Alert("", alert_type="success", visible=False, sizing_mode="stretch_width")
        return self._info_pane

    def _create_view(self):
        """The view Panel shows for this component (in a layout, a notebook output or a served page),
        holding the component.

        A layout keeps only what ``__panel__`` returned, and shared state holds components weakly
        (see :meth:`_watch`), so without this reference ``pn.Row(ScoreChart(actions=a))`` would lose
        its component at the next garbage collection and the chart would freeze. The view and the
        component reference each other: they live while either is shown or kept, and are collected
        together once both are dropped (a re-run notebook cell).
        """
        view = super()._create_view()
        owners = view.__dict__.setdefault("_raisus_components", [])
        if not any(owner is self for owner in owners):
            owners.append(self)
        return view

    # -- subclass hooks ---------------------------------------------------------------------------
    def _build(self) -> None:
        """Make the widgets and panes (once)."""

    def _relabel(self) -> None:
        """Put the current language's texts on the widgets."""

    def _refresh(self) -> None:
        """Show the current state of the models."""

    def _contest_params(self) -> list[str]:
        """The contest parameters whose change calls :meth:`_refresh`."""
        return ["events"]

    def _on_contest_changed(self, old, new) -> None:
        """Called when the adapter's contest is replaced (before ``_refresh``)."""

    # -- language -------------------------------------------------------------------------------
    @property
    def language(self) -> str:
        """The language in use: ``lang``, or the global setting."""
        return self.lang or i18n.settings.lang

    def _t(self, key: str, **fmt) -> str:
        return i18n.t(key, self.language, **fmt)

    def _explain(self, refusal: BaseException) -> str:
        """A refusal in this component's language (its catalog text; its English message without a key).

        Not escaped: escape it for the pane it goes into.
        """
        return i18n.translate(refusal, self.language) or type(refusal).__name__

    def _on_lang(self, *_):
        self._relabel()
        self._refresh_now()

    def _on_global_lang(self, *_):
        if self.lang is None:
            self._schedule(self._on_lang)

    # -- shared state -----------------------------------------------------------------------------
    def _watch(self, obj: param.Parameterized, fn, *names, contest: bool = False) -> None:
        """Watch ``names`` on a shared object; removed again by :meth:`dispose`.

        The watcher holds the component only weakly: a component nobody shows or keeps any more
        (a re-run notebook cell) is collected and its watcher removes itself, instead of shared
        state keeping every old view alive and refreshing it forever.
        """
        relay = _weak_relay(obj, fn)
        watcher = relay.bind(obj.param.watch(relay, list(names)))
        (self._contest_watchers if contest else self._watchers).append((obj, watcher))

    def _unwatch_all(self, pairs) -> None:
        for obj, watcher in pairs:
            try:
                obj.param.unwatch(watcher)
            except Exception:  # already gone
                pass
        pairs.clear()

    def _on_actions(self, event) -> None:
        self._unwatch_all([p for p in self._watchers if p[0] is event.old])
        self._watchers = [p for p in self._watchers if p[0] is not event.old]
        self._wire_actions()
        self._refresh_now()

    def _wire_actions(self) -> None:
        self._watch(self.actions, self._on_actions_state, "contest", "characters", "checks", "seq", "role",
                    "missed")
        self._wire_contest()

    def _wire_contest(self) -> None:
        contest = self.actions.contest
        if contest is self._watched_contest and (contest is None or self._contest_watchers):
            return
        old = self._watched_contest
        self._unwatch_all(self._contest_watchers)
        self._watched_contest = contest
        if contest is not None:
            self._watch(contest, self._on_contest_state, *self._contest_params(), contest=True)
        self._on_contest_changed(old, contest)

    def _on_actions_state(self, *events) -> None:
        # Called wherever the command was given (another page's callback, a room thread): the
        # rewiring and its ``_on_contest_changed`` hook may touch this page's views, so they run in
        # its batch too (before the refresh they lead to).
        for e in events:
            if e.name == "seq" and (self._from_seq is None or e.old < self._from_seq):
                self._from_seq = e.old
        if any(e.name == "missed" for e in events):  # the page's adapter missed a change of the room
            self._schedule(self._redraw, rebuild=True)
            return
        # a new contest (or none) makes and drops the models of its cards and charts
        rebuild = any(e.name == "contest" for e in events)
        if rebuild:
            self._schedule(self._wire_contest, rebuild=True)
        self._schedule(self._refresh_now, rebuild=rebuild)

    def _on_contest_state(self, *events) -> None:
        self._schedule(self._refresh_now)

    @property
    def contest(self):
        """The contest currently shown (the adapter's), or None."""
        return self.actions.contest

    def _refresh_now(self, *_) -> None:
        if self._disposed:
            return
        if not self._shown:
            self._behind = True
            return
        # what this refresh starts from: the first change delivered since the last one drew, else
        # the state the adapter holds (a contest's own change arrives before the room's seq moves)
        start = self.actions.seq if self._from_seq is None else self._from_seq
        missed = self._drawn_seq is not None and start > self._drawn_seq
        self._behind = False
        self._from_seq = None
        seq = self.actions.seq
        if missed:  # a change never reached this view (or its refresh failed): all of it again
            self._forget()
        self._refresh()
        self._drawn_seq = seq  # only once drawn: a refresh that raised leaves the next one a gap
        self._version += 1

    def _redraw(self) -> None:
        """Draw everything from the room's whole state again, in new widgets where the component keeps
        any (:meth:`_forget`): what the browser shows is then the room's, whatever it showed before."""
        self._forget()
        self._refresh_now()

    def _forget(self) -> None:
        """Drop what a refresh reuses (cards, rows of buttons), so the next refresh makes them anew.

        Called when a change never reached this view (or its refresh failed).
        """

    def set_shown(self, shown: bool) -> None:
        """Tell the component whether it is on screen (e.g. in the active tab of a page).

        A hidden component skips its refreshes -- on a shared room, every open page would otherwise
        redraw what nobody looks at after every command -- and catches up once shown again.
        """
        self._shown = bool(shown)
        if self._shown and self._behind:
            self._refresh_now()

    def _schedule(self, fn, *args, rebuild: bool = False) -> None:
        """Run ``fn`` now without a served document, else in the document's next update batch.

        Served, a change made by any session (or a room thread) must only touch this session's Bokeh
        models from this session's document, and all the changes of one command should reach the
        browser as one message: see :mod:`._batch`. Asked again before the batch runs, ``fn`` still
        runs once. ``rebuild=True``: the batch makes or drops many models (see ``_batch.schedule``).
        """
        if self._disposed or _batch.closed(self._doc):
            return
        if not _batch.served(self._doc):
            fn(*args)
            return
        _batch.schedule(self._doc, self, fn, *args, rebuild=rebuild)

    def _on_session_destroyed(self, session_context) -> None:
        self.dispose()

    def dispose(self) -> None:
        """Remove every watcher this component put on shared state (when its session ends)."""
        self._disposed = True
        self._unwatch_all(self._watchers)
        self._unwatch_all(self._contest_watchers)

    # -- commands ---------------------------------------------------------------------------------
    def _why_not(self, command: str, /, **args) -> str | None:
        """The adapter's reason to refuse ``command`` now, in this component's language, or None.

        A hint for enabling buttons: it never breaks a refresh.
        """
        try:
            refusal = self.actions.why_not_error(command, **args)
        except Exception as exc:
            refusal = exc
        return None if refusal is None else self._explain(refusal)

    def _can(self, command: str, /, **args) -> bool:
        return self._why_not(command, **args) is None

    def _offer(self, button, command: str, /, **args) -> bool:
        """Enable ``button`` if ``command`` would be accepted now, else disable it.

        Why not is said under it on the page (its ``why``) and in its title; an enabled button's title
        says what the command does. Call it after setting the button's ``visible``: a hidden button is
        left as it is (nothing to send for it).
        """
        reason = self._why_not(command, **args)
        if button.visible:  # a hidden button is brought up to date when it is shown
            button.disabled = reason is not None
            self._tip(button, reason if reason is not None else self._t(f"help.{command}"), why=reason)
        return reason is None

    def _withhold(self, button, command: str) -> None:
        """Disable ``button`` for a command not fully set up yet; its reason says what is missing."""
        button.disabled = True
        self._tip(button, self._t(f"help.first.{command}"), why=self._t(f"help.first.{command}"))

    def _tip(self, button, text: str, *, why: str | None = None) -> None:
        """Give ``button`` (a :class:`Button`) the title ``text`` and the reason ``why`` it is greyed
        (shown under it; None: it is not greyed), in one change."""
        if button.title != text or button.why != why:
            button.param.update(title=text, why=why)

    def _run(self, command: str, /, *, then=None, **args):
        """Give a command; show a refusal in place (nothing changed), else call ``then(result)``.

        Served, the store's wait happens off the event loop (``Actions.act_in_order``): this returns
        None at once, and the answer -- the refusal, "not known yet", or ``then`` -- comes later, on
        the loop, in click order. Without a served page it all happens now and the result (None when
        refused) is returned too. Put what follows an accepted command in ``then``.
        """
        outcome: dict[str, object] = {}

        def answered(result, error) -> None:
            outcome["result"] = self._answered(result, error, then)
        self.actions.act_in_order(command, answered, **args)
        return outcome.get("result")

    def _call(self, work, then=None, *, settle=None, refuse: type[BaseException] = RuleError):
        """Run ``work()`` -- store work that may wait, not a room command -- as :meth:`_run` gives one.

        Served, on a worker thread in this page's order, answered on the loop; elsewhere now. A
        ``refuse`` error is shown in place; an :class:`~raisus_panel.room.OutcomeUnknown` says "not
        known yet" until ``settle(unknown, callback)`` (``Room.settle`` of the room it wrote to)
        learns from the room's log what came of it; else ``then(result)``. Returns what :meth:`_run` does.
        """
        outcome: dict[str, object] = {}

        def answered(result, error) -> None:
            outcome["result"] = self._answered(result, error, then, settle=settle, refuse=refuse)
        _offloop.in_order(self._doc, work, answered)
        return outcome.get("result")

    def _answered(self, result, error, then, *, settle=None, refuse: type[BaseException] = RuleError):
        """Show what came of a command given by :meth:`_run`; ``then(result)`` when it was accepted."""
        if isinstance(error, OutcomeUnknown):  # sent, answer lost: say so, and learn from the room's log which it was
            self._show_unknown(error, settle)
            return None
        if isinstance(error, NotKnownYet):  # and it could not be read back: a warning, not a refusal
            self._error.param.update(object=md_esc(self._explain(error)), alert_type="warning", visible=True)
            return None
        if isinstance(error, refuse):  # the room's PermissionDenied is one
            self._show_error(error)
            # The controls the person just changed (a picker, a box) show what they asked for, which
            # the room does not hold: set from the room's state in the page's next batch, so that the
            # widget's value differs from the room's when it is set, and the change goes to the browser.
            self._schedule(self._refresh_now)
            return None
        if error is not None:
            self._schedule(self._refresh_now)
            raise error
        # accepted: the room's change redraws every page, this one included
        self._clear_error()
        if then is not None:
            then(result)
        return result

    def _show_unknown(self, exc, settle=None) -> None:
        """"Not known yet: checking", in place, until the room's log says whether the command was saved.

        ``settle`` asks the log (``Room.settle``); the adapter's room's when None.
        """
        self._error.param.update(object=md_esc(self._explain(exc)), alert_type="warning", visible=True)
        shown = self._error.object
        (settle or self.actions.settle)(exc, lambda saved: self._schedule(self._show_settled, saved, shown))

    def _settled_key(self, saved) -> tuple[str, str]:
        """The catalog key and the alert kind that say what came of a command not known at first."""
        return {True: ("outcome.saved", "success"), False: ("outcome.not_saved", "danger")}.get(
            saved, ("outcome.still_unknown", "warning"))

    def _show_settled(self, saved, asked: str) -> None:
        if self._error.object != asked:  # something newer is shown there already
            return
        key, kind = self._settled_key(saved)
        self._error.param.update(object=md_esc(self._t(key)), alert_type=kind, visible=True)

    def _show_error(self, exc) -> None:
        """Show a refusal in place, in this component's language."""
        message = self._explain(exc)
        self._error.param.update(object=f"**{md_esc(self._t('error.refused'))}** {md_esc(message)}",
                                 alert_type="danger", visible=True)

    def _clear_error(self) -> None:
        if "_error_pane" in self.__dict__ and self._error.visible:
            self._error.param.update(object="", visible=False)


def team_pool_text(team, t, *, revenge: bool | None = None, sixes: bool = False) -> str:
    """How a team's pool is made up, e.g. "Knight 4 + Viking + Squire = 6 dice" (not escaped).

    ``t`` is the component's translate function; ``revenge`` overrides the team's own flag (for a
    team about to form that inherits a revenge bonus); ``sixes`` describes the "members roll,
    sixes count" option instead.
    """
    revenge = team.revenge if revenge is None else revenge
    dice = team.cliche_of(team.leader).pool
    lead = f"{team.leader.name} {dice}"
    if revenge:
        lead = f"2×({lead})"
    helpers = [m.name for m in team.helpers]
    leader_dice = dice * 2 if revenge else dice
    if sixes:
        if not helpers:
            return t("team.pool", parts=lead, n=leader_dice)
        return t("team.pool_sixes", lead=lead, n=leader_dice, helpers=", ".join(helpers))
    return t("team.pool", parts=" + ".join([lead, *helpers]), n=leader_dice + len(helpers))
