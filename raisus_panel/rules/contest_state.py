"""How each event changes a contest: the projection of the event log, and the chart history.

:class:`~raisus_panel.rules.contest.Contest` decides (commands check the rules and roll); this module
applies. Every ``_on_<event type>`` handler changes state only from the event's own data -- the dice
faces and the points lost are in the event (``events.py`` documents each type) -- so replaying a log
always gives the same contest. :meth:`ContestProjection._publish` then shows the private state on the
contest's public parameters in one update.
"""

from __future__ import annotations

from typing import Any

from .character import Character
from .cliche import Cliche
from .commitment import rolls_of
from .contest_parts import ContestParts
from .events import EVENT_FIELDS
from .team import CharacterTeam


class ContestProjection(ContestParts):
    """Mixin of :class:`~raisus_panel.rules.contest.Contest`: applies events and keeps the history.

    It relies on the contest's lookups (``_unit``, ``_side_of``, ``_team_of``, ``characters``,
    ``chosen``; see :class:`~raisus_panel.rules.contest_queries.ContestQueries`) and owns the
    private state they read.
    """

    def _reset(self) -> None:
        """Put every character and team back as it was when the contest started."""
        start = self._events[0]
        for data in start["characters"]:
            char = self._objects.get(data["uid"])
            if char is None:
                self._objects[data["uid"]] = Character.from_dict(data)
                continue
            fresh = {c["name"]: c for c in data["cliches"]}
            kept = {c.name: c for c in char.cliches if c.name in fresh}
            for name, cliche in kept.items():
                cliche.param.update(current=fresh[name]["current"], extra=fresh[name].get("extra", 0))
            char.lucky_left = data.get("lucky_left", 0)
            restored = [kept.get(name) or Cliche.from_dict(d, max_rating=char.max_rating)
                        for name, d in fresh.items()]
            if [c.name for c in restored] != [c.name for c in char.cliches]:
                char.cliches = restored
        self._teams = {uid: t for uid, t in self._teams.items()
                       if uid in {d["uid"] for d in start["teams"]}}
        for data in start["teams"]:
            team = self._teams.get(data["uid"]) or self._team_from_dict(data)
            team.param.update(revenge=data["revenge"], dropped=list(data["dropped"]),
                              approved=data["approved"])
            self._teams[team.uid] = team
        self._side_ids = [list(s) for s in start["sides"]]
        self._choice: dict[str, dict[str, Any]] = {}
        #: pumps and lucky shots declared for a unit's next roll: unit -> points; unit -> {character: shots}
        self._pumps: dict[str, int] = {}
        self._lucky: dict[str, dict[str, int]] = {}
        self._start_scores: dict[str, dict[str, int]] = {}
        self._dropped: set[str] = set()
        self._window: dict[str, Any] | None = None
        self._carry = [False, False]
        self._rounds = 0
        self._exchanges = 0
        self._rolled = False
        self._status, self._winner, self._outcome = "active", None, ""
        self._owed: list[str] = []
        self._fates: dict[str, str] = {}
        self._history: list[dict[str, Any]] = []
        self._series: dict[str, str] = {}
        self._last_roll: dict[str, Any] | None = None
        self._tickets = False
        self._final: dict[str, Any] | None = None
        #: the commitment in force (committed dice): commitment, scope, first_roll, client_seeds,
        #: rolled (a roll of it is in the log), revealed
        self._dice_session: dict[str, Any] | None = None
        #: the first roll number no committed roll of the log has used
        self._next_roll = 1
        #: every commitment the log holds, and those it reveals
        self._commitments: set[str] = set()
        self._revealed: set[str] = set()

    def _team_from_dict(self, data: dict[str, Any]) -> CharacterTeam:
        members = [(self._objects[m["character"]], m["cliche"], m["appropriate"]) for m in data["members"]]
        return CharacterTeam(members, leader=self._objects[data["leader"]], name=data["name"],
                             uid=data["uid"])

    # ---------------------------------------------------------------------- applying the events --
    def _project(self, events: list[dict[str, Any]]) -> None:
        """Build the state from a whole log (its start resets everything first)."""
        for event in events:
            self._apply(event)

    def _apply(self, event: dict[str, Any]) -> None:
        if event["type"] not in EVENT_FIELDS:  # only events have handlers: a damaged log names no other method
            raise ValueError(f"unknown event type {event['type']!r}")
        getattr(self, f"_on_{event['type']}")(event)

    def _publish(self) -> None:
        """Project the private state onto the public parameters in one update, so watchers fire once."""
        self.param.update(
            name=self._name, status=self._status, round=self._rounds, winner=self._winner,
            outcome=self._outcome, sides=[[self._unit(u) for u in side] for side in self._side_ids],
            owed_fates=list(self._owed), fates=dict(self._fates), events=list(self._events),
            history=list(self._history), series=dict(self._series), last_roll=self._last_roll,
        )

    def _on_contest_started(self, event: dict[str, Any]) -> None:
        if event is not self._events[0]:  # a damaged log: starting again would silently reset the contest
            raise ValueError("a contest's log has one start, at its beginning")
        for data in event["characters"]:
            if data["uid"] not in self._objects:
                self._objects[data["uid"]] = Character.from_dict(data)
        self._name = event["name"]
        self._reset()
        for char in self.characters():
            self._start_scores[char.uid] = {c.name: c.pool for c in char.cliches}
            usable = [c for c in char.cliches if c.pool > 0]
            if len(usable) == 1 and not self._team_of(char):
                self._choice[char.uid] = {"cliche": usable[0].name, "appropriate": True, "approved": False}
        self._refresh_series()
        self._point("start", x=0.0)

    def _apply_hits(self, hits: list[dict[str, Any]], sign: int = -1) -> None:
        for h in hits:
            cliche = self._objects[h["character"]].cliche(h["cliche"])
            cliche.param.update(extra=cliche.extra + sign * h["extra"], current=cliche.current + sign * h["current"])

    def _on_cliche_chosen(self, event: dict[str, Any]) -> None:
        self._choice[event["unit"]] = {k: event[k] for k in ("cliche", "appropriate", "approved")}
        self._refresh_series()
        self._setup_point()

    def _on_approved(self, event: dict[str, Any]) -> None:
        uid = event["unit"]
        if uid in self._teams:
            self._teams[uid].approved = True
        else:
            self._choice[uid]["approved"] = True

    def _on_pumped(self, event: dict[str, Any]) -> None:
        self._pumps[event["unit"]] = event["amount"]

    def _on_lucky_declared(self, event: dict[str, Any]) -> None:
        self._lucky[event["unit"]] = {**self._lucky.get(event["unit"], {}), event["character"]: event["amount"]}

    def _on_costs_paid(self, event: dict[str, Any]) -> None:
        self._apply_hits(event["hits"])
        for spent in event["lucky"]:
            char = self._objects[spent["character"]]
            char.lucky_left -= spent["amount"]
        for uid in event["units"]:
            self._pumps.pop(uid, None)
            self._lucky.pop(uid, None)
        if self._window:  # a leader who paid its pump after a lost round may be down now
            team = self._teams[self._window["team"]]
            self._window["leader_down"] = (team.cliche_of(team.lead).pool == 0
                                           and any(m is not team.leader for m in team.active_members))
        self._refresh_series()
        if self._history and self._history[-1]["kind"] == "round":  # the round's point shows what it cost
            self._history[-1]["scores"] = self._scores()

    def _forget_bonus(self, *uids: str) -> None:
        """Units that formed into a team or came out of one roll no more as declared."""
        for uid in uids:
            self._pumps.pop(uid, None)
            self._lucky.pop(uid, None)

    def _on_tickets_given(self, event: dict[str, Any]) -> None:
        self._tickets = True
        for uid in event["temporary"]:
            char = self._objects[uid]
            char.add_cliche(event["cliche"], event["rating"], temporary=True)
            self._start_scores.setdefault(uid, {})[event["cliche"]] = event["rating"]
            self._choice[uid] = {"cliche": event["cliche"], "appropriate": True, "approved": False}
        for b in event["brevet"]:
            cliche = self._objects[b["character"]].cliche(b["cliche"])
            cliche.extra += event["rating"]
            self._start_scores.setdefault(b["character"], {})[b["cliche"]] = cliche.pool
            self._choice[b["character"]] = {"cliche": b["cliche"], "appropriate": True, "approved": False}
        self._refresh_series()
        self._setup_point()

    def _on_team_formed(self, event: dict[str, Any]) -> None:
        data = event["team"]
        team = self._teams.get(data["uid"]) or self._team_from_dict(data)
        team.param.update(revenge=self._carry[event["side"]], dropped=[], approved=False)
        self._teams[team.uid] = team
        self._forget_bonus(*(m.uid for m in team.members))
        self._carry[event["side"]] = False
        side = self._side_ids[event["side"]]
        members = {m.uid for m in team.members}
        at = min(i for i, u in enumerate(side) if u in members)
        rest = [u for u in side if u not in members]
        rest.insert(min(at, len(rest)), team.uid)
        self._side_ids[event["side"]] = rest
        self._refresh_series()
        self._between_point("team_formed", team=team.uid) if self._rolled else self._setup_point()

    def _on_round_decided(self, event: dict[str, Any]) -> None:
        self._rolled = True
        self._note_draw(event)
        self._window = None
        self._carry = [False, False]
        self._apply_hits(event["hits"])
        for spec in event["used"]:
            if spec["unit"] in self._teams:
                self._teams[spec["unit"]].revenge = False
            else:
                prev = self._choice.get(spec["unit"], {"appropriate": True, "approved": False})
                self._choice[spec["unit"]] = {**prev, "cliche": spec["cliche"]}
        loser = event["units"][1 - event["winner"]]
        if loser in self._teams and event["hits"]:
            team = self._teams[loser]
            self._window = {"team": loser, "damage": event["damage"], "hits": event["hits"],
                            "leader_down": team.cliche_of(team.lead).pool == 0
                            and any(m is not team.leader for m in team.active_members)}
        self._last_roll = event
        self._exchanges += 1
        self._refresh_series()
        self._point("round", x=float(self._rounds + 1), seq=event["seq"], winner=event["winner"],
                    damage=event["damage"], faces=[[r["faces"] for r in a] for a in event["attempts"]],
                    totals=[event["attempts"][-1][0]["total"], event["attempts"][-1][1]["total"]],
                    units=event["units"])
        if event["closes_round"]:
            self._rounds += 1
            self._exchanges = 0

    def _on_round_ended(self, event: dict[str, Any]) -> None:
        self._rounds += 1
        self._exchanges = 0
        self._window = None

    def _on_volunteered(self, event: dict[str, Any]) -> None:
        self._apply_hits(event["restore"], sign=+1)
        self._apply_hits(event["hits"])
        self._teams[event["team"]].revenge = True
        self._window = None
        self._between_point("volunteered", team=event["team"], member=event["member"])

    def _on_loss_assigned(self, event: dict[str, Any]) -> None:
        self._apply_hits(event["restore"], sign=+1)
        self._apply_hits(event["hits"])
        self._window = None
        self._between_point("loss_assigned", team=event["team"], member=event["member"])

    def _on_team_disbanded(self, event: dict[str, Any]) -> None:
        team = self._teams[event["team"]]
        self._apply_hits(event["hits"])
        self._forget_bonus(team.uid)
        side = self._side_of(team.uid)
        ids = self._side_ids[side]
        at = ids.index(team.uid)
        members = [m.uid for m in team.members]
        self._side_ids[side] = ids[:at] + members + ids[at + 1:]
        for m in team.members:
            self._choice[m.uid] = {"cliche": team.member_cliches[m.uid],
                                   "appropriate": team.appropriate[m.uid], "approved": team.approved}
        self._carry[side] = bool(event["revenge_carry"])
        team.revenge = False
        if self._window and self._window["team"] == team.uid:
            self._window = None
        self._between_point("team_disbanded", team=team.uid, reason=event["reason"])

    def _on_dropped_out(self, event: dict[str, Any]) -> None:
        self._apply_hits(event["hits"])
        self._dropped.add(event["member"])
        team = self._teams[event["team"]]
        team.dropped = [*team.dropped, event["member"]]
        self._window = None
        self._between_point("dropped_out", team=event["team"], member=event["member"])

    def _on_contest_ended(self, event: dict[str, Any]) -> None:
        self._status, self._winner = "ended", event["winner"]
        self._outcome, self._owed, self._window = event["outcome"], list(event["owed"]), None
        self._carry = [False, False]  # contest-only state (RULES.md §3): no revenge is pending any more
        if self._exchanges:  # a round played as exchanges that decided the contest counts as played
            self._rounds += 1
            self._exchanges = 0
        # Defeat is read from the clichés, and the end is about to remove tickets and brevet dice
        # (the evidence of a defeat on them): keep the final standing for the status queries.
        self._final = {
            "defeated": frozenset(ch.uid for ch in self.characters() if self.is_defeated(ch)),
            "active_teams": frozenset(u for side in self._side_ids for u in side
                                      if u in self._teams and self.is_active(u)),
            # the ticket each individual fought on, as it stood at the end (a card still shows it)
            "tickets": {u: cliche for side in self._side_ids for u in side
                        if u not in self._teams and (cliche := self.chosen(u)) is not None and cliche.temporary},
        }
        for char in self.characters():
            if any(c.temporary for c in char.cliches):
                char.cliches = [c for c in char.cliches if not c.temporary]
            for c in char.cliches:
                if c.extra:
                    c.extra = 0
        for team in self._teams.values():
            team.revenge = False

    def _on_fate_decided(self, event: dict[str, Any]) -> None:
        self._fates[event["character"]] = event["text"]

    def _on_fate_vetoed(self, event: dict[str, Any]) -> None:
        self._fates.pop(event["character"], None)

    def _on_dice_committed(self, event: dict[str, Any]) -> None:
        self._dice_session = {"commitment": event["commitment"], "scope": event["scope"],
                              "first_roll": event["first_roll"], "client_seeds": dict(event["client_seeds"]),
                              "rolled": False, "revealed": False}
        self._commitments.add(event["commitment"])
        self._next_roll = max(self._next_roll, event["first_roll"])

    def _on_client_seed_set(self, event: dict[str, Any]) -> None:
        if self._dice_session is None:
            raise ValueError("a client seed before any commitment")
        self._dice_session["client_seeds"] = {**self._dice_session["client_seeds"], event["who"]: event["seed"]}

    def _on_dice_revealed(self, event: dict[str, Any]) -> None:
        if self._dice_session is not None and self._dice_session["commitment"] == event["commitment"]:
            self._dice_session["revealed"] = True
        self._revealed.add(event["commitment"])
        self._next_roll = max(self._next_roll, event["next_roll"])

    def _note_draw(self, event: dict[str, Any]) -> None:
        """A committed round: its commitment has rolled, and the counter moves past its rolls."""
        if event.get("draw") is not None:
            if self._dice_session is not None:
                self._dice_session["rolled"] = True
            self._next_roll = max(self._next_roll, event["draw"] + len(rolls_of(event)))

    def _on_recovered(self, event: dict[str, Any]) -> None:
        for g in event["gains"]:
            cliche = self._objects[g["character"]].cliche(g["cliche"])
            cliche.current += g["amount"]
        self._between_point("recovered", characters=sorted({g["character"] for g in event["gains"]}))

    # ------------------------------------------------------------------------------- history --
    def _refresh_series(self) -> None:
        """Every cliché in play so far becomes a chart series, and stays one."""
        for side in self._side_ids:
            for uid in side:
                obj = self._unit(uid)
                if isinstance(obj, CharacterTeam):
                    pairs = [(m, obj.member_cliches[m.uid]) for m in obj.members]
                else:
                    cliche = self.chosen(obj)
                    pairs = [(obj, cliche.name)] if cliche else []
                for char, cliche_name in pairs:
                    key = f"{char.uid}:{cliche_name}"
                    if key not in self._series:
                        label = char.name if cliche_name == char.name else f"{char.name} · {cliche_name}"
                        self._series[key] = label

    def _scores(self) -> dict[str, int]:
        out = {}
        for key in self._series:
            uid, cliche_name = key.split(":", 1)
            char = self._objects[uid]
            out[key] = char.cliche(cliche_name).pool if char.has_cliche(cliche_name) else 0
        return out

    def _point(self, kind: str, *, x: float, **details: Any) -> None:
        self._history.append({"round": self._rounds if kind != "round" else self._rounds + 1, "x": x,
                              "kind": kind, "scores": self._scores(), **details})

    def _setup_point(self) -> None:
        """Before the first roll, setup changes rewrite the round-0 point instead of adding one."""
        if not self._rolled:
            self._history = [h for h in self._history if h["kind"] != "start"]
            self._point("start", x=0.0)
            self._history.sort(key=lambda h: h["x"])
        else:
            self._between_point("cliche_chosen")

    def _between_point(self, kind: str, **details: Any) -> None:
        self._point(kind, x=self._rounds + 0.5, **details)

    def history_rows(self) -> list[dict[str, Any]]:
        """The history in long form: one row per point and series (round, x, kind, character, cliché, score)."""
        rows = []
        for point in self._history:
            for key, score in point["scores"].items():
                uid, cliche_name = key.split(":", 1)
                rows.append({"round": point["round"], "x": point["x"], "kind": point["kind"],
                             "series": key, "label": self._series[key], "character": uid,
                             "cliche": cliche_name, "score": score})
        return rows
