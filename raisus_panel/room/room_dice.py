"""How a room keeps the committed dice of its contests and of its action checks (a mixin of the room).

With committed dice (a room's default) every contest and each checks session commits to a secret seed
before its first roll and reveals it at the end (``rules/commitment.py``). The seeds are kept in the
store's metadata, never in the log, so that the room rolls on under the same commitment after a
restart, on another server process, or after an undo took a commitment back.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from raisus_panel.rules import CommittedDice, Contest
from raisus_panel.rules.commitment import SCHEME, next_roll_after

from .events import Event, room_event

if TYPE_CHECKING:
    from raisus_panel.rules.dice import DiceSource

    from .projection import RoomState
    from .store import Store


class RoomDice:
    """Mixin of :class:`~.room.Room`: the seeds, counters and reveals of its committed dice."""

    if TYPE_CHECKING:  # the room's (room.py)
        room_id: str
        dice: DiceSource | None
        _store: Store
        _events: list[Event]
        _state: RoomState
        _check_dice: dict[bool, CommittedDice]
        _no_secret: set[str]
        _seeds: dict[str, bytes]
        _dice_synced: tuple[Any, ...] | None

    #: Where a room keeps the secret seeds of its commitments: its store's metadata, never its log.
    SECRETS = "dice_secrets"

    def _keep_secret(self, dice: CommittedDice) -> None:
        commitment, seed = dice.commitment, dice.secret()
        self._store.update_meta(self.room_id, lambda meta: {
            **meta, self.SECRETS: {**meta.get(self.SECRETS, {}), commitment: seed}})

    def _secret(self, commitment: str) -> bytes | None:
        if commitment in self._seeds:
            return self._seeds[commitment]
        if commitment in self._no_secret:
            return None
        try:
            seed = bytes.fromhex(self._store.room_meta(self.room_id).get(self.SECRETS, {}).get(commitment, ""))
        except (ValueError, TypeError, AttributeError):
            return None
        if not seed:
            self._no_secret.add(commitment)  # an imported room: do not ask the store again
            return None
        self._seeds[commitment] = seed
        return seed

    def _contest_dice(self, contest_events: list[dict[str, Any]]) -> CommittedDice:
        """The dice of a contest rebuilt from its events: those of the last commitment its log made.

        The room's log holds every event, those an undo took back too: the dice went on with the
        last commitment it made even when an undo took that back, so the contest (which sees only
        what is in force) renews them before its next roll, and a verifier reading the log in order
        finds each roll under the commitment it was drawn from. A seed the log revealed, even in
        an event taken back since, rolls no more. The roll counter goes on after every roll the log
        holds. Without the seed (a room imported from a file) the contest commits to a new one first.
        """
        every = self._contest_log(contest_events[0]["contest"])
        after = next_roll_after(every)
        last = next((e for e in reversed(every) if e["type"] == "dice_committed"), None)
        seed = self._secret(last["commitment"]) if last is not None else None
        if last is None or not seed:
            return CommittedDice(first_roll=after)
        seeds = dict(last["client_seeds"])
        for event in every[every.index(last):]:
            if event["type"] == "client_seed_set":
                seeds[event["who"]] = event["seed"]
        dice = CommittedDice(seed, scope=last["scope"], client_seeds=seeds, first_roll=last["first_roll"])
        dice.next_roll = max(after, dice.first_roll)
        if any(e["type"] == "dice_revealed" and e["commitment"] == last["commitment"] for e in every):
            dice.reveal()
        return dice

    def _contest_log(self, uid: str) -> list[dict[str, Any]]:
        """A contest's events as the room's log holds them, those an undo took back included."""
        return [e["event"] for e in self._events if e["type"] == "contest" and e["contest"] == uid]

    def _sync_contest_dice(self, contest: Contest) -> None:
        """Before a contest command: roll on with the dice the room's log left off with.

        Another process on a shared store may have committed a new seed, drawn rolls or taken
        client seeds, and an undo may have taken back the commitment the dice went on with: the
        seed comes from the store, the counter and the client seeds from the log (undone events
        included), so no roll number is drawn twice. Every commitment of the contest the log does
        not reveal yet is handed to the contest to reveal with its own seed.
        """
        if self.dice is not None or not isinstance(contest.dice, CommittedDice):
            return
        mark = (contest, len(self._events))  # a contest compares by identity
        if self._dice_synced == mark:
            return  # the log has not grown since: the contest's dice are still the log's
        restored = self._contest_dice(contest.events)
        contest.roll_on_with(restored)
        contest.reveal_also(*self._unheld_dice(contest))
        self._dice_synced = mark

    def _unheld_dice(self, contest: Contest) -> list[CommittedDice]:
        """The dice of ``contest``'s commitments that no event reveals and that the contest does not
        hold (an undo took them back, or this process never had them): they drew dice the log
        shows, so their seeds are revealed with the contest's."""
        every = self._contest_log(contest.uid)
        settled = contest.commitments_held | {e["commitment"] for e in every if e["type"] == "dice_revealed"}
        after = next_roll_after(every)
        out = []
        for event in every:
            seed = (event["type"] == "dice_committed" and event["commitment"] not in settled
                    and self._secret(event["commitment"]))
            if seed:
                dice = CommittedDice(seed, scope=event["scope"], client_seeds=event["client_seeds"],
                                     first_roll=event["first_roll"])
                dice.next_roll = after
                out.append(dice)
        return out

    def _restored_checks_dice(self) -> dict[bool, CommittedDice]:
        """The checks sessions' dice, restored from the store's secrets where this process lacks them."""
        for private, session in self._state.check_sessions.items():
            mine = self._check_dice.get(private)
            if mine is not None and mine.commitment == session["commitment"] and self._store.shared:
                # another process may have drawn checks of this session: go on after them
                mine.next_roll = max([mine.next_roll, *(r + 1 for r in self._check_rolls(session["scope"]))])
            if session["revealed"] or (mine is not None and mine.commitment == session["commitment"]):
                continue
            seed = self._secret(session["commitment"])
            if seed:
                dice = CommittedDice(seed, scope=session["scope"], client_seeds=session["client_seeds"],
                                     first_roll=session["first_roll"])
                dice.next_roll = max([dice.first_roll, *(r + 1 for r in self._check_rolls(session["scope"]))])
                self._check_dice[private] = dice
        return self._check_dice

    def _check_rolls(self, scope: str) -> list[int]:
        """The roll numbers the log's checks drew in a checks session (undone ones too)."""
        return [e["draw"]["roll"] for e in self._events
                if e["type"] == "action_checked" and (e.get("draw") or {}).get("scope") == scope]

    def _unrevealed_checks(self) -> list[dict[str, Any]]:
        """A reveal for every checks commitment of the log (undone ones too) not revealed yet, whose seed is kept."""
        revealed = {e["commitment"] for e in self._events if e["type"] == "dice_revealed"}
        mine = {d.commitment: d for d in self._restored_checks_dice().values()}
        out: dict[str, dict[str, Any]] = {}
        for event in self._events:
            if event["type"] != "dice_committed":
                continue
            commitment: str = event["commitment"]
            if commitment in revealed or commitment in out:
                continue
            dice = mine.get(commitment)
            seed = dice.secret() if dice is not None else (self._secret(commitment) or b"").hex()
            if not seed:
                continue
            rolls = self._check_rolls(event["scope"])
            next_roll = dice.next_roll if dice is not None else max([event["first_roll"], *(r + 1 for r in rolls)])
            out[commitment] = room_event("dice_revealed", scope=event["scope"], commitment=commitment, seed=seed,
                                         next_roll=next_roll, private=event["private"])
        return list(out.values())

    def _checks_dice(self, private: bool) -> tuple[CommittedDice, list[dict[str, Any]]]:
        """The dice of a check, and the payloads to write before it (a new session's commitment)."""
        session = self._state.check_sessions.get(private)
        dice = self._restored_checks_dice().get(private)
        if session and not session["revealed"] and dice is not None and dice.commitment == session["commitment"] \
                and not dice.revealed:
            return dice, []
        before = []
        revealed = {e["commitment"] for e in self._events if e["type"] == "dice_revealed"}
        if dice is not None and dice.rolled and dice.commitment not in revealed:
            # its commitment was taken back by undo, but its dice were drawn: show its seed
            before.append(room_event("dice_revealed", scope=dice.scope, commitment=dice.commitment,
                                     seed=dice.secret(), next_roll=dice.next_roll, private=private))
        scope = f"{'gm-checks' if private else 'checks'}-{secrets.token_hex(4)}"
        fresh = CommittedDice(scope=scope)
        before.append(room_event("dice_committed", scope=scope, commitment=fresh.commitment, scheme=SCHEME,
                                 first_roll=fresh.first_roll, client_seeds=fresh.client_seeds, private=private))
        return fresh, before
