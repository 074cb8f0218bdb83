"""The shared game room: commands -> events -> state, roles, stores and fan-out.

No Panel here: this is the server-side truth, testable without a browser. A UI gets a
:class:`RoomSession` (a room and the actor it acts as) and calls ``session.act(command, **args)``;
a refused command raises :class:`~raisus_panel.rules.RuleError` (:class:`PermissionDenied` for a
role's limits) and changes nothing.

In a notebook::

    from raisus_panel.room import Room
    gm = Room.local("Tavern")                      # a one-person room; you are the GM
    gm.act("create_character", name="Olaf", cliches=[{"name": "Viking", "rating": 4}])

Served with Panel (the dashboard's job; sketched here because the room is built for it)::

    registry = get_registry(store)                 # "rooms.sqlite" or "redis://host:6379/0"; shared by every tab
    session = registry.open_session(token)         # or registry.join(invite_token, name)
    doc = pn.state.curdoc
    def on_events(events):                         # runs on the commanding thread
        doc.add_next_tick_callback(lambda: view.update_from(events))   # touch Bokeh on its own doc
    unsubscribe = session.subscribe(on_events)     # only events this role may see
    session.connect(session_id)
    pn.state.on_session_destroyed(lambda ctx: (unsubscribe(), session.disconnect(session_id)))

Widgets bound to the room's parameters (``room.characters``, ``room.contest``, ``room.log`` ...)
update by themselves; everything on those parameters is public. GM-only data (secret rolls) comes
only from :meth:`RoomSession.visible_events` and :attr:`RoomSession.checks`.
"""

from .advice import room_advice
from .commands import COMMANDS, GM_ONLY
from .errors import (
    JoinNotKnownYet,
    NotKnownYet,
    NotOurDatabase,
    OutcomeUnknown,
    RoomChanged,
    RoomExists,
    RoomFileError,
    SequenceConflict,
    StaleCommand,
    StoreError,
    UnknownRoom,
)
from .events import ROOM_EVENT_TYPES, ROOM_EVENT_VERSION, visible_to
from .permissions import authorize
from .registry import RoomLinks, RoomRegistry, get_registry
from .roles import Actor, PermissionDenied, Role
from .room import ROOM_FORMAT, ROOM_FORMAT_VERSION, LocalRoom, Room, presence_entry
from .session import RoomSession
from .sqlite_store import SQLiteStore
from .store import MemoryStore, Store
from .transfer import import_room, read_room_file

__all__ = [
    "Actor", "COMMANDS", "GM_ONLY", "JoinNotKnownYet", "LocalRoom", "MemoryStore", "NotKnownYet", "NotOurDatabase", "PermissionDenied", "ROOM_EVENT_TYPES",
    "ROOM_EVENT_VERSION", "ROOM_FORMAT", "ROOM_FORMAT_VERSION", "Role", "Room", "RoomChanged", "RoomExists",
    "RoomFileError", "RoomLinks", "RoomRegistry", "RoomSession", "SQLiteStore", "SequenceConflict", "StaleCommand",
    "OutcomeUnknown", "Store", "StoreError", "UnknownRoom", "authorize", "get_registry", "import_room", "presence_entry", "read_room_file", "room_advice",
    "visible_to",
]
