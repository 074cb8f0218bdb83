"""The report's place for a contest's committed dice: the commitment, the reveal and its check.

A contest rolled with committed dice publishes, in its log, the SHA-256 commitment of the server's
seed before the first roll, the players' client seeds, and the seed itself once the contest ends.
This section shows them and the result of recomputing every die (:func:`~raisus_panel.rules.verify_contest`,
run when the report is made), with how a reader checks it again by themselves. A contest rolled with
other dice (a game from before committed dice, a notebook's seeded dice) has no such section: the
stylesheet hides an empty one.
"""

from __future__ import annotations

from raisus_panel.rules import verify_contest
from raisus_panel.ui.kit import esc


def contest_events(part) -> list[dict]:
    """The contest's own events for checking its dice: every one the room's log holds, those undo took
    back too (their dice were drawn all the same), or the contest's own log for a contest's save."""
    if part.events:
        return [dict(e["event"]) for e in part.events]
    return list(part.contest.events)


def verification_html(part, t) -> str:
    """The escaped HTML of ``part``'s commitment, reveal and verification; "" when it has none.

    Parameters
    ----------
    part
        The contest (:class:`~.sources.ContestPart`): ``part.contest`` and ``part.events``, the
        room events of this contest that the report's reader may see.
    t
        The report's translate function, ``t(key, **fields)``.
    """
    events = contest_events(part)
    check = verify_contest(events, name=part.contest.name)
    if check.status == "uncommitted":
        return ""
    if check.ok:
        verdict, mark = t("report.dice.verified", rolls=check.rolls, dice=check.dice), "ok"
        if check.unused:
            verdict += " " + t("report.dice.unused", unused=", ".join(map(str, check.unused)))
    elif check.status == "failed":
        assert check.problem is not None  # a failed check names its problem
        verdict, mark = t("report.dice.failed", problem=t(check.problem.key, **check.problem.fields)), "failed"
    else:
        verdict, mark = t("report.dice.unrevealed", rolls=check.rolls), "unrevealed"
    rows = []
    for number, committed in enumerate(check.commitments, 1):
        seed = committed["seed"]
        rows.append(f"<tr><td>{number}</td><td>{committed['first_roll']}</td>"
                    f"<td><code>{esc(committed['commitment'])}</code></td>"
                    f"<td><code>{esc(seed) if seed else esc(t('report.dice.secret'))}</code></td></tr>")
    head = "".join(f"<th>{esc(t(k))}</th>" for k in
                   ("report.dice.number", "report.dice.first_roll", "report.dice.commitment", "report.dice.seed"))
    seeds = _client_seeds(events, part)
    clients = (f"<p>{esc(t('report.dice.client_seeds'))}: "
               + ", ".join(f"{esc(who)} <code>{esc(seed)}</code>" for who, seed in seeds) + "</p>") if seeds else ""
    return (f"<h3>{esc(t('report.dice.title'))}</h3>"
            f"<p class='dice-verdict {mark}'>{esc(verdict)}</p>"
            f"<table class=commitments><tr>{head}</tr>{''.join(rows)}</table>{clients}"
            f"<p class=soft>{esc(t('report.dice.how'))}</p>")


def _client_seeds(events: list[dict], part) -> list[tuple[str, str]]:
    """Each client seed mixed into the dice, last one given per person, by name where the room knows it."""
    seeds: dict[str, str] = {}
    for event in events:
        if event.get("type") == "dice_committed":
            seeds.update({str(k): str(v) for k, v in dict(event.get("client_seeds") or {}).items()})
        elif event.get("type") == "client_seed_set":
            seeds[str(event["who"])] = str(event["seed"])
    players = dict(getattr(getattr(part.actions, "room", None), "players", None) or {})
    return [(players.get(who, who), seed) for who, seed in seeds.items()]
