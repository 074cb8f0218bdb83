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
from raisus_panel.rules import CharacterTeam
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

from .sources import ContestPart, Session
from .verification import verification_html

#: Width of the charts in CSS pixels: the text column on screen, and A4 less its margins (180 mm).
CHART_WIDTH = 680
SCORE_HEIGHT = 250
ODDS_HEIGHT = 150


def _css() -> str:
    """The dashboard's look of dice, units and bars, then the document's own (which wins where both speak)."""
    return CONTEST_CSS + resources.files(__package__).joinpath("report.css").read_text(encoding="utf-8")


def _bokehjs() -> str:
    """BokehJS itself, inline: its code only. (``Resources.render_js`` would add a script tag for
    every ``__javascript__`` file an imported model declares -- Panel's are relative paths of a
    served app that a file on disk cannot load -- and the charts need none of them.)"""
    code = Resources(mode="inline", components=["bokeh"]).js_raw
    return "".join(f"<script>\n{js}\n</script>\n" for js in code)


def _date(ts) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ts)) if isinstance(ts, (int, float)) else ""


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
        body += self._around_html()
        return (f"<!DOCTYPE html>\n<html lang='{self.lang}'>\n<head>\n<meta charset='utf-8'>\n"
                f"<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
                f"<meta name='generator' content='raisus_panel'>\n<title>{esc(title)}</title>\n"
                f"<style>\n{_css()}</style>\n{js}\n</head>\n<body>\n{self._head_html(title)}\n{body}\n"
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
        out = ""
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
