"""The report as one HTML document: its parts, each escaped, with BokehJS and the charts inline."""

from __future__ import annotations

import math
import threading
import time
from importlib import resources
from typing import cast

import panel as pn
from bokeh.document import Document as BokehDocument
from bokeh.embed import components
from bokeh.models.annotations import Legend
from bokeh.resources import Resources

from raisus_panel import i18n
from raisus_panel.room.projection import effective
from raisus_panel.rules import CharacterTeam, RulesProfile
from raisus_panel.rules.profile import CAMPAIGN_OPTIONS
from raisus_panel.ui import ActionCheckPanel, LiveOdds, RoundLog, ScoreChart, unit_colors
from raisus_panel.ui.kit import (
    CONTEST_CSS,
    esc,
    fate_html,
    member_label,
    result_html,
    roll_table_html,
    trail,
    unit_head_html,
)
from raisus_panel.ui.kit import derive as d
from raisus_panel.ui.live_odds import Chances, contest_chances

from .sources import SESSION_EVENTS, ContestPart, Session
from .verification import verification_html

#: Width of the charts in CSS pixels: the text column on screen, and A4 less its margins (180 mm).
CHART_WIDTH = 680
SCORE_HEIGHT = 250
ODDS_HEIGHT = 150


#: The look of the campaign section, added only to a report that has one (a report without campaign
#: play is as it was before campaigns).
CAMPAIGN_CSS = """.around.campaign { break-inside: auto; }
.session { break-inside: avoid; }
.session h3 { margin-bottom: 2px; }
.session > p { margin: 0 0 4px; font-size: 13px; }
.session ul { margin: 4px 0 0; }
"""


def _css(campaign: bool = False) -> str:
    """The dashboard's look of dice, units and bars, then the document's own (which wins where both speak)."""
    own = resources.files(__package__).joinpath("report.css").read_text(encoding="utf-8")
    return CONTEST_CSS + own + (CAMPAIGN_CSS if campaign else "")


def _bokehjs() -> str:
    """BokehJS itself, inline: its code only. (``Resources.render_js`` would add a script tag for
    every ``__javascript__`` file an imported model declares -- Panel's are relative paths of a
    served app that a file on disk cannot load -- and the charts need none of them.)"""
    code = Resources(mode="inline", components=["bokeh"]).js_raw
    return "".join(f"<script>\n{js}\n</script>\n" for js in code)


def _date(ts) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ts)) if isinstance(ts, (int, float)) else ""


def _when(ts) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ts)) if isinstance(ts, (int, float)) else ""


def _campaign_on(profile: RulesProfile) -> bool:
    """Whether ``profile`` plays any campaign option (RULES.md section 11)."""
    return any(k in profile.to_dict() for k in CAMPAIGN_OPTIONS)


def detached(fn):
    """``fn()`` with no served page's document current: the report's components belong to no page.

    Built in a served page's callback, a component would put its models on that page's document and
    register cleanups for its session; in a thread of its own there is no current document.
    """
    if pn.state.curdoc is None:
        return fn()
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:  # handed back to the caller's thread
            out["error"] = exc
    worker = threading.Thread(target=run, name="raisus-report")
    worker.start()
    worker.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


def _components(figures) -> tuple:
    """``bokeh.embed.components`` of ``figures`` put on a document of their own first.

    Given models on no document, Bokeh makes one and copies into it the JavaScript callbacks of its
    current document -- in a server, whichever page's document was current last, possibly one already
    destroyed (whose callbacks are gone), which made a report fail.
    """
    doc = BokehDocument()
    for fig in figures:
        doc.add_root(fig)
    return components(figures)


