"""A contest in words, as escaped HTML: the header, each unit, the last roll, the result and the fates.

Shared by :class:`~raisus_panel.ui.ContestTable` (which puts its controls around them) and
:class:`~raisus_panel.ui.ContestView` (which shows only them). Every function takes ``t``, the
component's translate function (``t(key, **fields)``), and escapes everything people typed.
"""

from __future__ import annotations

from raisus_panel.rules import CharacterTeam

from . import _derive as d
from ._base import esc, team_pool_text
from ._charts import unit_colors

#: How the contest's words look wherever they are shown (the table's and the view's panes): a unit's
#: card edged in its chart line's colour, its dice left as a bar, a unit that is out greyed and marked in
#: words, and dice drawn as dice with sixes standing out. Colour never carries meaning alone. Page colours
#: come from Panel's theme variables, so a dark page (``?theme=dark``) reads as well as a light one.
CONTEST_CSS = """
.raisus-unit { border: 1px solid var(--panel-border-color, #d0d7de); border-left: 6px solid var(--unit, #8c959f);
  border-radius: 6px; padding: 4px 8px; margin: 5px 0; }
.raisus-unit.out { border-left-style: dashed; background: var(--panel-surface-color, #f6f8fa); opacity: .8; }
.swatch { display: inline-block; width: .8em; height: .8em; border-radius: 50%; background: var(--unit, #8c959f);
  margin-right: .35em; vertical-align: baseline; }
.out .name { text-decoration: line-through; }
.badge { display: inline-block; padding: 0 .45em; border-radius: 4px; font-size: max(12px, .85em); font-weight: 600;
  border: 1px solid currentColor; margin-left: .3em; }
.badge.out { color: var(--danger-text-color, #a40e26); }
.badge.mine { color: var(--success-text-color, #146c43); }
.bar { display: inline-block; width: 7em; height: .6em; border: 1px solid #8c959f; border-radius: 3px;
  vertical-align: middle; margin-right: .4em; overflow: hidden; background: var(--panel-background-color, #fff); }
.bar span { display: block; height: 100%; background: var(--unit, #57606a); }
table.dice { border-collapse: collapse; margin: 4px 0; }
table.dice td, table.dice th { padding: 3px 8px 3px 0; text-align: left; vertical-align: middle; }
table.dice th { font-weight: 600; font-size: 12px; opacity: .8; }
table.dice tr.won td:first-child { font-weight: 700; }
table.dice tr[style] td:first-child::before { content: ""; display: inline-block; width: .8em; height: .8em;
  border-radius: 50%; background: var(--unit); margin-right: .35em; }
.die, .die6 { display: inline-block; min-width: 1.7em; height: 1.7em; line-height: 1.55em; text-align: center;
  border: 1.5px solid var(--panel-on-background-color, #24292f); border-radius: 5px; margin: 1px 3px 1px 0;
  font-weight: 700; background: var(--panel-background-color, #fff); color: var(--panel-on-background-color, #24292f); }
.die6 { background: #1a7f37; border-color: #1a7f37; color: #fff; }
.total { font-weight: 700; margin-left: .2em; }
.tie { display: inline-block; padding: 0 .4em; border-radius: 4px; background: #fff8c5; color: #6f4e00;
  border: 1px solid #d4a72c; font-size: 12px; font-weight: 600; }
.verdict { font-weight: 700; }
"""


def dice_html(faces) -> str:
    """Dice drawn as dice: a box per face, sixes filled (and still a 6 in words: colour is not alone)."""
    return "".join(f"<span class=die{6 if int(f) == 6 else ''}>{int(f)}</span>" for f in faces)


def roll_table_html(event, labels, t, colors=None) -> str:
    """A decided round's dice: a row per side labelled ``labels[side]``, a column per attempt (a tie
    marked in words, then rolled again), each with its dice and total; the winner's row in bold.
    With ``colors`` (a colour per side, ``"#rrggbb"``), each row's label starts with a swatch in it."""
    attempts = event["attempts"]
    head = ""
    if len(attempts) > 1:
        cells = "".join(f"<th>{esc(t('roll.attempt_n', n=n))}"
                        + (f" <span class=tie>{esc(t('roll.tie'))}</span>" if a["total"] == b["total"] else "")
                        + "</th>" for n, (a, b) in enumerate(attempts, 1))
        head = f"<tr><th></th>{cells}</tr>"
    rows = []
    for side, label in enumerate(labels):
        cells = "".join(f"<td>{dice_html(attempt[side]['faces'])}<span class=total>= {int(attempt[side]['total'])}"
                        "</span></td>" for attempt in attempts)
        won = " class=won" if side == event["winner"] else ""
        color = f" style=--unit:{colors[side]}" if colors else ""
        rows.append(f"<tr{won}{color}><td>{esc(label)}</td>{cells}</tr>")
    return f"<table class=dice>{head}{''.join(rows)}</table>"


def unit_status(contest, u, t) -> str:
    """In the fight, broken (a team), dropped out or defeated; once the contest has ended, a unit
    still standing has won (its side won) or stood to the end."""
    if isinstance(u, CharacterTeam):
        if not contest.is_active(u.uid):
            return t("status.broken")
    elif contest.is_dropped(u):
        return t("status.dropped")
    elif contest.is_defeated(u):
        return t("status.defeated")
    if contest.status == "ended":
        return t("status.won") if contest.winner == d.side_of(contest, u.uid) else t("status.stood")
    return t("status.active")


