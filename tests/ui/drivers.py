"""Drivers for the components' tests: what a person sees of a component, and what they click.

A :class:`Screen` finds controls the way a person does -- by their role (button, select, checkbox,
text box, choices) and the label they show in the page's language -- and reads what is shown: the
visible text, whether a control can be pressed, the reason given for a greyed one, a refusal. It
reads only Panel's public API (a widget's ``name``/``value``/``options``/``disabled``/``visible``, a
pane's ``object``, a layout's ``objects``, an element's ``css_classes``, a :class:`Button`'s
``title``), never a component's private attributes, so a component's inside can change without its
tests changing with it.
"""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import panel as pn
from panel.layout.base import ListLike

from raisus_panel import i18n

#: What a person calls a control, and the Panel widgets that are one.
ROLES = {
    "button": (pn.widgets.Button,),
    "select": (pn.widgets.Select,),
    "checkbox": (pn.widgets.Checkbox,),  # and the LabelledCheckbox, told by its shape (see _role)
    "choices": (pn.widgets.CheckBoxGroup,),
    "text": (pn.widgets.TextInput, pn.widgets.TextAreaInput),
    "number": (pn.widgets.IntInput, pn.widgets.FloatInput),
    "toggle": (pn.widgets.RadioButtonGroup,),  # a row of buttons, one pressed: its options are its labels
    "download": (pn.widgets.FileDownload,),
    "file": (pn.widgets.FileInput,),
}


def _role(obj) -> str | None:
    for role, classes in ROLES.items():
        if isinstance(obj, classes):
            return role
    # ui/_checkbox.py's LabelledCheckbox is a JSComponent: a boolean value and a label it shows
    if type(obj).__name__ == "LabelledCheckbox":
        return "checkbox"
    return None


def _label(obj) -> str:
    """The label a control shows (a download button's is its ``label``, not its ``name``)."""
    if isinstance(obj, pn.widgets.FileDownload):
        return obj.label or ""
    return getattr(obj, "name", "") or ""


def _plain(markup) -> str:
    """The words a pane's HTML or Markdown shows."""
    text = re.sub(r"<[^>]+>", " ", str(markup or ""))
    text = re.sub(r"\\([^\w\s])", r"\1", text)  # Markdown's escapes (md_esc)
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def _children(obj):
    if isinstance(obj, pn.viewable.Viewer):
        obj = obj.__panel__()
    return obj, list(getattr(obj, "objects", None) or [])


def walk(obj, *, hidden: bool = False):
    """Every Panel object in a view, in page order; without ``hidden``, only what is shown (an object
    whose own ``visible`` is False hides everything inside it)."""
    obj, children = _children(obj)
    if not hidden and getattr(obj, "visible", True) is False:
        return
    if not hidden and isinstance(obj, pn.Tabs) and children:
        children = [children[min(obj.active, len(children) - 1)]]  # only the open tab is shown
    yield obj
    for child in children:
        yield from walk(child, hidden=hidden)


def shown_text(obj) -> str:
    """The words one pane or widget shows (a pane's text, a widget's label)."""
    if isinstance(obj, pn.pane.Alert) or isinstance(obj, (pn.pane.HTML, pn.pane.Markdown)):
        return _plain(obj.object)
    if isinstance(obj, pn.widgets.Widget) or _role(obj):
        return _label(obj)
    return ""


class ServedDoc:
    """Stands in for a served session's Bokeh document: what a browser tab is to the server. A component
    made on it (``set_curdoc``) redraws in its batches, on its next tick (:meth:`run`), as served."""

    session_context = SimpleNamespace(id="fake-session",
                                      request=SimpleNamespace(arguments={}, cookies={}, headers={}))

    def __init__(self):
        self.next_tick: list = []
        self.destroyed: list = []

    def add_next_tick_callback(self, cb):
        self.next_tick.append(cb)

    def on_session_destroyed(self, cb):
        self.destroyed.append(cb)

    def tick(self) -> None:
        """Run the next-tick callbacks pending now, not those they add (they wait for the next tick):
        what happens between two ticks, a click or another page's change, can then come in between."""
        pending, self.next_tick = self.next_tick, []
        for cb in pending:
            cb()

    def run(self) -> None:
        """Run the pending next-tick callbacks, as the server would (and those they add)."""
        while self.next_tick:
            self.next_tick.pop(0)()


