"""The shared game room: commands -> events -> state, roles, stores and fan-out.

No Panel here: this is the server-side truth, testable without a browser. A UI gets a
:class:`RoomSession` (a room and the actor it acts as) and calls ``session.act(command, **args)``.

Quick start in a notebook::

    from raisus_panel.room import Room
    gm = Room.local("Tavern")                      # a one-person room; you are the GM
    gm.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])

Served, rooms live in :func:`get_registry` (one per database file), and links resolve to sessions.
"""

from .errors import (
    NotOurDatabase, RoomChanged, RoomExists, RoomFileError, SequenceConflict, StoreError, UnknownRoom,
)
from .events import ROOM_EVENT_TYPES, ROOM_EVENT_VERSION, visible_to
from .permissions import GM_ONLY, authorize
from .registry import RoomLinks, RoomRegistry, get_registry
from .roles import Actor, PermissionDenied, Role
from .room import ROOM_FORMAT, ROOM_FORMAT_VERSION, Room
from .session import LocalRoom, RoomSession
from .sqlite_store import SQLiteStore
from .store import MemoryStore, Store
from .transfer import import_room, read_room_file

__all__ = [
    "Actor", "GM_ONLY", "LocalRoom", "MemoryStore", "NotOurDatabase", "PermissionDenied", "ROOM_EVENT_TYPES",
    "ROOM_EVENT_VERSION", "ROOM_FORMAT", "ROOM_FORMAT_VERSION", "Role", "Room", "RoomChanged", "RoomExists",
    "RoomFileError", "RoomLinks", "RoomRegistry", "RoomSession", "SQLiteStore", "SequenceConflict", "Store",
    "StoreError", "UnknownRoom", "authorize", "get_registry", "import_room", "read_room_file", "visible_to",
]
