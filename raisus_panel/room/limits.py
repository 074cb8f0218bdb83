"""What one server lets people do at most: how large a room file may be, how many rooms are made,
how many commands one person sends.

Anyone who reaches the lobby may create or import a room, so both are capped: per client (an
address) and per server, each within a rolling window. A refused creation says which limit it met
and when to try again; nothing is written.

Every command a served person sends may write to the room's permanent log, so each link (a role
token: the GM's, a player's, the spectators') has a bucket of commands (:class:`CommandRate`):
a burst as large as a busy round's clicks passes at once, a steady stream beyond the refill rate is
refused with how long to wait.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from raisus_panel.rules import RuleError

from .store import LocalTimes

#: The largest room file an import accepts, in bytes (a long campaign's export is well under 1 MB).
MAX_ROOM_FILE_BYTES = 5_000_000

#: The commands one link of a served dashboard may send at once (``RAISUS_COMMAND_BURST``).
SERVED_COMMAND_BURST = 30


class LimitReached(RuleError):
    """A server limit refused the request (too many rooms made lately, a file too large); nothing changed."""


@dataclass(frozen=True)
class Limits:
    """The limits of one server (``raisus serve`` options; see ``dashboard/settings.py``).

    Parameters
    ----------
    max_upload_bytes
        The largest room file an import accepts.
    rooms_per_client
        Rooms one client (address) may create or import within ``window`` seconds; 0: no limit.
    rooms_per_server
        Rooms the whole server may create or import within ``window`` seconds; 0: no limit.
    window
        The rolling window of the room counts, in seconds.
    command_burst
        Commands one link may send at once (a busy round is about ten clicks); 0: no limit, the
        default for scripts and notebooks (a served dashboard sets :data:`SERVED_COMMAND_BURST`).
    commands_per_minute
        Commands one link may send each minute beyond the burst, on average.
    """

    max_upload_bytes: int = MAX_ROOM_FILE_BYTES
    rooms_per_client: int = 10
    rooms_per_server: int = 200
    window: float = 3600.0
    command_burst: int = 0
    commands_per_minute: int = 60

    def __post_init__(self) -> None:
        for name in ("max_upload_bytes", "rooms_per_client", "rooms_per_server", "command_burst",
                     "commands_per_minute"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} is a whole number of at least 0, not {value!r}")
        if not self.window > 0:
            raise ValueError(f"window is a number of seconds above 0, not {self.window!r}")


def too_large(size: int, most: int) -> LimitReached:
    """The refusal of a room file of ``size`` bytes where ``most`` is allowed."""
    return LimitReached(f"This file is {size / 1e6:.1f} MB; a room file may be at most {most / 1e6:.1f} MB.",
                        key="error.limit.file_too_large", size=f"{size / 1e6:.1f}", most=f"{most / 1e6:.1f}")


class Times(Protocol):
    """Where a quota keeps the times rooms were made: this process's memory, or a shared store."""

    def times_since(self, name: str, since: float) -> list[float]:
        """The times noted under ``name`` since ``since``."""

    def note_time(self, name: str, when: float, keep: float) -> None:
        """Note ``when`` under ``name``, forgetting what is older than ``keep`` seconds."""


class CreationQuota:
    """Counts room creations per client and per server in a rolling window (thread-safe).

    :meth:`check` refuses a creation beyond a limit; :meth:`record` counts one that happened. The
    counts live in ``times`` -- the registry's store, so that on a shared store (Redis) every server
    process counts the same rooms; by default in this process. A client's address is kept only as
    a hash. Two processes checking at the same moment may each allow the last room: a limit may be
    passed by one room per process, never more.
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.time,
                 times: Times | None = None) -> None:
        self.limits = limits
        self._clock = clock
        self._times = times if times is not None else LocalTimes()

    @staticmethod
    def _names(client: str | None) -> tuple[str, str | None]:
        mine = "rooms:client:" + hashlib.sha256(client.encode()).hexdigest()[:32] if client else None
        return "rooms:server", mine

    def check(self, client: str | None) -> None:
        """Raise :class:`LimitReached` if one more room now would pass a limit."""
        limits, now = self.limits, self._clock()
        server, mine = self._names(client)
        since = now - limits.window
        if limits.rooms_per_client and mine:
            times = self._times.times_since(mine, since)
            if len(times) >= limits.rooms_per_client:
                wait = self._minutes(times, now)
                raise LimitReached(f"You have made {len(times)} rooms lately, the most this server allows: "
                                   f"try again in {_minutes_text(wait)}, or use a room you have.",
                                   key="error.limit.rooms_per_client", n=len(times), minutes=wait)
        if limits.rooms_per_server:
            times = self._times.times_since(server, since)
            if len(times) >= limits.rooms_per_server:
                wait = self._minutes(times, now)
                raise LimitReached(f"This server has made {len(times)} rooms lately, its most: try "
                                   f"again in {_minutes_text(wait)}.", key="error.limit.rooms_per_server",
                                   n=len(times), minutes=wait)

    def _minutes(self, times: list[float], now: float) -> int:
        return max(1, math.ceil((times[0] + self.limits.window - now) / 60))

    def record(self, client: str | None) -> None:
        """Count one room made by ``client`` now (a script or notebook names no client: only the
        server's count applies)."""
        now = self._clock()
        for name in self._names(client):
            if name:
                self._times.note_time(name, now, self.limits.window)


def _minutes_text(n: int) -> str:
    """``n`` minutes in English, singular for 1 (the catalogs say it with their plural syntax)."""
    return f"{n} minute" if n == 1 else f"{n} minutes"


class CommandRate:
    """A bucket of commands per link (thread-safe, in this process): :meth:`take` refuses one too many.

    Each link starts with ``limits.command_burst`` commands; one comes back every
    ``60 / limits.commands_per_minute`` seconds, up to the burst. A refused command changes
    nothing and says how many seconds to wait. A process with several server processes counts
    each one's commands: a person may send at most the limit once per process.
    """

    #: How many links are remembered before those with a full bucket are forgotten.
    KEEP = 1000

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> None:
        """Count one command of ``who`` (a room and link); :class:`LimitReached` if it has none left."""
        burst, per_minute = self.limits.command_burst, self.limits.commands_per_minute
        if not burst:
            return
        rate, now = per_minute / 60.0, self._clock()
        with self._lock:
            level, at = self._buckets.get(who, (float(burst), now))
            level = min(float(burst), level + (now - at) * rate)
            if level < 1:
                wait = math.ceil((1 - level) / rate) if rate else 60
                self._buckets[who] = (level, now)
                raise LimitReached(f"Too many actions at once: wait {wait} second{'s' * (wait != 1)} and try again.",
                                   key="error.limit.too_many_actions", seconds=wait)
            self._buckets[who] = (level - 1, now)
            if len(self._buckets) > self.KEEP:  # forget links whose bucket has filled again
                full = [k for k, (lv, t) in self._buckets.items() if lv + (now - t) * rate >= burst]
                for k in full:
                    del self._buckets[k]