def tab_titles(tabs: pn.Tabs) -> list[str]:
    """The titles of a ``pn.Tabs``' tabs, in order (Panel 1.9 keeps them only in ``_names``: it has no
    public accessor for them, and a tab's object does not carry its title)."""
    return list(tabs._names)


def send_from_page(component, data) -> None:
    """What a browser's ``model.send_msg(data)`` does to a ``JSComponent`` on the server: Bokeh hands
    Panel a ``DataEvent``, which calls every handler the component registered with ``on_msg``
    (Panel's ``_process_event`` is the one entry point; there is no public one to call)."""
    from panel.models.esm import DataEvent

    component._process_event(DataEvent(model=None, data=data))


def click(button) -> None:
    """Press a Panel button the way a browser does (its ``clicks`` go up by one)."""
    button.clicks += 1


class Screen:
    """What a person sees of a component (or of any part of its view), in its language.

    Parameters
    ----------
    root
        A component (a ``pn.viewable.Viewer``) or a Panel object.
    lang
        The language the labels are looked up in: the component's own (``language``) when omitted.
    """

    def __init__(self, root, lang: str | None = None):
        self.root = root
        self._lang = lang

    # -- language ---------------------------------------------------------------------------------
    @property
    def lang(self) -> str:
        return self._lang or getattr(self.root, "language", None) or i18n.settings.lang

    def t(self, key: str, **fmt) -> str:
        """A catalog text in this screen's language: the label a person reads."""
        return i18n.t(key, self.lang, **fmt)

    # -- reading ----------------------------------------------------------------------------------
    def objects(self, *, hidden: bool = False):
        return list(walk(self.root, hidden=hidden))

    def texts(self) -> list[str]:
        """Every text shown, in page order: panes' words, controls' labels."""
        return [s for s in (shown_text(o) for o in self.objects()) if s]

    def text(self) -> str:
        """All the words shown, as one string."""
        return " ".join(self.texts())

    def html(self) -> str:
        """The markup of every shown HTML/Markdown pane, joined (for what only markup tells: a class)."""
        return "".join(str(o.object or "") for o in self.objects()
                       if isinstance(o, (pn.pane.HTML, pn.pane.Markdown)))

    def shows(self, words: str) -> bool:
        return words in self.text()

    def _alert(self, kind: str) -> str | None:
        for obj in self.objects():
            if isinstance(obj, pn.pane.Alert) and obj.alert_type == kind and obj.object:
                return _plain(obj.object)
        return None

    @property
    def error_pane(self):
        """The red alert shown (for what only its markup tells: escaping), or None."""
        return next((o for o in self.objects() if isinstance(o, pn.pane.Alert) and o.alert_type == "danger"
                     and o.object), None)

    @property
    def error(self) -> str | None:
        """The refusal shown (a red alert's words), or None."""
        return self._alert("danger")

    @property
    def success(self) -> str | None:
        """The success message shown (a green alert's words), or None."""
        return self._alert("success")

    # -- finding controls -------------------------------------------------------------------------
    def controls(self, role: str | None = None, label: str | None = None, *, hidden: bool = False) -> list:
        """The controls shown of ``role`` whose label is ``label`` (exactly; else those containing it)."""
        found = [o for o in self.objects(hidden=hidden) if _role(o) and (role is None or _role(o) == role)]
        if label is None:
            return found
        exact = [o for o in found if _label(o) == label]
        return exact or [o for o in found if label in _label(o)]

    def control(self, role: str, label: str, *, hidden: bool = False):
        """The one control shown of ``role`` labelled ``label``; fails naming what is shown instead.

        ``hidden=True`` finds it also where it is not shown (for what a page keeps ready behind a
        hidden part: a test that checks it is up to date before it shows)."""
        found = self.controls(role, label, hidden=hidden)
        if len(found) != 1:
            shown = [_label(o) for o in self.controls(role)]
            raise AssertionError(f"{len(found)} {role}(s) labelled {label!r} shown; the {role}s shown: {shown}")
        return found[0]

    def pattern(self, key: str) -> re.Pattern:
        """What a label made from catalog ``key`` looks like, whatever fills its ``{fields}``."""
        parts = re.split(r"\{[^{}]*\}", i18n.catalog(self.lang)[key])
        return re.compile("^" + ".+?".join(re.escape(p) for p in parts) + "$")

    def keyed(self, role: str, *keys: str, hidden: bool = False):
        """The one control of ``role`` whose label was made from one of the catalog ``keys`` (a label
        with a number in it: "Roll round 3"), or None when none is shown."""
        patterns = [self.pattern(k) for k in keys]
        found = [o for o in self.controls(role, hidden=hidden) if any(p.match(o.name or "") for p in patterns)]
        assert len(found) <= 1, f"{len(found)} {role}s labelled like {keys}: {[o.name for o in found]}"
        return found[0] if found else None

    def has(self, role: str, label: str) -> bool:
        """Whether a control of ``role`` labelled ``label`` is shown."""
        return bool(self.controls(role, label))

    def button(self, label: str, *, hidden: bool = False):
        return self.control("button", label, hidden=hidden)

    def buttons(self, label: str | None = None) -> list:
        return self.controls("button", label)

    def select(self, label: str):
        return self.control("select", label)

    def checkbox(self, label: str):
        return self.control("checkbox", label)

    def choices(self, label: str):
        return self.control("choices", label)

    def textbox(self, label: str):
        return self.control("text", label)

    def can_press(self, label: str) -> bool:
        """Whether the button labelled ``label`` is shown and not greyed (False when it is not shown)."""
        shown = self.controls("button", label)
        return len(shown) == 1 and not shown[0].disabled

    def reason(self, label: str, *, hidden: bool = False) -> str | None:
        """The title of the button labelled ``label``: why it is greyed, or what it does."""
        return getattr(self.button(label, hidden=hidden), "title", None)

    def why(self, label: str, *, hidden: bool = False) -> str | None:
        """Why the button labelled ``label`` is greyed, as the page says it under the button (its
        ``why``, drawn there in the browser), or None while it can be pressed."""
        return getattr(self.button(label, hidden=hidden), "why", None) or None

    # -- acting -----------------------------------------------------------------------------------
    def click(self, label: str) -> None:
        """Press the button labelled ``label`` (a browser would not send a greyed one's click; the
        rooms refuse it all the same, which is what tests pressing one anyway check)."""
        click(self.button(label))

    def choose(self, label: str, option: str, role: str = "select") -> None:
        """Pick ``option`` (its shown text) in the select (or toggle) labelled ``label``."""
        select = self.control(role, label)
        options = select.options
        shown = [str(o) for o in options]
        picked = [o for o in shown if o == option] or [o for o in shown if option in o]
        assert len(picked) == 1, f"{option!r} is not one option of {label!r}: {shown}"
        select.value = options[picked[0]] if isinstance(options, dict) else picked[0]

    def toggle(self, option: str, role: str = "toggle"):
        """The one toggle (a row of buttons, which shows no name) offering ``option``, and that option's
        full text (``option`` itself, else the one option containing it)."""
        found = []
        for widget in self.controls(role):
            shown = [str(k) for k in widget.options]
            texts = [o for o in shown if o == option] or [o for o in shown if option in o]
            if len(texts) == 1:
                found.append((widget, texts[0]))
        assert len(found) == 1, f"{len(found)} {role}s offer {option!r}"
        return found[0]

    def pick(self, option: str, role: str = "toggle") -> None:
        """Press ``option`` in the toggle that offers it."""
        widget, text = self.toggle(option, role)
        options = widget.options
        widget.value = options[text] if isinstance(options, dict) else text

    def picked(self, option: str, role: str = "toggle") -> str:
        """The text of the button pressed in the toggle that offers ``option``."""
        widget, _ = self.toggle(option, role)
        options = widget.options
        if isinstance(options, dict):
            return next(str(k) for k, v in options.items() if v == widget.value)
        return str(widget.value)

    def options(self, label: str, role: str = "select") -> list[str]:
        """The options shown in the select (or choices) labelled ``label``."""
        options = self.control(role, label).options
        return list(options)

    def chosen(self, label: str, role: str = "select", *, hidden: bool = False) -> str | list[str] | None:
        """The shown text of what is picked in the select (or ticked in the choices) labelled ``label``
        (``hidden=True``: also where it is not shown, see :meth:`control`)."""
        widget = self.control(role, label, hidden=hidden)
        options = widget.options
        names = {v: k for k, v in options.items()} if isinstance(options, dict) else {v: v for v in options}
        if role == "choices":
            return [names.get(v, v) for v in widget.value]
        return names.get(widget.value, None if widget.value in (None, "") else widget.value)

    def tick(self, label: str, on: bool = True, *, role: str = "checkbox", option: str | None = None) -> None:
        """Tick (or untick) the checkbox labelled ``label``; in a list of choices, its ``option``."""
        if option is None:
            self.checkbox(label).value = on
            return
        group = self.choices(label)
        options = group.options
        assert option in options, f"{option!r} is not one of {label!r}: {list(options)}"
        value = options[option] if isinstance(options, dict) else option
        rest = [v for v in group.value if v != value]
        group.value = [*rest, value] if on else rest

    def type(self, label: str, text: str) -> None:
        """Type ``text`` into the text box labelled ``label``, then leave it (as a click elsewhere does):
        a browser sends what is typed as ``value_input`` while typing, and as ``value`` on leaving."""
        box = self.textbox(label)
        if "value_input" in box.param:
            box.value_input = text
        box.value = text

    @property
    def title(self) -> str | None:
        """The title of the first card (``pn.Card``) shown: what its header says."""
        return next((o.title for o in self.objects() if isinstance(o, pn.Card)), None)

    def first(self, cls):
        """The first object of ``cls`` in the view, shown or not (a part with no look of its own, say)."""
        return next((o for o in self.objects(hidden=True) if isinstance(o, cls)), None)

    def part(self, css_class: str, *, hidden: bool = False):
        """The first part marked ``css_class`` (shown, or with ``hidden`` also one not shown), or None."""
        return next((o for o in self.objects(hidden=hidden) if css_class in (getattr(o, "css_classes", None) or [])),
                    None)

    def marked(self, css_class: str) -> str | None:
        """The words of the shown part marked ``css_class`` (a note, a status line), or None when none is shown."""
        for obj in self.objects():
            if css_class in (getattr(obj, "css_classes", None) or []):
                return Screen(obj, self.lang).text()
        return None

    # -- tabs -------------------------------------------------------------------------------------
    def _tabs(self) -> pn.Tabs:
        tabs = self.first(pn.Tabs)
        assert tabs is not None, "no tabs are shown"
        return tabs

    def tabs(self) -> list[str]:
        """The titles of the tabs shown, in order."""
        return tab_titles(self._tabs())

    @property
    def shown_tab(self) -> str:
        """The title of the tab that is open."""
        tabs = self._tabs()
        return tab_titles(tabs)[tabs.active]

    def open_tab(self, title: str) -> None:
        """Open the tab titled ``title`` (a click on its header sets the tabs' ``active``)."""
        tabs = self._tabs()
        titles = tab_titles(tabs)
        assert title in titles, f"no tab titled {title!r}: the tabs are {titles}"
        tabs.active = titles.index(title)

    def tab(self, title: str) -> Screen:
        """What the tab titled ``title`` holds, open or not (a closed tab's part is not shown: read it
        with ``hidden=True``)."""
        tabs = self._tabs()
        titles = tab_titles(tabs)
        assert title in titles, f"no tab titled {title!r}: the tabs are {titles}"
        return Screen(tabs.objects[titles.index(title)], self.lang)

    # -- parts of the page ------------------------------------------------------------------------
    def cards(self) -> list[Screen]:
        """Each unit's card shown (``raisus-unit-card``), as a screen of its own."""
        return [Screen(o, self.lang) for o in self.objects()
                if "raisus-unit-card" in (getattr(o, "css_classes", None) or [])]

    def card(self, name: str) -> Screen:
        """The one card whose first line names ``name``."""
        found = [c for c in self.cards() if name in (c.texts() or [""])[0]]
        assert len(found) == 1, f"{len(found)} cards headed {name!r}: {[c.texts()[:1] for c in self.cards()]}"
        return found[0]

    def has_card(self, name: str) -> bool:
        return any(name in (c.texts() or [""])[0] for c in self.cards())

    def within(self, words: str) -> Screen:
        """The smallest part of the page that shows ``words`` and holds a control: a row, a form, a section."""
        best = None
        for obj in self.objects():
            if not isinstance(obj, ListLike):
                continue
            part = Screen(obj, self.lang)
            if words in part.text() and part.controls():
                best = part  # page order: a later match lies inside an earlier one, or after it
        assert best is not None, f"nothing shown holds {words!r} and a control"
        return best

    @property
    def what_now(self) -> str | None:
        """The "what now" line shown at the top of a table or view (``raisus-what-now``), or None."""
        for obj in self.objects():
            if isinstance(obj, pn.pane.HTML) and "raisus-what-now" in str(obj.object or ""):
                return _plain(obj.object)
        return None

    def what_now_html(self) -> str | None:
        """The markup of the "what now" line (its mark, ▶ or ▷, and whether it is the person's own turn)."""
        for obj in self.objects():
            if isinstance(obj, pn.pane.HTML) and "raisus-what-now" in str(obj.object or ""):
                return str(obj.object)
        return None

    # -- "are you sure?" --------------------------------------------------------------------------
    def _confirm_box(self):
        boxes = [o for o in self.objects() if "raisus-confirm" in (getattr(o, "css_classes", None) or [])]
        return boxes[0] if boxes else None

    @property
    def question(self) -> str | None:
        """The "Are you sure?" question shown, or None."""
        box = self._confirm_box()
        return None if box is None else Screen(box, self.lang).texts()[0]

    @property
    def answers(self) -> tuple[str, str] | None:
        """The labels of the shown question's Yes and Cancel buttons, or None."""
        box = self._confirm_box()
        if box is None:
            return None
        names = {c: [o.name for o in walk(box) if c in (getattr(o, "css_classes", None) or [])]
                 for c in ("raisus-confirm-yes", "raisus-confirm-cancel")}
        return names["raisus-confirm-yes"][0], names["raisus-confirm-cancel"][0]

    def confirm(self) -> None:
        """Answer Yes to the question shown."""
        box = self._confirm_box()
        assert box is not None, "the question was not asked"
        yes = [o for o in walk(box) if "raisus-confirm-yes" in (getattr(o, "css_classes", None) or [])]
        click(yes[0])

    def cancel(self) -> None:
        """Answer Cancel to the question shown."""
        box = self._confirm_box()
        assert box is not None, "the question was not asked"
        no = [o for o in walk(box) if "raisus-confirm-cancel" in (getattr(o, "css_classes", None) or [])]
        click(no[0])


