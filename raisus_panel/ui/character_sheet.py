"""CharacterSheet: create or edit a character or a grunt mob, with import and export as JSON."""

from __future__ import annotations

import io
import json
import re

import panel as pn
import param

from raisus_panel.room.permissions import has_been_in_contest
from raisus_panel.rules import MAX_MOB_RATING, MAX_RATING, Character, GruntMob, RuleError, creation_budget
from raisus_panel.rules.campaign import LUCKY_SHOTS_PER_DIE
from raisus_panel.rules.character import MAX_LUCKY_SHOTS, new_uid

from ._base import (
    DISABLED_CSS,
    HTML,
    Button,
    ComponentBase,
    TextAreaInput,
    TextInput,
    esc,
    grey,
    set_objects,
    style,
    wrap,
)
from ._checkbox import LabelledCheckbox


class CharacterSheet(ComponentBase):
    """A form for one character or grunt mob: name, description and clichés (rating and current).

    The form edits a draft; every change is checked by the rules at once and any problem is shown in
    place. A player editing a character that has been in a contest may change its name and
    description only: its clichés and dice are the GM's (the room refuses anything else), so those
    fields are shown locked, with a note saying why. **Save** sends the draft as a ``save_character`` command through ``actions`` (a new uid
    adds a character to the table, a known one updates it) and ``character`` then holds the saved
    character. **Export** downloads the draft as JSON; **Import** loads a JSON file into the form.

    The table's campaign options (``actions.room.profile``, RULES.md section 11) add fields only when
    they are on: under a creation budget, a line saying what the draft costs as it is typed, the hook
    and the tale, and for the GM what is accepted of them (and a character over the budget); with
    lucky shots, how many are bought (and left); with pumps or a budget, a double-pump box per cliché.
    They are saved like any field, so the room refuses what the rules do, with its message.

    Parameters
    ----------
    character
        The character to edit, or None for a new one.
    actions
        The adapter ``save_character`` goes through.

    Examples
    --------
    >>> sheet = CharacterSheet(character=Character("Olaf", {"Viking": 4}))
    >>> sheet.draft()["cliches"][0]["rating"]
    4
    """

    character = param.ClassSelector(class_=Character, default=None, allow_None=True, doc="""
        The character being edited (None for a new one); after Save, the saved character.""")

    def __init__(self, character: Character | None = None, **params):
        self._uid = character.uid if character is not None else new_uid()
        self._loading = False
        self._dirty = False
        self._typed = False  # the user changed a field, not only the kind: refusals wait for that
        self._valid = True
        super().__init__(character=character, **params)
        self._load(character)
        self._keep_form = False  # set while the form already shows what ``character`` becomes
        self.param.watch(lambda e: None if self._keep_form else self._load(e.new), "character")

    # -- widgets ----------------------------------------------------------------------------------
    def _build(self) -> None:
        self._kind = pn.widgets.RadioButtonGroup(options=["character", "grunt_mob"], value="character",
                                                 **style("primary", outline=True))
        self._name = pn.widgets.TextInput(sizing_mode="stretch_width")
        self._description = pn.widgets.TextAreaInput(sizing_mode="stretch_width", height=80)
        self._member_rating = pn.widgets.RadioButtonGroup(options=[0, 1], value=1, stylesheets=[DISABLED_CSS])
        self._count = pn.widgets.IntInput(value=None, start=1, width=140)
        # a RadioButtonGroup does not show its name: the 0/1 toggle gets a label above it
        self._member_rating_label = HTML(margin=(5, 10, 0, 10), css_classes=["raisus-member-rating-label"])
        self._mob_box = pn.Row(pn.Column(self._member_rating_label, self._member_rating), self._count,
                               visible=False)
        self._rows: list[dict] = []
        self._rows_box = pn.Column(sizing_mode="stretch_width")
        self._add = Button(**style(outline=True))
        self._add.on_click(lambda e: self._add_row())
        self._save = Button(**style("primary"))
        self._save.on_click(lambda e: self.save())
        self._new = Button(**style(outline=True))
        self._new.on_click(lambda e: self.new())
        self._revert = Button(**style(outline=True))
        self._revert.on_click(lambda e: self._load(self.character))
        self._import = pn.widgets.FileInput(accept=".json,application/json", multiple=False)
        self._import.param.watch(self._on_import, "value")
        self._import_label = HTML(margin=(5, 10, 0, 10))
        self._export = pn.widgets.FileDownload(callback=self._export_json, filename="character.json",
                                               **style(outline=True), embed=False)
        self._title = HTML(margin=(0, 10))
        self._locked_note = HTML(margin=(0, 10), visible=False, css_classes=["raisus-sheet-locked"])
        # the campaign options' fields (RULES.md section 11): hidden while the table's rules leave them off
        self._hook = TextInput(sizing_mode="stretch_width", visible=False)
        self._tale = TextAreaInput(sizing_mode="stretch_width", height=80, visible=False)
        self._hook_help = HTML(margin=(0, 10), visible=False)
        self._lucky = pn.widgets.IntInput(value=0, start=0, end=MAX_LUCKY_SHOTS, width=200)
        self._lucky_left = pn.widgets.IntInput(value=0, start=0, end=MAX_LUCKY_SHOTS, width=200, visible=False)
        self._lucky_box = wrap(self._lucky, self._lucky_left, align_items="start", visible=False)
        self._lucky_note = HTML(margin=(0, 10), visible=False, css_classes=["raisus-sheet-lucky"])
        self._budget_line = HTML(margin=(0, 10), visible=False, css_classes=["raisus-sheet-budget"])
        self._accept_hook = LabelledCheckbox()
        self._accept_tale = LabelledCheckbox()
        self._accept_over = LabelledCheckbox()
        self._accept_box = wrap(self._accept_hook, self._accept_tale, self._accept_over, align_items="start",
                                visible=False)
        self._mob_labels = HTML(margin=(0, 10))
        for w in (self._kind, self._name, self._description, self._member_rating, self._count, self._hook,
                  self._tale, self._lucky, self._lucky_left, self._accept_hook, self._accept_tale, self._accept_over):
            w.param.watch(self._on_edit, "value")
        self._kind.param.watch(lambda e: self._kind_changed(), "value")
        self._layout = pn.Column(
            self._title, self._kind, self._name, self._description, self._hook, self._tale, self._hook_help,
            self._locked_note,
            self._mob_labels, self._mob_box,
            self._rows_box, self._add, self._lucky_box, self._lucky_note, self._budget_line, self._accept_box,
            self._error, self._info,
            # wrap: on a phone what does not fit goes below (Save's reason under it widens it)
            wrap(self._save, self._revert, self._new, self._export, align_items="start"),
            wrap(self._import_label, self._import, align_items="start"),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout

    def _relabel(self) -> None:
        t = self._t
        self._title.object = f"<h3>{t('sheet.title')}</h3>"
        self._kind.options = {t("kind.character"): "character", t("kind.grunt_mob"): "grunt_mob"}
        self._name.param.update(name=t("sheet.name"), placeholder=t("sheet.name_placeholder"))
        self._description.param.update(name=t("sheet.description"))
        self._member_rating.name = t("sheet.member_rating")
        self._member_rating_label.object = f"<label>{esc(t('sheet.member_rating'))}</label>"
        self._count.name = t("sheet.count")
        self._mob_labels.object = f"<small>{t('sheet.mob_help')}</small>"
        self._add.name = t("sheet.add_cliche")
        self._save.name = t("sheet.save")
        self._new.name = t("sheet.new")
        self._revert.name = t("sheet.revert")
        self._export.label = t("sheet.export")
        self._import_label.object = t("sheet.import")
        self._hook.param.update(name=t("sheet.hook"), placeholder=t("sheet.hook_placeholder"))
        self._tale.param.update(name=t("sheet.tale"), placeholder=t("sheet.tale_placeholder"))
        self._lucky.name = t("sheet.lucky_shots", per=LUCKY_SHOTS_PER_DIE)
        self._lucky_left.name = t("sheet.lucky_left")
        self._hook_help.object = f"<small>{esc(t('sheet.hook_tale_help'))}</small>"
        self._accept_hook.name = t("sheet.accept_hook")
        self._accept_tale.name = t("sheet.accept_tale")
        self._accept_over.name = t("sheet.accept_over_budget")
        for row in self._rows:
            self._relabel_row(row)
        self._lock_dice()
        self._show_campaign()

    def _relabel_row(self, row: dict) -> None:
        t = self._t
        row["name"].param.update(name=t("sheet.cliche"), placeholder=t("sheet.cliche_placeholder"))
        row["rating"].name = t("sheet.rating")
        row["current"].name = t("sheet.current")
        row["remove"].name = t("sheet.remove")
        row["double"].name = t("sheet.double_pump")

    def _add_row(self, name: str = "", rating: int = 1, current: int | None = None, double: bool = False) -> None:
        high = MAX_MOB_RATING if self._kind.value == "grunt_mob" else MAX_RATING
        row = {
            "name": pn.widgets.TextInput(value=name, sizing_mode="stretch_width"),
            "rating": pn.widgets.IntInput(value=rating, start=0, end=high, width=90),
            "current": pn.widgets.IntInput(value=rating if current is None else current, start=0, end=high,
                                           width=90),
            "remove": Button(**style(outline=True), width=70, align="end"),
            # below the boxes, not beside them: a phone's row has no room for one more
            "double": LabelledCheckbox(value=double, visible=self._pumps_shown()),
        }
        row["view"] = pn.Row(row["name"], row["rating"], row["current"], row["remove"], sizing_mode="stretch_width")
        row["remove"].on_click(lambda e, r=row: self._remove_row(r))
        row["rating"].param.watch(lambda e, r=row: self._rating_changed(r, e), "value")
        for key in ("name", "rating", "current", "double"):
            row[key].param.watch(self._on_edit, "value")
        self._relabel_row(row)
        self._rows.append(row)
        self._sync_rows()

    def _dice_locked(self) -> bool:
        """Whether this person may not change the clichés and dice here (a player, a character of a past contest)."""
        actions = self.actions
        return (self.character is not None and actions.role != "gm"
                and has_been_in_contest(actions.room.past_contests, self.character.uid))

    def _lock_dice(self) -> None:
        """Lock the kind, the clichés and the dice of a character whose dice are the GM's, and say why.

        Locked, they are not shown greyed (a dozen fields each needing the same reason under it): the
        note says why once, with the clichés and dice in words.
        """
        locked = self._dice_locked()
        for row in self._rows:
            for key in ("name", "rating", "current", "remove", "double"):
                row[key].disabled = locked
        for widget in (self._kind, self._member_rating, self._count):
            widget.disabled = locked
        if locked:
            self._add.disabled = True
        else:
            self._add.disabled = self._kind.value == "grunt_mob" and len(self._rows) >= 1
        for widget in (self._kind, self._rows_box, self._add):
            widget.visible = not locked
        self._mob_box.visible = self._kind.value == "grunt_mob" and not locked
        note = ""
        if locked:
            dice = " ".join(self._t("sheet.cliche_dice", name=r["name"].value or "", current=r["current"].value,
                                     rating=r["rating"].value) for r in self._rows)
            note = self._t("sheet.dice_locked", name=self.character.name) + (f" {dice}" if dice else "")
        self._locked_note.param.update(object=f"<small>{esc(note)}</small>" if locked else "", visible=locked)

    # -- the campaign options -------------------------------------------------------------------
    def _profile(self):
        """The table's rules (the room's ``profile``)."""
        return self.actions.room.profile

    def _budget_on(self) -> bool:
        return self._profile().creation_dice is not None and self._kind.value == "character"

    def _lucky_on(self) -> bool:
        return bool(self._profile().lucky_shots) and self._kind.value == "character"

    def _pumps_shown(self) -> bool:
        """Whether the clichés' double-pump boxes are shown: with pumps, or a budget (it costs double)."""
        profile = self._profile()
        return bool(profile.pumps) or (profile.creation_dice is not None and self._kind.value == "character")

    def _gm(self) -> bool:
        return self.actions.role == "gm"

    def _accepted(self) -> list[str]:
        """What the GM accepted of this character: the GM's boxes, or for anyone else the room's."""
        if self._gm():
            boxes = (("hook", self._accept_hook), ("tale", self._accept_tale), ("over_budget", self._accept_over))
            return [key for key, box in boxes if box.value]
        saved = self.actions.character(self._uid)
        return list(saved.accepted) if saved is not None else []

    def _show_campaign(self) -> None:
        """Show the fields of the options the table's rules turn on (only those), and the budget line."""
        budget, lucky, gm = self._budget_on(), self._lucky_on(), self._gm()
        locked = self._dice_locked()
        self._hook.visible = self._tale.visible = self._hook_help.visible = budget
        self._accept_box.visible = budget and gm
        accepted = self._accepted() if self.character is not None else []
        for key, field in (("hook", self._hook), ("tale", self._tale)):  # the GM accepted it as it is
            grey(field, self._t("sheet.accepted_text") if key in accepted and not gm else None)
        self._lucky_box.visible = lucky and not locked
        self._lucky_left.visible = lucky and gm and self.character is not None
        for row in self._rows:
            row["double"].visible = self._pumps_shown()
        saved = self.actions.character(self._uid) if self.character is not None else None
        note = ""
        if lucky and saved is not None and not gm:
            note = self._t("sheet.lucky_left_words", name=saved.name, left=saved.lucky_left, bought=saved.lucky_shots)
        self._lucky_note.param.update(object=f"<small>{esc(note)}</small>" if note else "", visible=bool(note))
        line = self._budget_text() if budget else ""
        self._budget_line.param.update(object=line, visible=bool(line))

    def _budget_text(self) -> str:
        """The budget line: what the draft costs against the creation budget, in words (HTML)."""
        owner = self.character.owner if self.character is not None else ""
        if not (owner or self.actions.role == "player"):
            return ""  # the GM's NPCs have no budget
        data = self.draft()
        # counted as it is typed: a name not written yet does not stop the count
        data["name"] = data["name"] or "?"
        for i, cliche in enumerate(data["cliches"]):
            cliche["name"] = cliche["name"] or f"#{i + 1}"
        try:
            char = Character.from_dict({**data, "accepted": self._accepted()})
        except RuleError:
            return self._budget_line.object or ""  # the form's own error says what is wrong: keep the last line
        profile = self._profile()
        budget = creation_budget(char, profile)
        if budget is None:
            return ""
        t = self._t
        if budget.left >= 0:
            parts = [t("sheet.budget", spent=budget.spent, allowed=budget.allowed, left=budget.left)]
        else:
            parts = [t("sheet.budget_over", spent=budget.spent, allowed=budget.allowed, over=-budget.left)]
        if budget.over_max:
            parts.append(t("sheet.budget_over_max", cliches=", ".join(budget.over_max), most=profile.creation_max))
        bonus = [t(f"term.{a}") for a in ("hook", "tale") if a in char.accepted and getattr(char, a)]
        if bonus:
            parts.append(t("sheet.budget_accepted", what=", ".join(bonus)))
        if not budget.fits and "over_budget" in char.accepted:
            parts.append(t("sheet.budget_accepted_over"))
        words = esc(" ".join(parts))
        if budget.fits or "over_budget" in char.accepted:
            return f'<span class="raisus-budget-ok">{words}</span>'
        return f'<strong class="raisus-budget-over">{words}</strong>'  # Save is refused: said louder

    def _rating_changed(self, row: dict, event) -> None:
        # a fresh cliché is at full strength: raising the rating raises an untouched current with it
        if not self._loading and row["current"].value == event.old:
            row["current"].value = event.new

    def _remove_row(self, row: dict) -> None:
        self._rows.remove(row)
        self._sync_rows()
        self._on_edit()

    def _sync_rows(self) -> None:
        set_objects(self._rows_box, [part for r in self._rows for part in (r["view"], r["double"])])
        self._add.disabled = self._kind.value == "grunt_mob" and len(self._rows) >= 1

    def _kind_changed(self) -> None:
        mob = self._kind.value == "grunt_mob"
        self._mob_box.visible = mob
        self._mob_labels.visible = mob
        high = MAX_MOB_RATING if mob else MAX_RATING
        for row in self._rows:
            row["rating"].end = high
            row["current"].end = high
        if mob and not self._rows:
            self._add_row()
        self._sync_rows()

    # -- the draft --------------------------------------------------------------------------------
    def draft(self) -> dict:
        """The form as ``Character.to_dict()`` data (not yet checked)."""
        data = {"kind": self._kind.value, "uid": self._uid, "name": self._name.value or "",
                "description": self._description.value or "",
                "owner": self.character.owner if self.character is not None else "",
                "cliches": [{"name": r["name"].value or "", "rating": r["rating"].value,
                             "current": r["current"].value, **({"double_pump": True} if r["double"].value else {})}
                            for r in self._rows]}
        # the campaign fields while their option is on, or when set (so an option turned off keeps them)
        budget, lucky = self._budget_on(), self._lucky_on()
        for key, widget in (("hook", self._hook), ("tale", self._tale)):
            if budget or widget.value:
                data[key] = widget.value or ""
        if lucky or self._lucky.value:
            data["lucky_shots"] = self._lucky.value or 0
        if lucky and self._gm() and self.character is not None:  # the GM sets what is left (shown then)
            data["lucky_left"] = self._lucky_left.value or 0
        if budget and self._gm():
            data["accepted"] = self._accepted()
        if self._kind.value == "grunt_mob":
            data["member_rating"] = self._member_rating.value
            if self._count.value is not None:
                data["count"] = self._count.value
        return data

    def _validate(self) -> Character | None:
        try:
            data = self.draft()
            if data["kind"] == "character" and not data["cliches"]:
                raise RuleError(self._t("sheet.need_cliche"))
            return Character.from_dict(data)
        except RuleError as exc:
            if self._typed:  # an empty sheet switched to a grunt mob is not refused before anything is typed
                self._show_error(exc)
            return None

    def _on_edit(self, event=None) -> None:
        if self._loading:
            return
        if event is None or event.obj is not self._kind:
            self._typed = True
        self._dirty = True
        self._info.visible = False
        self._check()

    def _check(self) -> None:
        self._valid = self._validate() is not None
        if self._valid:
            self._clear_error()
        if self._valid:
            self._offer(self._save, "save_character", data=self.draft())
        else:
            self._withhold(self._save, "save_character")
        self._export.filename = self._filename()
        self._show_campaign()

    def _load(self, character: Character | None) -> None:
        """Fill the form from ``character`` (or empty it for a new one)."""
        self._loading = True
        try:
            if character is None:
                self._uid = new_uid()
                self._kind.value = "character"
                self._name.value = ""
                self._description.value = ""
                self._member_rating.value = 1
                self._count.value = None
                self._hook.value = self._tale.value = ""
                self._lucky.value = self._lucky_left.value = 0
                for box in (self._accept_hook, self._accept_tale, self._accept_over):
                    box.value = False
                self._rows = []
                self._add_row()
            else:
                self._uid = character.uid
                self._kind.value = character.kind
                self._name.value = character.name
                self._description.value = character.description
                if isinstance(character, GruntMob):
                    self._member_rating.value = character.member_rating
                    self._count.value = character.count
                self._hook.value, self._tale.value = character.hook, character.tale
                self._lucky.value, self._lucky_left.value = character.lucky_shots, character.lucky_left
                for key, box in (("hook", self._accept_hook), ("tale", self._accept_tale),
                                 ("over_budget", self._accept_over)):
                    box.value = key in character.accepted
                self._rows = []
                for c in character.cliches:
                    if not c.temporary:
                        self._add_row(c.name, c.rating, c.current, c.double_pump)
            self._kind_changed()
            self._lock_dice()
        finally:
            self._loading = False
        self._dirty = False
        self._typed = False
        self._check()
        if character is None:  # an empty form is not an error yet
            self._clear_error()

    def _refresh(self) -> None:
        # scores change in contests: show them unless the user is editing
        if not getattr(self, "_dirty", True) and self.character is not None and not self._loading:
            self._load(self.character)
        elif not self._loading:
            self._lock_dice()  # its contest may have just closed
            if getattr(self, "_valid", False):  # or started: the edits in the form may no longer be saved
                self._offer(self._save, "save_character", data=self.draft())
            self._show_campaign()  # the table's rules, or what the GM accepted, may have changed

    # -- commands ---------------------------------------------------------------------------------
    def save(self) -> Character | None:
        """Check the draft and send it as ``save_character``; returns the saved character or None."""
        if self._validate() is None:
            return None
        def done(saved) -> None:
            self._dirty = False
            if saved is self.character:
                self._load(saved)
            else:
                self.character = saved
            self._info.param.update(object=self._t("sheet.saved"), visible=True)
        return self._run("save_character", data=self.draft(), then=done)

    def new(self) -> None:
        """Empty the form for a new character."""
        if self.character is None:
            self._load(None)
        else:
            self.character = None
        self._info.visible = False

    def load_json(self, text: str | bytes) -> bool:
        """Load exported JSON into the form (not saved yet); False, with a message, if it is no character."""
        try:
            try:
                data = json.loads(text)
            except (TypeError, ValueError, UnicodeDecodeError):
                raise RuleError(self._t("sheet.bad_json")) from None
            char = Character.from_dict(data)
        except RuleError as exc:
            self._show_error(exc)
            return False
        self._load(char)
        self._dirty = self._typed = True
        # ``character`` names what Save will write: the room's character of the imported uid, or None
        # for a new one -- not the character edited before the import
        self._keep_form = True
        try:
            self.character = next((c for c in self.actions.characters if c.uid == char.uid), None)
        finally:
            self._keep_form = False
        self._check()
        return True

    def _on_import(self, event) -> None:
        if event.new:
            self.load_json(event.new)

    def to_json(self) -> str:
        """The draft as JSON text (what Export downloads)."""
        return json.dumps(self.draft(), ensure_ascii=False, indent=1)

    def _export_json(self):
        return io.StringIO(self.to_json())

    def _filename(self) -> str:
        stem = re.sub(r"[^\w-]+", "_", self._name.value or "").strip("_") or "character"
        return f"{stem[:60]}.json"