def odds_as_played(contest) -> dict:
    """The odds chart's rows as a page drew them during the game: each point's chances as they
    stood until the next point came -- the odds chart's own trail (``ui/_trail.py``)."""
    def value(p):
        return math.nan if p is None else float(p)
    rows: dict[str, list] = {"x": [], "round": [], "p_win": [], "p_next": []}
    for point, at in zip(contest.history, trail(contest, contest_chances)):
        rows["x"].append(float(point["x"]))
        rows["round"].append(point["round"])
        chances = cast("Chances | None", at.chances)  # what contest_chances, the rate, gave
        rows["p_win"].append(value(chances.p_win) if chances else math.nan)
        rows["p_next"].append(value(chances.p_next) if chances else math.nan)
    return rows


def _move_legend(fig, where: str) -> None:
    """Move the figure's legend out of the plot to ``where`` ("below" or "right"): beside the plot a
    legend of long names takes half a page's width, and on it a legend hides lines that a printed
    page cannot toggle. Below, two entries a row."""
    for place in (fig.right, fig.center):
        for legend in [r for r in place if isinstance(r, Legend)]:
            place.remove(legend)
            legend.location = "center" if where == "below" else "top_left"
            if where == "below":
                legend.ncols = min(2, len(legend.items)) or 1
            fig.add_layout(legend, where)


def _standing_at_end(contest) -> dict:
    """Each (character uid, cliché name)'s dice when the contest ended, or {} while it is on.

    The GM may restore dice after the end (``recover``); "at the start → at the end" is the contest's
    own story, so it is read from the log replayed up to the end, not from the characters now.
    """
    events = contest.events
    end = next((i for i, e in enumerate(events) if e["type"] == "contest_ended"), None)
    if end is None or end == len(events) - 1 or all(e["type"] != "recovered" for e in events[end:]):
        return {}
    then = type(contest).from_events(events[: end + 1])
    return {(ch.uid, c.name): c.current for ch in then.characters() for c in ch.cliches}


class _Charts:
    """The figures of every contest, gathered so that one Bokeh document holds them all."""

    def __init__(self):
        self.figures: list = []

    def add(self, fig, source, name: str, height: int) -> int:
        fig.sizing_mode = "fixed"
        fig.width, fig.height = CHART_WIDTH, height
        fig.toolbar.autohide = True  # the tools show when the pointer is over the chart, never on paper
        source.name = name  # the data as played, findable in the page's Bokeh document
        self.figures.append(fig)
        return len(self.figures) - 1


