"""The table view's state document: what a watching page shows of the contest, as plain JSON-ready data.

:func:`table_document` turns the adapter's contest into one flat mapping, in one language: the header,
the "what now" line, both sides (unit uids in order), one ``u:<uid>`` entry per unit (a token card:
colour, initials, cliché, dice left and lost, a team's members with its leader), the last roll with
every attempt (ties marked; a side's faces as a string of digits), the result, the fates, the score
chart's series and points, and the live odds: in words (as :class:`~raisus_panel.ui.LiveOdds` says
them) and side A's chances over the rounds (``trail``, one row per chart point, each rated as the
contest stood then). Texts come from the catalogs; everything is plain text (the page puts it in
``textContent``, never as HTML).

Pages get it once and then only what changed (:func:`raisus_panel.room.deltas.make_delta`): a unit's
entry is sent again only when that unit changed, and the charts' points are appended one per round.
"""

from __future__ import annotations

from typing import Any

from raisus_panel import i18n
from raisus_panel.rules import CharacterTeam

from . import _contest_text as text
from . import _derive as d
from ._base import percent, team_pool_text
from ._charts import SIDE_COLORS, SIDE_DASHES, series_styles, unit_colors
from ._next_step import next_step
from ._trail import trail
from .live_odds import contest_chances, odds_lines

__all__ = ["LABEL_KEYS", "NUMBER_KEYS", "initials", "ink", "labels", "table_document"]

#: The catalog keys the page itself needs (headings, the chart's words), sent once per language.
LABEL_KEYS = ("chart.round", "contest.cliche", "contest.out", "contest.status_ended", "odds.chart_title",
              "odds.no_contest", "odds.p_exchange_short", "odds.p_next_short", "odds.p_win_short", "roll.tie",
              "roll.title", "side.0", "side.1", "table.chart", "table.chart_key", "table.vs", "what_now.label")

#: Texts of a round number the page fills in itself (``{n}`` is the number's only field): the round
#: would otherwise come again in words with every roll. ``labels`` sends them unfilled.
NUMBER_KEYS = ("contest.next_round", "contest.round", "roll.attempt_n")


def labels(lang: str) -> dict[str, str]:
    """The page's own words in ``lang`` (:data:`LABEL_KEYS`, and :data:`NUMBER_KEYS` with ``{n}`` in them)."""
    return {key: i18n.t(key, lang) for key in (*LABEL_KEYS, *NUMBER_KEYS)}


def initials(name: str) -> str:
    """A token's letters: the first letter of the first two words ("Sir Ann" -> "SA"; "기사 아린" -> "기아")."""
    words = name.split() or ["?"]
    return "".join(w[0] for w in words[:2]).upper()


def ink(color: str) -> str:
    """Black or white, whichever reads better on ``color`` ("#rrggbb"): initials on a token."""
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "#000000" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "#ffffff"


def _dice(contest, u) -> dict[str, int] | None:
    """An individual's chosen cliché as dice: ``left`` (current) and ``lost`` (rating - current)."""
    cliche = d.fought_with(contest, u)
    if cliche is None or not cliche.rating:
        return None
    return {"left": max(0, cliche.current), "lost": max(0, cliche.rating - cliche.current)}


def _member_dice(team, m) -> dict[str, int]:
    """A team member's cliché as dice (``left`` and ``lost``), as :func:`_dice` for an individual."""
    cliche = team.cliche_of(m)
    return {"left": max(0, cliche.current), "lost": max(0, cliche.rating - cliche.current)}


def _unit(contest, u, colors: dict, t) -> dict[str, Any]:
    color = colors.get(u.uid, "#8c959f")
    out = text.unit_out(contest, u)
    entry: dict[str, Any] = {
        "name": u.name, "initials": initials(u.name), "color": color, "ink": ink(color),
        "kind": text.unit_kind(u, t), "status": text.unit_status(contest, u, t), "out": out,
        "fallen": out and not isinstance(u, CharacterTeam) and contest.is_defeated(u)}
    notes = []
    if isinstance(u, CharacterTeam):
        sixes = contest.profile.team_dice == "member_sixes"
        entry["team"] = True
        entry["leader"] = u.leader.name
        entry["pool"] = team_pool_text(u, t, sixes=sixes)
        # keyed by place, not a list: a member whose dice changed is sent alone (see room/deltas.py)
        entry["members"] = {str(i): {"name": m.name, "initials": initials(m.name), "color": colors.get(m.uid, color),
                             "ink": ink(colors.get(m.uid, color)), "leader": m is u.leader,
                             "down": not u.is_active(m), "line": text.member_label(u, m, t),
                             "dice": _member_dice(u, m)}
                            for i, m in enumerate(u.members)}
        if u.revenge:
            notes.append(t("team.revenge_armed"))
        if u.inappropriate:
            notes.append(t("contest.team_inappropriate"))
    else:
        chosen = d.fought_with(contest, u)
        entry["cliche"] = chosen.label if chosen is not None else ""
        if contest.ended_ticket(u.uid) is not None:
            notes.append(t("team.ticket_gone"))
        entry["dice"] = _dice(contest, u)
        if chosen is not None:
            entry["dice_words"] = t("contest.dice_left", n=chosen.current, of=chosen.rating)
            if contest.is_active(u.uid):
                entry["pool"] = t("contest.pool", n=contest.pool(u.uid))
        if contest.is_inappropriate(u.uid):
            notes.append(t("contest.inappropriate"))
    if contest.needs_approval(u.uid):
        notes.append(t("contest.awaits_approval"))
    entry["notes"] = notes
    return entry