def unit_kind(u, t) -> str:
    """Team, grunt mob or character."""
    if isinstance(u, CharacterTeam):
        return t("kind.team")
    return t("kind.grunt_mob") if d.is_mob(u) else t("kind.character")


def unit_out(contest, u) -> bool:
    """Whether a unit is out of the fight (defeated, dropped out, or a broken team)."""
    return not contest.is_active(u.uid)


def unit_open_tag(contest, u, colors: dict | None = None) -> str:
    """The opening ``<div>`` of a unit's card: edged in its chart line's colour, greyed when out."""
    color = (unit_colors(contest) if colors is None else colors).get(u.uid, "#8c959f")
    # no quotes where none are needed: Panel sends HTML entity-escaped, where each quote costs six bytes
    cls = "'raisus-unit out'" if unit_out(contest, u) else "raisus-unit"
    return f"<div class={cls} style=--unit:{color}>"


def dice_left_html(contest, u, t) -> str:
    """A character's or mob's dice left in the cliché it rolls, as a bar and in words ("3/4 dice");
    after a contest on tickets, in the ticket it fought on, named and marked as gone."""
    cliche = d.fought_with(contest, u)
    if cliche is None or not cliche.rating:
        return ""
    share = max(0, min(100, round(100 * cliche.current / cliche.rating)))
    words = esc(t("contest.dice_left", n=cliche.current, of=cliche.rating))
    if contest.ended_ticket(u.uid) is not None:
        words += f" · {esc(cliche.name)} ({esc(t('team.ticket_gone'))})"
    return f"<span class=bar aria-hidden=true><span style=width:{share}%></span></span>{words}"


def mine_badge(t, team: bool = False) -> str:
    """The badge that marks a player's own unit (or team member) on their page, in words."""
    return f"<span class='badge mine'>{esc(t('contest.yours_team' if team else 'contest.yours'))}</span>"


def cliche_html(contest, u, t) -> str:
    """An individual's chosen cliché in words ("Cliché: Ogre (8)", " · Inappropriate" when so); empty
    before a choice, and for a team (its members' lines say theirs)."""
    chosen = d.fought_with(contest, u)
    if chosen is None:
        return ""
    flag = f" · {esc(t('contest.inappropriate'))}" if contest.is_inappropriate(u.uid) else ""
    return f"{esc(t('contest.cliche'))}: {esc(chosen.label)}{flag}"


def unit_head_html(contest, u, t, color: str | None = None, *, mine: bool = False, cliche: bool = False) -> str:
    """A unit's card head: its colour, name, kind and status (a unit that is out says so, in words); a
    team's leader, pool and revenge bonus; an individual's dice left and, until the end, the dice it
    rolls; whether it waits for the GM's approval. ``color`` sets the unit's colour here (else the card
    around it sets it); ``mine`` marks it as the reader's own (:func:`mine_badge`); ``cliche`` adds its
    chosen cliché in words (:func:`cliche_html`), for a card that shows no picker."""
    out = unit_out(contest, u)
    badge = f"<span class='badge out'>{esc(t('contest.out'))}</span>" if out else ""
    if mine:
        badge += mine_badge(t, isinstance(u, CharacterTeam))
    bits = [f"<span class=swatch></span><b class=name>{esc(u.name)}</b>{badge} "
            f"<small>({esc(unit_kind(u, t))} · {esc(unit_status(contest, u, t))})</small>"]
    if isinstance(u, CharacterTeam):
        sixes = contest.profile.team_dice == "member_sixes"
        bits.append(esc(t("team.leader_is", name=u.leader.name)) + " · " + esc(team_pool_text(u, t, sixes=sixes)))
        if u.revenge:
            bits.append(f"<b>{esc(t('team.revenge_armed'))}</b>")
        if u.inappropriate:
            bits.append(esc(t("contest.team_inappropriate")))
    else:
        left = dice_left_html(contest, u, t)
        if contest.chosen(u.uid) is not None and contest.is_active(u.uid) and contest.status != "ended":
            left += (" · " if left else "") + esc(t("contest.pool", n=contest.pool(u.uid)))
        if left:
            bits.append(left)
        if cliche and (chosen := cliche_html(contest, u, t)):
            bits.append(chosen)
    if contest.needs_approval(u.uid):
        bits.append(f"<b>{esc(t('contest.awaits_approval'))}</b>")
    html = "<br>".join(bits)
    return f"<div style=--unit:{color}>{html}</div>" if color else html


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
    """The last roll as dice: every attempt (ties marked, then rolled again), the winner and the hits
    in words; empty before any roll."""
    event = contest.last_roll
    if not event:
        return ""
    names = d.names(contest)
    who = [names.get(u, u) for u in event["units"]]
    verdict = t("roll.winner", round=event["round"], name=who[event["winner"]])
    hits = "; ".join(t("roll.hit", name=names.get(h["character"], h["character"]), cliche=h["cliche"],
                       n=h["current"] + h["extra"]) for h in event["hits"])
    detail = f"<span class=verdict>{esc(verdict)}</span>" + (f"<br>{esc(hits)}" if hits else "")
    return (f"<div class=raisus-last-roll><b>{esc(t('roll.title'))}</b>{roll_table_html(event, who, t)}"
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