class Document:
    """One report rendered in one language: :meth:`html` is the whole file.

    Parameters
    ----------
    session
        What the report shows (:mod:`.sources`).
    lang
        "ko" or "en".
    """

    def __init__(self, session: Session, lang: str):
        if lang not in i18n.LANGUAGES:
            raise ValueError(f"No catalog for language {lang!r}; choose one of {', '.join(i18n.LANGUAGES)}.")
        self.session = session
        self.lang = lang

    def t(self, key: str, **fields) -> str:
        """A catalog text in the report's language."""
        return i18n.t(key, self.lang, **fields)

    # -- the whole ----------------------------------------------------------------------------------
    def html(self) -> str:
        """The whole file: head (stylesheet, BokehJS), the contests, the action checks, the charts' data."""
        return detached(self._html)

    def _html(self) -> str:
        charts = _Charts()
        bodies = [self._contest_html(i, part, charts) for i, part in enumerate(self.session.contests, 1)]
        script, divs = _components(charts.figures) if charts.figures else ("", ())
        for i, div in enumerate(divs):
            bodies = [b.replace(f"<!--chart:{i}-->", div) for b in bodies]
        js = _bokehjs() if charts.figures else ""
        title = self._title()
        body = "".join(bodies) or f"<p><i>{esc(self.t('report.no_contests'))}</i></p>"
        around = self._around_html()
        body += around
        campaign = "<section class='around campaign'>" in around
        return (f"<!DOCTYPE html>\n<html lang='{self.lang}'>\n<head>\n<meta charset='utf-8'>\n"
                f"<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
                f"<meta name='generator' content='raisus_panel'>\n<title>{esc(title)}</title>\n"
                f"<style>\n{_css(campaign)}</style>\n{js}\n</head>\n<body>\n{self._head_html(title)}\n{body}\n"
                f"{self._footer_html()}\n{script}\n</body>\n</html>\n")

    def _title(self) -> str:
        s = self.session
        return self.t("report.title_room" if s.room else "report.title_contest", title=s.title)

    def _head_html(self, title: str) -> str:
        s = self.session
        played = sorted(p.started for p in s.contests if p.started is not None)
        facts = [self.t("report.kind_room" if s.room else "report.kind_contest")]
        if s.room:
            facts.append(self.t("report.contests", n=len(s.contests)))
        if played:
            first, last = _date(played[0]), _date(played[-1])
            facts.append(self.t("report.played", date=first if first == last else f"{first} – {last}"))
        contents = ""
        if len(s.contests) > 1:
            items = "".join(f"<li>{esc(p.contest.name)} <span class=soft>· {esc(self.t('past.rounds', n=p.contest.round))}"
                            f"</span></li>" for p in s.contests)
            contents = f"<ol class=contents>{items}</ol>"
        return (f"<header class=doc-head><h1>{esc(title)}</h1><p>{esc(' · '.join(facts))}</p>"
                f"{self._table_html()}{contents}</header>")

    def _footer_html(self) -> str:
        return f"<footer>{esc(self.t('report.footer', date=_date(time.time())))}</footer>"

    def _around_html(self) -> str:
        """What happened at the table outside the contests: recoveries between them, and the action
        checks (oldest first, worded as the checks' own log)."""
        if self.session.actions is None:
            return ""
        room, t = self.session.actions.room, self.t
        names = {c.uid: c.name for c in room.characters}
        gains = [g for e in effective(room.log) if e["type"] == "recovered" for g in e["gains"]]
        out = self._campaign_html()
        if gains:  # worded as the round log words a contest's recovery
            lines = [t("log.gain", name=names.get(g["character"], g["character"]), cliche=g["cliche"], n=g["amount"])
                     for g in gains]
            items = "".join(f"<li>{esc(line)}</li>" for line in lines)
            out += f"<section class=around><h2>{esc(t('log.recovered'))}</h2><ul>{items}</ul></section>"
        panel = ActionCheckPanel(actions=self.session.actions, lang=self.lang, log_length=10**6)
        try:
            entries = panel.log_entries()[::-1]
        finally:
            panel.dispose()
        if entries:
            items = "".join(f"<li class='{'secret' if secret else 'open'}'>{esc(text)}</li>" for text, secret in entries)
            out += f"<section class='around checks'><h2>{esc(t('dashboard.tab.checks'))}</h2><ul>{items}</ul></section>"
        return out

    # -- campaign play (RULES.md section 11) ----------------------------------------------------------
    def _options(self, profile: RulesProfile, only: tuple = CAMPAIGN_OPTIONS) -> str:
        """The campaign options ``profile`` plays, in words (those named in ``only``), or "" for none."""
        t, on = self.t, profile.to_dict()
        words = []
        if "creation_dice" in only and on.get("creation_dice") is not None:
            words.append(t("report.campaign.creation", n=profile.creation_dice, most=profile.creation_max))
        if "lucky_shots" in only and profile.lucky_shots:
            words.append(t("report.campaign.lucky_shots"))
        if "pumps" in only and profile.pumps:
            words.append(t("report.campaign.pumps"))
            if "pump_checks" in only and profile.pump_checks:
                words.append(t("report.campaign.pump_checks"))
        if "advancement" in only and profile.advancement == "rolls":
            words.append(t("report.campaign.advancement_rolls"))
        elif "advancement" in only and profile.advancement == "points":
            words.append(t("report.campaign.advancement_points"))
        return ", ".join(words)

    def _campaign_html(self) -> str:
        """The table's rules and the sessions, each with its contests and its advancement, in words;
        "" for a room that played no campaign option and no session."""
        assert self.session.actions is not None
        room, t = self.session.actions.room, self.t
        log = effective(room.log)
        rules = [RulesProfile.from_dict(e["profile"]) for e in log if e["type"] == "rules_set"]
        if not any(e["type"] in SESSION_EVENTS for e in log) and not any(_campaign_on(p) for p in rules):
            return ""
        names: dict[str, str] = {}  # a character's name, also once it was removed
        for e in room.log:
            if e["type"] in ("character_created", "character_updated"):
                names[e["character"]["uid"]] = e["character"]["name"]
        names.update({c.uid: c.name for c in room.characters})
        numbers = {p.contest.uid: n for n, p in enumerate(self.session.contests, 1)}
        sessions: list[dict] = [{"n": 1, "start": room.log[0].get("ts") if room.log else None, "end": None, "items": []}]
        seen: set = set()
        owed: dict[str, list[str]] = {}  # character uid -> the clichés it may still roll for (or [] to invest)
        offered = sessions[0]  # the session whose end offered them
        way = "off"
        profile = RulesProfile()

        def unpaid(now: dict, waiting: bool = False) -> None:
            """The advancement offered that nobody took: when the next session's end replaced it
            (lost), or at the end of the log (still waiting); said with the session that offered it."""
            for uid, cliches in owed.items():
                who = names.get(uid, uid)
                if way == "points":
                    now["items"].append(t("report.campaign.may_invest" if waiting else "report.campaign.not_invested",
                                          name=who))
                for cliche in cliches if way == "rolls" else ():
                    now["items"].append(t("report.campaign.may_roll" if waiting else "report.campaign.not_rolled",
                                          name=who, cliche=cliche))
            owed.clear()

        for e in log:
            now, kind = sessions[-1], e["type"]
            if kind == "rules_set":
                profile = RulesProfile.from_dict(e["profile"])
                now["items"].append(t("report.campaign.rules_set",
                                      options=self._options(profile) or t("report.campaign.no_options")))
            elif kind == "session_started":
                sessions.append({"n": e["session"], "start": e.get("ts"), "end": None, "items": []})
            elif kind == "contest" and e["contest"] not in seen:
                seen.add(e["contest"])
                n = numbers.get(e["contest"])
                name = room.replay_contest(e["contest"]).name if n is None else self.session.contests[n - 1].contest.name
                now["items"].append((n, t("report.campaign.contest", n=n or "", name=name)))
            elif kind == "session_ended":
                unpaid(offered)
                offered, now["end"] = now, e.get("ts")
                way, owed = profile.advancement, {uid: list(c) for uid, c in e["advancement"].items()}
                if way == "rolls" and owed:
                    offers = ", ".join(f"{names.get(uid, uid)} ({', '.join(c)})" for uid, c in owed.items())
                    now["items"].append(t("report.campaign.ended_rolls", offers=offers))
                elif way == "points" and owed:
                    now["items"].append(t("report.campaign.ended_points",
                                          names=", ".join(names.get(uid, uid) for uid in owed)))
                else:
                    now["items"].append(t("report.campaign.ended"))
            elif kind == "advancement_rolled":
                roll, who = e["roll"], names.get(e["character"], e["character"])
                key = "campaign.rose" if roll["rises"] else "campaign.stayed"
                now["items"].append(t(key, name=who, cliche=roll["cliche"], faces=", ".join(map(str, roll["faces"])),
                                      n=roll["rating"] + roll["rises"]))
                if roll["cliche"] in owed.get(e["character"], []):
                    owed[e["character"]].remove(roll["cliche"])
                    if not owed[e["character"]]:
                        del owed[e["character"]]
            elif kind == "advancement_invested":
                who = names.get(e["character"], e["character"])
                now["items"].append(t("campaign.invested_new" if e["new"] else "campaign.invested",
                                      name=who, cliche=e["cliche"]))
                owed.pop(e["character"], None)
        unpaid(offered, waiting=True)
        final = rules[-1] if rules else RulesProfile()
        out = (f"<section class='around campaign'><h2>{esc(t('report.campaign'))}</h2>"
               f"<p>{esc(t('report.campaign.rules', options=self._options(final) or t('report.campaign.no_options')))}</p>")
        for one in sessions:
            when = [t("report.campaign.started", when=_when(one["start"]))] if one["start"] is not None else []
            when.append(t("report.campaign.ended_at", when=_when(one["end"])) if one["end"] is not None
                        else t("report.campaign.not_ended"))
            items = []
            for item in one["items"]:
                if isinstance(item, tuple):  # a contest: a link to its section
                    n, text = item
                    items.append(f"<li><a href='#contest-{n}'>{esc(text)}</a></li>" if n else f"<li>{esc(text)}</li>")
                else:
                    items.append(f"<li>{esc(item)}</li>")
            body = f"<ul>{''.join(items)}</ul>" if items else f"<p class=soft>{esc(t('report.campaign.nothing'))}</p>"
            out += (f"<div class=session><h3>{esc(t('campaign.session', n=one['n']))}</h3>"
                    f"<p class=soft>{esc(' · '.join(when))}</p>{body}</div>")
        return out + "</section>"

    def _table_html(self) -> str:
        """Who sat at the table: the players, each with the characters they played."""
        if self.session.actions is None or not self.session.players:
            return ""
        room = self.session.actions.room
        people = []
        for player_id, name in self.session.players.items():
            chars = [c.name for c in room.characters if c.owner == player_id]
            people.append(esc(name) + (f" <span class=soft>({esc(', '.join(chars))})</span>" if chars else ""))
        return f"<p class=table>{esc(self.t('report.table'))}: {', '.join(people)}</p>"

    # -- one contest ---------------------------------------------------------------------------------
    def _contest_html(self, number: int, part: ContestPart, charts: _Charts) -> str:
        t, contest = self.t, part.contest
        score = ScoreChart(actions=part.actions, lang=self.lang, height=SCORE_HEIGHT)
        odds = LiveOdds(actions=part.actions, lang=self.lang, height=ODDS_HEIGHT)
        log = RoundLog(actions=part.actions, lang=self.lang, max_entries=10**6)
        try:
            _move_legend(score.figure, "below")
            score_at = charts.add(score.figure, score.source, f"raisus-score-{number}",
                                  SCORE_HEIGHT + 22 * math.ceil(len(contest.series) / 2))
            odds_fig = odds.__panel__().select(pn.pane.Bokeh)[0].object
            _move_legend(odds_fig, "right")
            odds_at = charts.add(odds_fig, odds.source, f"raisus-odds-{number}", ODDS_HEIGHT)
            record = log.record()
        finally:
            for component in (score, odds, log):
                component.dispose()
        mode = t("contest.single_roll") if contest.single_roll else t("contest.rounds_mode")
        facts = [mode, t("past.rounds", n=contest.round)]
        if part.started is not None:
            facts.append(_date(part.started))
        if part.session is not None:
            facts.append(t("campaign.session", n=part.session))
        options = self._options(contest.profile, only=("lucky_shots", "pumps"))
        if options:
            facts.append(t("report.contest_options", options=options))
        if self.session.room:
            heading = (f"<div class=contest-head><h2>{esc(contest.name)}</h2>"
                       f"<span class=soft>{esc(' · '.join(facts))}</span></div>")
        else:  # the document's title names it already
            heading = f"<div class=contest-head><span class=soft>{esc(' · '.join(facts))}</span></div>"
        result = result_html(contest, t) or f"<p>{esc(t('report.not_ended'))}</p>"
        return (f"<section class=contest id='contest-{number}'>{heading}<div class=result>{result}</div>"
                f"{self._fates_html(contest)}"
                f"<h3>{esc(t('report.participants'))}</h3>{self._sides_html(contest)}"
                f"<h3>{esc(t('report.charts'))}</h3>"
                f"<div class=chart><!--chart:{score_at}--></div><div class=chart><!--chart:{odds_at}--></div>"
                f"<section class=verification>{verification_html(part, t)}</section>"
                f"<h3>{esc(t('report.play'))}</h3>{self._play_html(record)}</section>")

    def _fates_html(self, contest) -> str:
        losers = list(dict.fromkeys([*contest.fates, *contest.owed_fates]))
        if not losers:
            return ""
        names = d.names(contest)
        items = "".join(f"<li><b>{esc(names.get(uid, uid))}</b>: {fate_html(contest, uid, self.t)}</li>"
                        for uid in losers)
        return f"<h3>{esc(self.t('report.fates'))}</h3><ul class=fates>{items}</ul>"

    def _sides_html(self, contest) -> str:
        t = self.t
        start = {c["uid"]: c for c in contest.events[0].get("characters", [])} if contest.events else {}
        end = _standing_at_end(contest)
        players = self.session.players
        sides = []
        colors = unit_colors(contest)  # the chart lines' colours, as on the dashboard's cards
        for i, side in enumerate(contest.sides):
            units = []
            for u in side:
                head = unit_head_html(contest, u, t)
                if isinstance(u, CharacterTeam):
                    lines = [esc(member_label(u, m, t)) for m in u.members]
                else:
                    lines = [self._cliche_line(c, start.get(u.uid), end.get((u.uid, c.name), c.current))
                             for c in u.cliches]
                    owner = players.get(u.owner or "", "")
                    if owner:
                        head += f"<br><span class=soft>{esc(t('report.player', name=owner))}</span>"
                items = "".join(f"<li>{line}</li>" for line in lines)
                color = colors.get(u.uid, "#8c959f")
                units.append(f"<div class=unit style=--unit:{color}>{head}<ul class=cliches>{items}</ul></div>")
            sides.append(f"<div class='side s{i}'><h4>{esc(t(f'side.{i}'))}</h4>{''.join(units)}</div>")
        note = f"<p class=soft><small>{esc(t('report.dice_note'))}</small></p>"
        return f"<div class=sides>{''.join(sides)}</div>{note}"

    def _cliche_line(self, cliche, before: dict | None, at_end: int) -> str:
        was = next((c for c in (before or {}).get("cliches", []) if c.get("name") == cliche.name), None)
        start = was.get("current", was.get("rating")) if was else None
        change = f"{start} → {at_end}" if start is not None and start != at_end else str(at_end)
        return (f"{esc(cliche.name)} ({esc(cliche.rating)}) "
                f"<span class=soft>{esc(self.t('report.dice_left', change=change))}</span>")

    # -- what happened ---------------------------------------------------------------------------------
    def _play_html(self, record) -> str:
        if not record:
            return f"<p><i>{esc(self.t('log.empty'))}</i></p>"
        return "<ol class=play>" + "".join(self._entry_html(entry) for entry in record) + "</ol>"

    def _entry_html(self, entry) -> str:
        who = f" <span class=who>· {esc(entry.who)}</span>" if entry.who else ""
        state = {"undone": " undone", "undo": " undo"}.get(entry.state, "")
        mark = f" <small>({esc(self.t('report.undone'))})</small>" if entry.state == "undone" else ""
        if entry.state != "undo" and entry.event.get("type") == "round_decided":
            return (f"<li class='entry round{state}'><h4><span class=what>{esc(entry.heading)}</span>{mark}{who}</h4>"
                    f"{self._round_html(entry)}</li>")
        details = "".join(f"<li>{esc(line)}</li>" for line in entry.details)
        return (f"<li class='entry{state}'><span class=what><b>{esc(entry.heading)}</b>{mark}</span>{who}"
                f"{f'<ul>{details}</ul>' if details else ''}</li>")

    def _round_html(self, entry) -> str:
        """A decided round: each side's dice, attempt by attempt (ties marked), then the log's verdict."""
        e, t = entry.event, self.t
        used, attempts = e["used"], e["attempts"]
        # the round log's details: one line per unit rolling, one per attempt, then the verdict
        rolls, rest = entry.details[:len(used)], entry.details[len(used) + len(attempts):]
        verdict = "".join(f"<li>{esc(line)}</li>" for line in rest)
        return f"{roll_table_html(e, rolls, t)}<ul>{verdict}</ul>"
