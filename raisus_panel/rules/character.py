"""Characters and grunt mobs: who rolls, and with which clichés."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from typing import Any, Self, cast

import param

from .cliche import Cliche
from .errors import Phrase, RuleError
from .validation import MAX_MOB_RATING, MAX_RATING, clean_name, clean_text, whole_number

#: The most lucky shots a character may hold (3 per creation die, far beyond any budget).
MAX_LUCKY_SHOTS = 99
#: What the GM may accept of a character's creation (``Character.accepted``).
ACCEPTABLE = ("hook", "tale", "over_budget")
#: The fields of the campaign options (RULES.md section 11), saved only when set.
CAMPAIGN_FIELDS = ("lucky_shots", "lucky_left", "hook", "tale", "accepted")

_CLICHE_TEXT = re.compile(r"^\s*(?P<name>.+?)\s*\(\s*(?P<rating>-?\d+)\s*\)\s*$")


def lucky_shots(n: int) -> str:
    """``"1 lucky shot"``, ``"3 lucky shots"``: as the catalogs' plural forms write a count."""
    return f"{n} lucky shot" if n == 1 else f"{n} lucky shots"


def check_lucky(char: Character, asked: int) -> None:
    """Refuse spending more lucky shots than ``char`` has left (``error.lucky.too_many``)."""
    if asked > char.lucky_left:
        raise RuleError(f"{char.name} has {lucky_shots(char.lucky_left)} left, not {asked}.",
                        key="error.lucky.too_many", name=char.name, left=char.lucky_left, asked=asked)


def new_uid() -> str:
    """A short random id that names a character, team or contest in events and saves."""
    return uuid.uuid4().hex[:12]


def _as_cliches(spec: object, *, max_rating: int) -> list[Cliche]:
    """Accept ``{"Viking": 4}``, ``[("Viking", 4)]``, ``[Cliche(...)]`` or ``"Viking(4), Cook(2)"``."""
    if spec is None:
        return []
    if isinstance(spec, str):
        items = []
        for part in (p for p in spec.split(",") if p.strip()):
            match = _CLICHE_TEXT.match(part)
            if not match:
                raise RuleError(f"Write each cliché as 'Name (rating)', e.g. 'Viking (4)' (a double-pump "
                                f"one as '[Wizard] (3)'); not {part.strip()!r}.",
                                key="error.character.cliche_text", text=repr(part.strip()))
            name = match["name"]
            bracketed = len(name) > 2 and name.startswith("[") and name.endswith("]")
            items.append(Cliche(name[1:-1], int(match["rating"]), max_rating=max_rating, double_pump=True)
                         if bracketed else (name, int(match["rating"])))
        spec = items
    if isinstance(spec, Mapping):
        spec = list(spec.items())
    if not isinstance(spec, (list, tuple)):
        raise RuleError(f"Give the clichés as a list such as [('Viking', 4)], a mapping such as "
                        f"{{'Viking': 4}} or text such as 'Viking (4)', not {spec!r}.",
                        key="error.character.cliches_type", value=repr(spec))
    cliches = []
    for item in spec:
        if isinstance(item, Cliche):
            cliches.append(item)
        elif isinstance(item, Mapping):
            cliches.append(Cliche.from_dict(dict(item), max_rating=max_rating))
        elif isinstance(item, (tuple, list)) and len(item) in (2, 3):
            cliches.append(Cliche(*item, max_rating=max_rating))
        else:
            raise RuleError(f"A cliché is given as ('Name', rating) or Cliche(...), not {item!r}.",
                            key="error.character.cliche_item", item=repr(item))
    names = [c.name for c in cliches]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RuleError(f"A character cannot have two clichés called {', '.join(dupes)}: rename one.",
                        key="error.character.duplicate_cliches", names=", ".join(dupes))
    return cliches


