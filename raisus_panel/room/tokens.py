"""Room links' secrets: make them, hash them, check them. Only hashes are ever stored.

A token reads ``<room id>.<secret>``: the room id says where to look (it is not secret), the secret is
32 random bytes from :func:`secrets.token_urlsafe` (256 bits). A store keeps only the SHA-256 of the
whole token, and tokens are compared in constant time. Tokens never go into events, logs or reprs.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from .roles import PermissionDenied
from .store import ROOM_ID

#: Random bytes in a token's secret part (256 bits; at least 128 are needed).
TOKEN_BYTES = 32


def new_token(room_id: str) -> str:
    """A fresh link token for the room ``room_id``."""
    return f"{room_id}.{secrets.token_urlsafe(TOKEN_BYTES)}"


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of a token: what a store keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_room(token: object) -> str:
    """The room id a token is for; PermissionDenied if it does not look like one of our tokens."""
    if not token:
        raise PermissionDenied("This link has no room token: open the link the GM shared, in full.",
                               key="error.link.no_token")
    room_id, dot, secret = token.partition(".") if isinstance(token, str) else ("", "", "")
    if not dot or not ROOM_ID.fullmatch(room_id) or len(secret) < 22:
        raise PermissionDenied("This link is not valid for any room: check it was copied in full, or "
                               "ask the GM for a new one.", key="error.link.malformed")
    return room_id


def matches(token: str, digest: str | None) -> bool:
    """Whether ``token`` hashes to ``digest`` (constant-time comparison)."""
    return digest is not None and bool(digest) and hmac.compare_digest(hash_token(token), digest)
