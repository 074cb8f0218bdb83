"""The report's place for a contest's committed dice: the commitment, the reveal and its check.

Issue 11's verifiable rolls publish, in a contest's log, the SHA-256 commitment of the server's seed
before the first roll and the seed itself once the contest ends. This section shows them and the
result of recomputing every die. Until those events exist it is empty (and the stylesheet hides an
empty section), so a report of a game played before them reads as it did.
"""

from __future__ import annotations


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
    return ""
