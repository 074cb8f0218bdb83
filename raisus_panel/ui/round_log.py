"""RoundLog: everything that happened in the contest, newest first, every die shown -- drawn as dice."""

from __future__ import annotations

from typing import NamedTuple

import panel as pn
import param

from raisus_panel.rules import verify_contest

from . import _derive as d
from ._base import HTML, ComponentBase, esc
from ._charts import side_color, unit_colors
from ._contest_text import CONTEST_CSS, roll_table_html

#: Events of a command that only keep the dice honest; the command is named by what else it did.
_DICE_BOOKKEEPING = frozenset({"dice_committed", "dice_revealed", "client_seed_set"})

#: The markup lists the entries oldest first (so a new one is appended and only it is sent) and the
#: browser shows them newest first. An entry about one unit is edged in that unit's chart colour (its
#: name is in the entry's words too); an undone entry is faded, its dice struck through as well (text
#: decoration does not reach into inline blocks).
_LOG_CSS = """
.raisus-log { display: flex; flex-direction: column-reverse; }
.raisus-log-entry { border-left: 4px solid var(--unit, #d0d7de); padding: 2px 0 2px 8px; margin: 4px 0; }
.raisus-log-entry ul { margin: 2px 0; padding-left: 1.3em; }
.raisus-log-undone { opacity: .6; }
.raisus-log-undone .die, .raisus-log-undone .die6, .raisus-log-undone .total { text-decoration: line-through; }
.raisus-log-who { color: #57606a; }
"""


class LogEntry(NamedTuple):
    """One entry of a contest's record, in plain (unescaped) text.

    Attributes
    ----------
    heading, details
        What happened, in the component's language: a heading and its detail lines. A decided
        round's details are, in this order: one line per unit saying what it rolls, one per roll
        attempt (faces and totals), the winner, then what was lost.
    who
        Who gave the command ("" at a one-person table, and for undo entries).
    state
        "kept"; "undone" when an undo took it back; "undo" for the entry that says who undid what.
    event
        The contest's event described (the ``undone`` room event for an undo entry).
    """

    heading: str
    details: list
    who: str
    state: str
    event: dict