class Character(param.Parameterized):
    """A character at the table: a name, a description and a list of clichés.

    Characters are plain state: contests change their clichés' ``current`` scores through events, and
    the UI watches them. The clichés list is replaced, never changed in place, so watchers fire.

    Parameters
    ----------
    name
        The character's name (any script; 80 characters at most).
    cliches
        ``{"Viking": 4, "Swashbuckler": 2}``, a list of ``(name, rating)`` pairs or of :class:`Cliche`,
        or the text ``"Viking (4), Swashbuckler (2)"``.

    Examples
    --------
    >>> viking = Character("Olaf", {"Viking": 4, "Swashbuckler": 2})
    >>> viking.cliche("Viking").current
    4
    """

    kind = "character"
    max_rating = MAX_RATING

    uid = param.String(default="", doc="""
        A stable id for events and saves; made up when not given. Names need not be unique.""")

    name = param.String(default="", constant=False, doc="""
        The character's name as shown at the table.""")

    description = param.String(default="", doc="""
        Free text: looks, background, anything the player wants to say.""")

    owner = param.String(default="", doc="""
        Who plays this character (a player's id in a shared room); empty for the GM's NPCs.""")

    cliches = param.List(default=[], item_type=Cliche, doc="""
        The character's clichés, in the player's order. Replaced as a whole when it changes.""")

    lucky_shots = param.Integer(default=0, bounds=(0, MAX_LUCKY_SHOTS), doc="""
        The lucky shots bought at creation (3 per creation die): what ``lucky_left`` refills to at
        each new session (the "lucky shots" option, RULES.md section 11).""")

    lucky_left = param.Integer(default=0, bounds=(0, MAX_LUCKY_SHOTS), doc="""
        The lucky shots left this session; each spent adds +1 die to one roll of this character.""")

    hook = param.String(default="", doc="""
        A written flaw; under a creation budget it gives +1 creation die once the GM accepts it.""")

    tale = param.String(default="", doc="""
        A written backstory; under a creation budget it gives +1 creation die once the GM accepts it.""")

    accepted = param.List(default=[], item_type=str, doc="""
        What the GM accepted of this character's creation: "hook", "tale" (each +1 creation die) and
        "over_budget" (built over the creation budget all the same).""")

    def __init__(self, name: str = "", cliches: object = None, **params: Any) -> None:
        params.setdefault("uid", new_uid())
        params["name"] = clean_name(name, Phrase("character name", "term.character_name"))
        params["description"] = clean_text(params.get("description", ""), Phrase("description", "term.description"))
        params["cliches"] = _as_cliches(cliches, max_rating=self.max_rating)
        for key, what in (("hook", Phrase("hook", "term.hook")), ("tale", Phrase("tale", "term.tale"))):
            if key in params:
                params[key] = clean_text(params[key], what)
        lucky = params["lucky_shots"] = whole_number(params.get("lucky_shots", 0),
                                                     Phrase("lucky shots", "term.lucky_shots"), low=0, high=MAX_LUCKY_SHOTS)
        params["lucky_left"] = whole_number(params.get("lucky_left", lucky), Phrase("lucky shots left", "term.lucky_left"),
                                            low=0, high=MAX_LUCKY_SHOTS)
        accepted = params.get("accepted", [])
        if not isinstance(accepted, (list, tuple)) or set(accepted) - set(ACCEPTABLE):
            raise RuleError(f"What the GM accepted is a list of {', '.join(ACCEPTABLE)}; not {accepted!r}.",
                            key="error.character.accepted", choices=", ".join(ACCEPTABLE), value=repr(accepted))
        params["accepted"] = [a for a in ACCEPTABLE if a in accepted]
        super().__init__(**params)  # type: ignore[no-untyped-call]  # Parameterized.__init__ takes **params untyped

    def cliche(self, name: str) -> Cliche:
        """The cliché called ``name``; RuleError naming the choices if there is none."""
        for cliche in self.cliches:
            if cliche.name == name:
                return cliche
        choices = ", ".join(c.name for c in self.cliches) or Phrase("none yet", "term.none_yet")
        raise RuleError(f"{self.name} has no cliché called {name!r} (has: {choices}).",
                        key="error.character.no_such_cliche", name=self.name, cliche=repr(name), choices=choices)

    def has_cliche(self, name: str) -> bool:
        """Whether this character has a cliché called ``name``."""
        return any(c.name == name for c in self.cliches)

    def add_cliche(self, name: str, rating: int, current: int | None = None, **params: Any) -> Cliche:
        """Add a cliché (replacing the list, so watchers fire) and return it."""
        cliche = Cliche(name, rating, current, max_rating=self.max_rating, **params)
        if self.has_cliche(cliche.name):
            raise RuleError(f"{self.name} already has a cliché called {cliche.name!r}.",
                            key="error.character.has_cliche", name=self.name, cliche=repr(cliche.name))
        self.cliches = [*self.cliches, cliche]
        return cliche

    def remove_cliche(self, name: str) -> None:
        """Remove the cliché called ``name``."""
        self.cliche(name)
        self.cliches = [c for c in self.cliches if c.name != name]

    @property
    def label(self) -> str:
        """``"Name: Cliché (4), Other (2)"``."""
        return f"{self.name}: " + ", ".join(c.label for c in self.cliches)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description of this character, for saves and exports."""
        data = {"kind": self.kind, "uid": self.uid, "name": self.name,
                "description": self.description, "owner": self.owner,
                "cliches": [c.to_dict() for c in self.cliches]}
        # the campaign fields only when set, so a character that uses none is saved as before (the
        # lucky shots as a pair: what is left is saved even at 0, as its absence means all of them)
        for key in CAMPAIGN_FIELDS:
            value = getattr(self, key)
            if value or (key == "lucky_left" and self.lucky_shots):
                data[key] = list(value) if isinstance(value, list) else value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Character":
        """Build a character or grunt mob from :meth:`to_dict` output, checking every field."""
        if not isinstance(data, Mapping):
            raise RuleError(f"A character must be described by a mapping, not {type(data).__name__}.",
                            key="error.character.not_mapping", type=type(data).__name__)
        kind = data.get("kind", "character")
        kinds: dict[str, type[Character]] = {"character": Character, "grunt_mob": GruntMob}
        target = kinds.get(kind)
        if target is None:
            raise RuleError(f"Unknown kind of character {kind!r}: expected 'character' or 'grunt_mob'.",
                            key="error.character.unknown_kind", kind=repr(kind))
        return target._from_fields(dict(data))

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> Self:
        allowed = {"kind", "uid", "name", "description", "owner", "cliches", *CAMPAIGN_FIELDS}
        unknown = set(data) - allowed
        if unknown:
            raise RuleError(f"Unknown character fields: {', '.join(sorted(unknown))}.",
                            key="error.character.unknown_fields", names=", ".join(sorted(unknown)))
        uid = data.get("uid") or new_uid()
        if not isinstance(uid, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", uid):
            raise RuleError(f"A character id must be 1-40 letters, digits, '-' or '_', not {uid!r}.",
                            key="error.character.bad_id", uid=repr(uid))
        cliches = data.get("cliches", [])
        if not isinstance(cliches, list):
            raise RuleError("A character's clichés must be a list.", key="error.character.cliches_not_list")
        owner = data.get("owner", "") or ""
        if not isinstance(owner, str):
            raise RuleError("A character's owner must be text.", key="error.character.owner_not_text")
        # as given: __init__ checks the name (clean_name)
        campaign = {k: data[k] for k in CAMPAIGN_FIELDS if k in data}  # absent lucky_left: all of them
        return cls(cast(str, data.get("name")), cliches=cliches, uid=uid, description=data.get("description", ""),
                   owner=owner, **campaign)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {{{', '.join(f'{c.name!r}: {c.current}' for c in self.cliches)}}})"


class GruntMob(Character):
    """A crowd of extras rated 1 or less, played as one unit with one cliché.

    Parameters
    ----------
    name
        The mob, e.g. "700 Skeletal Rats".
    rating
        The mob's cliché rating: at least 1 and at least ``member_rating`` (up to 1000).
    member_rating
        What one extra would be rated on its own: 0 or 1.
    cliche
        The name of the mob's cliché; defaults to the mob's name.

    Examples
    --------
    >>> rats = GruntMob("700 Skeletal Rats", rating=7)
    >>> rats.cliches[0].label
    '700 Skeletal Rats (7)'
    """

    kind = "grunt_mob"
    max_rating = MAX_MOB_RATING

    member_rating = param.Integer(default=1, bounds=(0, 1), doc="""
        What one extra in the mob would be rated on its own (1 or less).""")

    count = param.Integer(default=None, allow_None=True, bounds=(1, None), doc="""
        How many extras the mob holds, if anyone counted (only for show).""")

    def __init__(self, name: str = "", rating: int | None = None, *, member_rating: int = 1,
                 cliche: str | None = None, cliches: object = None, count: int | None = None,
                 **params: Any) -> None:
        member_rating = whole_number(
            member_rating, Phrase("rating of one extra in a grunt mob", "term.mob_member_rating"), low=0, high=1)
        if cliches is None:
            if rating is None:
                raise RuleError("A grunt mob needs a rating, e.g. GruntMob('700 Skeletal Rats', rating=7).",
                                key="error.mob.no_rating")
            rating = whole_number(rating, Phrase("grunt mob's rating", "term.mob_rating"), low=1, high=MAX_MOB_RATING)
            cliches = [(cliche or clean_name(name, Phrase("grunt mob name", "term.mob_name")), rating)]
        super().__init__(name, cliches, member_rating=member_rating, count=count, **params)
        real = [c for c in self.cliches if not c.temporary]
        if len(real) != 1:
            raise RuleError(f"A grunt mob has exactly one cliché; {self.name} has {len(real)}.",
                            key="error.mob.one_cliche", name=self.name, count=len(real))
        if real[0].rating < max(1, member_rating):
            raise RuleError(f"A grunt mob is rated at least 1 (and at least one extra's rating); "
                            f"{self.name} is rated {real[0].rating}.",
                            key="error.mob.rating_too_low", name=self.name, rating=real[0].rating)

    def add_cliche(self, name: str, rating: int, current: int | None = None, **params: Any) -> Cliche:
        """Grunt mobs only gain temporary clichés (tickets)."""
        if not params.get("temporary"):
            raise RuleError("A grunt mob has exactly one cliché; make a new mob instead.",
                            key="error.mob.no_more_cliches")
        return super().add_cliche(name, rating, current, **params)

    def to_dict(self) -> dict[str, Any]:
        """As :meth:`Character.to_dict`, plus the mob's member rating and count."""
        data = super().to_dict()
        data["member_rating"] = self.member_rating
        if self.count is not None:
            data["count"] = self.count
        return data

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> Self:
        member_rating = data.pop("member_rating", 1)
        count = data.pop("count", None)
        if count is not None:
            count = whole_number(count, Phrase("number of extras", "term.extras_count"), low=1, high=10**9)
        mob = super()._from_fields(data)  # builds through __init__ with cliches given
        member_rating = whole_number(member_rating, Phrase("rating of one extra", "term.extra_rating"), low=0, high=1)
        mob.param.update(member_rating=member_rating, count=count)
        return mob
