"""A contest in words, as escaped HTML: the header, each unit, the last roll, the result and the fates.

Shared by :class:`~raisus_panel.ui.ContestTable` (which puts its controls around them) and
:class:`~raisus_panel.ui.ContestView` (which shows only them). Every function takes ``t``, the
component's translate function (``t(key, **fields)``), and escapes everything people typed.
"""

from __future__ import annotations

from raisus_panel.rules import CharacterTeam

from . import _derive as d
from ._base import esc, team_pool_text


def unit_status(contest, u, t) -> str:
    """Active, broken (a team), dropped out or defeated."""
    if isinstance(u, CharacterTeam):
        return t("status.active") if contest.is_active(u.uid) else t("status.broken")
    if contest.is_dropped(u):
        return t("status.dropped")
    if contest.is_defeated(u):
        return t("status.defeated")
    return t("status.active")


def unit_kind(u, t) -> str:
    """Team, grunt mob or character."""
    if isinstance(u, CharacterTeam):
        return t("kind.team")
    return t("kind.grunt_mob") if d.is_mob(u) else t("kind.character")


def unit_head_html(contest, u, t) -> str:
    """A unit's card head: name, kind and status; a team's leader, pool and revenge bonus; an
    individual's pool; whether it waits for the GM's approval."""
    bits = [f"<b>{esc(u.name)}</b> <small>({esc(unit_kind(u, t))} · {esc(unit_status(contest, u, t))})</small>"]
    if isinstance(u, CharacterTeam):
        sixes = contest.profile.team_dice == "member_sixes"
        bits.append(esc(t("team.leader_is", name=u.leader.name)) + " · " + esc(team_pool_text(u, t, sixes=sixes)))
        if u.revenge:
            bits.append(f"<b>{esc(t('team.revenge_armed'))}</b>")
        if u.inappropriate:
            bits.append(esc(t("contest.team_inappropriate")))
    elif contest.chosen(u.uid) is not None and contest.is_active(u.uid):
        bits.append(esc(t("contest.pool", n=contest.pool(u.uid))))
    if contest.needs_approval(u.uid):
        bits.append(f"<b>{esc(t('contest.awaits_approval'))}</b>")
    return "<br>".join(bits)


def member_label(team, m, t) -> str:
    """A team member's line (plain text): name, team cliché, inappropriate, dropped/down/leader.

    A ticket's cliché that vanished when the contest ended is shown as it stood at the end, marked
    as gone, e.g. "Knight — Pie (1/2) · ticket, gone since the contest ended (leader)".
    """
    state = (t("status.dropped") if m.uid in team.dropped else
             t("status.down") if not team.is_active(m) else
             t("team.leader") if m is team.leader else "")
    flag = "" if team.appropriate[m.uid] else " · " + t("contest.inappropriate")
    if team.cliche_gone(m):
        flag += " · " + t("team.ticket_gone")
    return f"{m.name} — {team.cliche_of(m).label}{flag}" + (f" ({state})" if state else "")


def header_html(contest, t) -> str:
    """The contest's name, mode, and where it stands: the round to come, or how many were played."""
    mode = t("contest.single_roll") if contest.single_roll else t("contest.rounds_mode")
    if contest.status == "ended":
        status = f"{t('contest.status_ended')} · {t('contest.round', n=contest.round)}"
    else:
        status = t("contest.next_round", n=contest.round + 1)
    return f"<h3>{esc(contest.name)}</h3><div>{esc(mode)} · {esc(status)}</div>"


def last_roll_html(contest, t) -> str:
    """Every attempt of the last roll (ties marked), the winner and the hits; empty before any roll."""
    event = contest.last_roll
    if not event:
        return ""
    names = d.names(contest)
    who = [names.get(u, u) for u in event["units"]]
    lines = []
    for i, attempt in enumerate(event["attempts"], 1):
        a, b = attempt
        text = t("roll.attempt", n=i, a=who[0], fa=", ".join(map(str, a["faces"])), ta=a["total"],
                 b=who[1], fb=", ".join(map(str, b["faces"])), tb=b["total"])
        if a["total"] == b["total"]:
            text += " — " + t("roll.tie")
        lines.append(f"<li>{esc(text)}</li>")
    verdict = t("roll.winner", round=event["round"], name=who[event["winner"]])
    hits = "; ".join(t("roll.hit", name=names.get(h["character"], h["character"]), cliche=h["cliche"],
                       n=h["current"] + h["extra"]) for h in event["hits"])
    detail = esc(verdict) + (f"<br>{esc(hits)}" if hits else "")
    return (f"<div class=raisus-last-roll><b>{esc(t('roll.title'))}</b><ol>{''.join(lines)}</ol>"
            f"{detail}</div>")


def result_html(contest, t) -> str:
    """Who won and the outcome, once the contest ended; else empty."""
    if contest.status != "ended":
        return ""
    if contest.winner is None:
        text = t("contest.ended_no_winner")
    else:
        text = t("contest.ended_winner", side=t(f"side.{contest.winner}"),
                 names=", ".join(u.name for u in contest.sides[contest.winner]))
    out = f"<h4>{esc(text)}</h4>"
    if contest.outcome:
        out += f"<p>{esc(contest.outcome)}</p>"
    return out


def fate_html(contest, uid: str, t) -> str:
    """The fate written for a loser, or that it is still owed -- and, after a veto, which fate the GM
    vetoed, so the players who wrote it (and the loser) are told."""
    written = contest.fates.get(uid)
    if written:
        return esc(t("contest.fate_written", text=written))
    vetoed = None
    for event in contest.events:
        if event.get("character") == uid and event["type"] == "fate_decided":
            vetoed = None
            last = event["text"]
        elif event.get("character") == uid and event["type"] == "fate_vetoed":
            vetoed = last
    if vetoed is not None:
        return f"<i>{esc(t('contest.fate_vetoed', text=vetoed))}</i>"
    return f"<i>{esc(t('contest.fate_owed'))}</i>"