def _roll(contest, t) -> dict[str, Any] | None:
    event = contest.last_roll
    if not event:
        return None
    names = d.names(contest)
    who = [names.get(u, u) for u in event["units"]]
    colors = unit_colors(contest)
    hits = [t("roll.hit", name=names.get(h["character"], h["character"]), cliche=h["cliche"],
              n=h["current"] + h["extra"]) for h in event["hits"]]
    # the page words "Attempt 2" itself (roll.attempt_n); "tie" only on a tie: a roll is news every round.
    # The faces as digits ("3261"), a die a character: half the bytes of a list of numbers
    attempts = [{"sides": [{"faces": "".join(str(int(f)) for f in x["faces"]), "total": int(x["total"])}
                           for x in (a, b)],
                 **({"tie": True} if a["total"] == b["total"] else {})}
                for a, b in event["attempts"]]
    return {"round": event["round"], "names": who, "colors": [colors.get(u, "#8c959f") for u in event["units"]],
            "winner": event["winner"], "verdict": t("roll.winner", round=event["round"], name=who[event["winner"]]),
            "hits": hits, "attempts": attempts}


def _result(contest, t) -> str:
    if contest.status != "ended":
        return ""
    if contest.winner is None:
        return t("contest.ended_no_winner")
    return t("contest.ended_winner", side=t(f"side.{contest.winner}"),
             names=", ".join(u.name for u in contest.sides[contest.winner]))


def _fate(contest, uid: str, t) -> str:
    """:func:`._contest_text.fate_html`'s words as plain text."""
    written = contest.fates.get(uid)
    if written:
        return t("contest.fate_written", text=written)
    vetoed = last = None
    for event in contest.events:
        if event.get("character") == uid and event["type"] == "fate_decided":
            vetoed, last = None, event["text"]
        elif event.get("character") == uid and event["type"] == "fate_vetoed":
            vetoed = last
    return t("contest.fate_vetoed", text=vetoed) if vetoed is not None else t("contest.fate_owed")


def _series(contest) -> tuple[list[dict], list[dict]]:
    """The chart's series (key, label, colour, dash, dot fill) and its points, one per history point:
    ``x`` (rounds; halves between rounds), and ``s``, the scores in the series' order."""
    styles = series_styles(contest)
    keys = list(contest.series)
    series = [{"key": k, "label": contest.series[k], "color": styles[k][0], "dash": styles[k][1] == SIDE_DASHES[1],
               "hollow": styles[k][2] == "white"} for k in keys]
    points = [{"x": _x(p["x"]), "s": [p["scores"].get(k) for k in keys if k in p["scores"]]} for p in contest.history]
    return series, points


def _x(x: float) -> float:
    """A chart point's round as the page gets it: a whole round as a whole number ("3", not "3.0")."""
    return int(x) if float(x).is_integer() else x


def _chance(p) -> float | None:
    """A chance as the page draws it: four decimals are finer than a pixel, and fewer bytes -- but a
    chance that is not certain never rounds to 0 or 1 (the page words it as ``percent`` does)."""
    if p is None:
        return None
    p = float(p)
    return round(min(max(p, 0.0001), 0.9999), 4) if 0 < p < 1 else p


def _odds(contest, t) -> tuple[dict[str, Any], list[list]]:
    """The live odds in words (and side A's chance of the contest, with both sides' percentages for
    the bar), and the chances' trail: ``[x, contest, next round, an exchange]`` per chart point."""
    chances = contest_chances(contest)
    lines, notice = odds_lines(contest, chances, t)
    odds: dict[str, Any] = {"lines": lines, "notice": notice, "colors": list(SIDE_COLORS),
                            "ink": [ink(c) for c in SIDE_COLORS]}
    if chances.p_win is not None and chances.mode != "ended":
        odds["win"] = _chance(chances.p_win)
        odds["win_text"] = [percent(chances.p_win), percent(1 - chances.p_win)]
    rows = []
    for point, at in zip(contest.history, trail(contest, contest_chances)):
        c = at.chances
        rows.append([_x(point["x"]), *(_chance(getattr(c, k, None)) for k in ("p_win", "p_next", "p_exchange"))])
    return odds, rows


def table_document(actions, lang: str) -> dict[str, Any]:
    """The watching table of ``actions``' contest in ``lang``, stamped with the room's ``seq``.

    Built from the adapter's own contest (the room's public state), so it holds only what the
    adapter's role may see; the "what now" line is the one :class:`~raisus_panel.ui.WhatNow` shows
    that role.
    """
    def t(key, **fields):
        return i18n.t(key, lang, **fields)

    contest = actions.contest
    step = next_step(actions)
    doc: dict[str, Any] = {"seq": int(actions.seq), "now": step.text(lang), "mine": bool(step.mine)}
    if contest is None:
        doc["contest"] = False
        return doc
    colors = unit_colors(contest)
    series, points = _series(contest)
    odds, chances = _odds(contest, t)
    names = d.names(contest)
    doc.update({
        # the page words the round itself ("Round 3", "next: round 4": NUMBER_KEYS), after the mode
        "contest": True, "name": contest.name, "round": contest.round, "ended": contest.status == "ended",
        "mode": t("contest.single_roll") if contest.single_roll else t("contest.rounds_mode"),
        "sides": [[u.uid for u in side] for side in contest.sides],
        "roll": _roll(contest, t), "result": _result(contest, t), "outcome": contest.outcome or "",
        "fates": [{"name": names.get(uid, uid), "text": _fate(contest, uid, t)} for uid in contest.owed_fates],
        "series": series, "points": points, "odds": odds, "trail": chances})
    for side in contest.sides:
        for u in side:
            doc[f"u:{u.uid}"] = _unit(contest, u, colors, t)
    return doc