class Sheet(Screen):
    """A character sheet as a person sees it: a form with one row of boxes per cliché."""

    def cliche(self, i: int, field: str = "name", *, hidden: bool = False):
        """Row ``i``'s box: its cliché's ``name``, ``rating`` or ``current`` dice, or its ``remove`` button
        (with ``hidden``: also while the rows are not shown, as on a sheet whose dice are the GM's)."""
        role, key = {"name": ("text", "sheet.cliche"), "rating": ("number", "sheet.rating"),
                     "current": ("number", "sheet.current"), "remove": ("button", "sheet.remove")}[field]
        return self.controls(role, self.t(key), hidden=hidden)[i]

    @property
    def rows(self) -> int:
        return len(self.controls("text", self.t("sheet.cliche")))

    @property
    def save_button(self):
        return self.button(self.t("sheet.save"))

    def name(self, text: str | None = None) -> str:
        if text is not None:
            self.type(self.t("sheet.name"), text)
        return self.textbox(self.t("sheet.name")).value


def chart_plot(chart):
    """A chart's plot pane as laid out (the one pane a picture is; before the key in a figure's view)."""
    view = chart.__panel__()
    return view if not isinstance(view, ListLike) else view.objects[-2]


def chart_key(chart):
    """The key under a chart's plot, as laid out last in its view."""
    return chart.__panel__().objects[-1]


def roll_button(screen: Screen):
    """A contest table's roll button, whichever way it reads ("Roll round n", or "No volunteer: roll
    round n" while a lost team's members may volunteer); None when it is not shown."""
    return screen.keyed("button", "contest.roll", "contest.roll_no_volunteer")


def confirm(step) -> None:
    """Answer Yes to an open "Are you sure?" step (``ui/_confirm.py``), as a browser click does."""
    assert step.opened, "the question was not asked"
    Screen(step).confirm()