class RoundLog(ComponentBase):
    """The contest's event log in words: every roll attempt with its faces and totals, ties and
    re-rolls, damage, and the between-round events (choices, approvals, tickets, teams formed,
    volunteers, disbands, drop-outs, the end, fates and recovery). Newest first.

    Everything typed by people (names, clichés, fates, outcomes) is HTML-escaped: a character named
    ``<img src=x onerror=alert(1)>`` shows as that text.

    It looks like the contest table: a decided round shows its dice drawn as dice (ties marked, the
    winner's row in bold, each row with a swatch in its unit's chart colour), then the verdict and the
    losses in words. An entry about one unit (a choice, a volunteer, a fate...) is edged in that unit's
    colour, a round in its winner's, the end in the winning side's: the colour the unit has on its card
    and its chart line. Colour never says anything alone: the names are in the words.

    Served, a new entry costs the size of that entry, not of the log: the entries are described
    once each, and the markup holds them oldest first (shown newest first), so the page streams
    only what was appended. Old entries beyond ``max_entries`` are dropped in steps of a tenth of it.

    Parameters
    ----------
    actions
        The adapter whose ``contest`` is logged.
    max_entries
        How many of the newest entries to show.
    """

    max_entries = param.Integer(default=200, bounds=(1, None), doc="""
        How many of the newest log entries to show (up to a tenth more, between trims).""")

    def _build(self) -> None:
        self._title = HTML(margin=(0, 10))
        self._body = HTML(sizing_mode="stretch_width", styles={"overflow-y": "auto"}, enable_streaming=True,
                          stylesheets=[CONTEST_CSS, _LOG_CSS])
        # the events described so far, by room seq, for (contest, language): each is described once
        self._described: tuple = (None, None, {})
        self._first = 0  # the oldest entry shown
        # each shown entry's markup, for (contest, language): (id of its event, state, who) -> (event, html)
        self._markup: tuple = (None, None, {})
        self.param.watch(lambda e: self._refresh_now(), "max_entries")
        self._layout = pn.Column(self._title, self._body, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _relabel(self) -> None:
        self._title.object = f"<h4>{esc(self._t('log.title'))}</h4>"

    def record(self) -> list[LogEntry]:
        """The contest's whole record, oldest first, undone entries and undos included (see :class:`LogEntry`).

        What the page shows, as data: a session report lays it out as a document.
        """
        return self._record()

    def _record(self) -> list[LogEntry]:
        """The contest's record as the room's log keeps it, oldest first: append-only.

        One :class:`LogEntry` per event the room wrote for this contest -- ``who``
        is who gave the command ("" at a one-person table), ``state`` is "kept", or "undone" when an
        undo took it back -- and, where an undo was given, an entry that says who undid what (state
        "undo"). Undone entries stay.
        """
        contest = self.contest
        if contest is None:
            return []
        room = self.actions.room
        known, lang, described = self._described
        if known is not contest or lang != self.language:
            described = {}
        names, teams = d.names(contest), d.teams_by_uid(contest)
        mine = [e for e in room.log if e["type"] == "contest" and e["contest"] == contest.uid]
        # Each command by the event that says what it did: the final roll's command also commits and
        # reveals the dice (and ends the contest), but an undo of it takes back the roll.
        commands: dict[str, dict] = {}
        for e in mine:
            first = commands.get(e["cmd_id"])
            if first is None or (first["event"]["type"] in _DICE_BOOKKEEPING
                                 and e["event"]["type"] not in _DICE_BOOKKEEPING):
                commands[e["cmd_id"]] = e
        undos = {e["undone_cmd_id"]: e for e in room.log if e["type"] == "undone" and e["undone_cmd_id"] in commands}
        show_who = bool(room.players)  # a notebook's one-person table has no "who"
        record = []
        for e in room.log:
            if e["type"] == "contest" and e["contest"] == contest.uid:
                if e["seq"] not in described and e["event"]["type"] == "dice_revealed":
                    # checked here, in this page's session, from the log it was sent: not taken on trust
                    described[e["seq"]] = self._describe_reveal([m["event"] for m in mine if m["seq"] <= e["seq"]])
                elif e["seq"] not in described:
                    described[e["seq"]] = self._describe(e["event"], names, teams)
                if described[e["seq"]] is not None:
                    heading, details = described[e["seq"]]
                    state = "undone" if e["cmd_id"] in undos else "kept"
                    record.append(LogEntry(heading, details, self._who(e, room) if show_who else "", state,
                                           e["event"]))
            elif e["type"] == "undone" and e["undone_cmd_id"] in commands:
                first = commands[e["undone_cmd_id"]]
                what = (described.get(first["seq"]) or (self._t("term.did.something"), []))[0]
                record.append(LogEntry(self._t("log.undid", who=self._who(e, room), what=what), [], "", "undo", e))
        self._described = (contest, self.language, described)
        return record

    def _who(self, event: dict, room) -> str:
        actor = event["actor"]
        if actor["role"] == "player":
            return room.players.get(actor["player_id"], "") or self._t("role.player")
        return self._t(f"role.{actor['role']}")

    def entries(self) -> list[tuple[str, list[str]]]:
        """What happened and still counts, as plain (unescaped) text, newest first: ``(heading, [details])``.

        Undone events are not among them (the page shows them struck through, see :meth:`_record`).
        """
        kept = [(entry.heading, entry.details) for entry in self._record() if entry.state == "kept"]
        return kept[::-1][: self.max_entries]

    def _refresh(self) -> None:
        record = self._record()
        if not record:
            self._first = 0
            self._body.object = f"<i>{esc(self._t('log.empty'))}</i>"
            return
        if not self._first <= len(record) - self.max_entries <= self._first + self.max_entries // 10:
            self._first = max(0, len(record) - self.max_entries)
        known, lang, made = self._markup
        if known is not self.contest or lang != self.language:
            made = {}
        colors, markup, parts = unit_colors(self.contest), {}, []
        for entry in record[self._first:]:
            key = (id(entry.event), entry.state, entry.who)
            if key not in made:  # the event is kept beside its markup, so its id is not reused meanwhile
                made[key] = (entry.event, self._entry_html(entry, colors))
            markup[key] = made[key]
            parts.append(markup[key][1])
        self._markup = (self.contest, self.language, markup)
        self._body.object = "<div class=raisus-log>" + "".join(parts) + "</div>"

    def _entry_html(self, entry: LogEntry, colors: dict) -> str:
        """One entry's markup: compact (Panel sends it entity-escaped, where a quote costs six bytes,
        so no quotes where none are needed) and made once per entry -- streamed, only new entries are sent."""
        heading, details, who, state, event = entry
        details = list(details)
        by = f" <small class=raisus-log-who>· {esc(who)}</small>" if who else ""
        dice = ""
        if state != "undo" and event.get("type") == "round_decided":
            # the details' order (see LogEntry): the units' lines label the dice rows, the attempts'
            # lines are drawn as the dice, the verdict and the losses follow in words
            used, attempts = len(event["used"]), len(event["attempts"])
            row_colors = [colors.get(uid, "#8c959f") for uid in event["units"]]
            dice = roll_table_html(event, details[:used], self._t, row_colors)
            details = details[used + attempts:]
        body = "".join(f"<li>{esc(line)}</li>" for line in details)
        html = f"<b>{esc(heading)}</b>{by}{dice}{'<ul>' + body + '</ul>' if body else ''}"
        color = self._color_of(event, colors) if state != "undo" else None
        edge = f" style=--unit:{color}" if color else ""
        if state == "undone":  # kept, struck through: the log never loses what happened
            return f"<div class='raisus-log-entry raisus-log-undone'{edge}><s>{html}</s></div>"
        if state == "undo":
            return f"<div class='raisus-log-entry raisus-log-undo'><i>{html}</i></div>"
        return f"<div class=raisus-log-entry{edge}>{html}</div>"

    @staticmethod
    def _color_of(e: dict, colors: dict) -> str | None:
        """The colour of the unit (or side) an event is about, or None when it is about several or none."""
        kind = e.get("type")
        if kind in ("cliche_chosen", "approved"):
            return colors.get(e["unit"])
        if kind in ("volunteered", "loss_assigned", "dropped_out"):
            return colors.get(e["member"])
        if kind in ("fate_decided", "fate_vetoed"):
            return colors.get(e["character"])
        if kind == "team_disbanded":
            return colors.get(e["team"])
        if kind == "team_formed":
            return colors.get(e["team"]["uid"])
        if kind == "round_decided":
            return colors.get(e["units"][e["winner"]])
        if kind == "contest_ended" and e.get("winner") is not None:
            return side_color(e["winner"])
        return None

    # -- one event in words -----------------------------------------------------------------------
    def _describe_reveal(self, events: list[dict]) -> tuple[str, list[str]]:
        """A revealed seed, with the verification of every committed die so far (the room's log keeps
        undone rolls too: they are checked as well)."""
        t = self._t
        check = verify_contest(events)
        seed = events[-1]["seed"]
        details = [t("log.dice_seed", seed=seed)]
        if check.ok:
            return t("log.dice_verified", rolls=check.rolls, dice=check.dice), details
        if check.status == "failed":
            problem = t(check.problem.key, **check.problem.fields)
            return t("log.dice_failed", problem=problem), details
        return t("log.dice_revealed"), details

    def _describe(self, e: dict, names: dict, teams: dict):
        t = self._t

        def n(uid):
            return names.get(uid, uid)

        kind = e["type"]
        if kind == "contest_started":
            sides = [", ".join(n(u) for u in side) for side in e["sides"]]
            mode = t("contest.single_roll") if e.get("single_roll") else t("contest.rounds_mode")
            return t("log.started", name=e["name"]), [
                t("log.side", side=t("side.0"), names=sides[0]), t("log.side", side=t("side.1"), names=sides[1]),
                mode]
        if kind == "cliche_chosen":
            extra = "" if e["appropriate"] else " · " + (t("log.inappropriate_approved") if e["approved"]
                                                          else t("log.inappropriate"))
            return t("log.chose", unit=n(e["unit"]), cliche=e["cliche"]) + extra, []
        if kind == "approved":
            return t("log.approved", unit=n(e["unit"])), []
        if kind == "tickets_given":
            details = [t("log.ticket_for", name=n(u)) for u in e["temporary"]]
            details += [t("log.brevet_for", name=n(b["character"]), cliche=b["cliche"], n=e["rating"])
                        for b in e["brevet"]]
            return t("log.tickets", cliche=e["cliche"], n=e["rating"]), details
        if kind == "team_formed":
            team = e["team"]
            members = [f"{n(m['character'])} ({m['cliche']})" + ("" if m["appropriate"]
                                                                  else " · " + t("log.inappropriate"))
                       for m in team["members"]]
            details = [t("team.leader_is", name=n(team["leader"])), ", ".join(members)]
            if team.get("revenge"):
                details.append(t("team.revenge_armed"))
            return t("log.team_formed", team=team["name"], side=t(f"side.{e['side']}")), details
        if kind == "round_decided":
            return self._describe_round(e, n)
        if kind == "round_ended":
            return t("log.round_ended", n=e["round"]), []
        if kind == "volunteered":
            lost = sum(h["current"] + h["extra"] for h in e["hits"])
            return t("log.volunteered", name=n(e["member"]), team=n(e["team"])), [
                t("log.volunteer_loss", n=lost, cliche=e["hits"][0]["cliche"] if e["hits"] else ""),
                t("team.revenge_armed")]
        if kind == "loss_assigned":
            lost = sum(h["current"] + h["extra"] for h in e["hits"])
            return t("log.loss_assigned", name=n(e["member"]), n=lost), []
        if kind == "team_disbanded":
            heading = t("log.lost_leader" if e["reason"] == "lost_leader" else "log.disbanded",
                        team=n(e["team"]))
            details = [t("log.loses", name=n(h["character"]), cliche=h["cliche"], n=h["current"] + h["extra"])
                       for h in e["hits"]]
            if e.get("revenge_carry"):
                details.append(t("log.revenge_passes"))
            return heading, details
        if kind == "dropped_out":
            return t("log.dropped_out", name=n(e["member"]), team=n(e["team"])), []
        if kind == "contest_ended":
            if e["winner"] is None:
                heading = t("contest.ended_no_winner")
            else:
                heading = t("log.ended", side=t(f"side.{e['winner']}"))
            details = [e["outcome"]] if e.get("outcome") else []
            details += [t("log.fate_owed", name=n(u)) for u in e.get("owed", [])]
            return heading, details
        if kind == "fate_decided":
            return t("log.fate", name=n(e["character"])), [e["text"]]
        if kind == "fate_vetoed":
            return t("log.fate_vetoed", name=n(e["character"])), []
        if kind == "recovered":
            return t("log.recovered"), [t("log.gain", name=n(g["character"]), cliche=g["cliche"], n=g["amount"])
                                        for g in e["gains"]]
        if kind == "pumped":
            unit = teams.get(e["unit"])
            who = unit.leader.name if unit is not None and unit.leader is not None else n(e["unit"])
            if not e["amount"]:
                return t("log.pump_taken_back", name=who), []
            # the cliché is named when it pays (costs_paid): it may still be switched before the roll
            return t("log.pumped", name=who, n=e["amount"]), []
        if kind == "lucky_declared":
            if not e["amount"]:
                return t("log.lucky_taken_back", name=n(e["character"])), []
            return t("log.lucky_declared", name=n(e["character"]), n=e["amount"]), []
        if kind == "costs_paid":
            details = [t("log.pump_paid", name=n(h["character"]), cliche=h["cliche"], n=h["current"] + h["extra"])
                       for h in e["hits"]]
            # what is left is the card's to say: an old entry is drawn again long after
            details += [t("log.lucky_spent", name=n(s["character"]), n=s["amount"]) for s in e["lucky"]]
            return t("log.costs_paid"), details
        if kind == "dice_committed":
            return t("log.dice_committed", first=e["first_roll"]), [t("log.dice_commitment",
                                                                      commitment=e["commitment"])]
        if kind == "client_seed_set":
            return t("log.client_seed", name=self.actions.room.players.get(e["who"], e["who"])), []
        return None

    def _describe_round(self, e: dict, n):
        t = self._t
        who = [n(u) for u in e["units"]]
        heading = t("log.round" if e.get("closes_round") else "log.exchange", n=e["round"], a=who[0], b=who[1])
        details = []
        for spec, name in zip(e["used"], who):
            flags = []
            if spec.get("revenge"):
                flags.append(t("log.revenge_used"))
            if spec.get("inappropriate"):
                flags.append(t("log.inappropriate"))
            if spec.get("pump"):
                flags.append(t("log.with_pump", n=spec["pump"]))
            if spec.get("lucky"):
                flags.append(t("log.with_lucky", n=spec["lucky"]))
            details.append(t("log.uses", name=name, cliche=spec["cliche"], n=spec["pool"]) +
                           (" · " + " · ".join(flags) if flags else ""))
        for i, (a, b) in enumerate(e["attempts"], 1):
            text = t("roll.attempt", n=i, a=who[0], fa=", ".join(map(str, a["faces"])), ta=a["total"],
                     b=who[1], fb=", ".join(map(str, b["faces"])), tb=b["total"])
            if a["total"] == b["total"]:
                text += " — " + t("roll.tie")
            details.append(text)
        details.append(t("roll.winner", round=e["round"], name=who[e["winner"]]))
        if e["damage"] == 3:
            details.append(t("log.inappropriate_win"))
        for h in e["hits"]:
            details.append(t("log.loses", name=n(h["character"]), cliche=h["cliche"], n=h["current"] + h["extra"]))
        if not e["hits"]:
            details.append(t("log.no_damage"))
        return heading, details
