"""The served dashboard: a lobby that makes rooms, an invitation page, and the room page.

Serve it with ``make serve``, ``raisus serve`` or ``panel serve apps/dashboard.py``. Rooms live in
an imported registry over the SQLite store (``RAISUS_DB``), shared by every browser tab; each tab
gets its own page and session.
"""

from .app import create_app, page_for
from .join import JoinPage
from .lobby import Lobby
from .room_page import RoomPage

__all__ = ["JoinPage", "Lobby", "RoomPage", "create_app", "page_for"]
