"""Saves written by earlier versions still load, into the same state (the save format is a promise).

The fixtures in ``saves/`` were written before ``rules/contest.py`` was split into modules (see
``saves/make_saves.py``); between them they hold every event type.
"""

import json
import pathlib

import pytest

from raisus_panel.rules import Contest, SaveFileError
from raisus_panel.rules.events import CAMPAIGN_EVENT_TYPES, DICE_EVENT_TYPES, EVENT_TYPES

SAVES = pathlib.Path(__file__).parent / "saves"
NAMES = ("bridge_fight", "pie_eating", "showdown")
#: Written when committed dice came in (``saves/make_fair_duel.py``): it holds their event types.
DICE_NAMES = ("fair_duel",)
#: Written when the campaign options came in (``saves/make_campaign_duel.py``): pumps and lucky shots.
CAMPAIGN_NAMES = ("campaign_duel",)


def state(contest):
    """What ``saves/make_saves.py`` recorded of each contest, the same way."""
    return {
        "scores": [[c.uid, [[cl.name, cl.current, cl.extra, cl.temporary] for cl in c.cliches]]
                   for c in contest.characters()],
        "sides": [[u.uid for u in side] for side in contest.sides],
        "status": contest.status, "round": contest.round, "winner": contest.winner, "outcome": contest.outcome,
        "owed": contest.owed_fates, "fates": contest.fates, "history": contest.history, "series": contest.series,
        "dropped": sorted(c.uid for c in contest.characters() if contest.is_dropped(c)),
    }


def campaign_state(contest):
    """What ``saves/make_campaign_duel.py`` recorded: as :func:`state`, with the lucky shots left."""
    return {**state(contest), "lucky_left": {c.uid: c.lucky_left for c in contest.characters()}}


@pytest.mark.parametrize("name", NAMES + DICE_NAMES + CAMPAIGN_NAMES)
def test_an_old_save_loads_into_the_state_it_was_saved_in(name):
    text = (SAVES / f"{name}.json").read_text(encoding="utf-8")
    contest = Contest.from_json(text)
    expected = json.loads((SAVES / f"{name}.state.json").read_text(encoding="utf-8"))
    recorded = campaign_state if name in CAMPAIGN_NAMES else state
    assert json.loads(json.dumps(recorded(contest))) == expected
    assert json.loads(contest.to_json()) == json.loads(text)  # saved again, byte for byte the same data


def test_the_old_saves_hold_every_event_type():
    seen = {e["type"] for name in NAMES
            for e in json.loads((SAVES / f"{name}.json").read_text(encoding="utf-8"))["events"]}
    assert seen == set(EVENT_TYPES) - set(DICE_EVENT_TYPES) - set(CAMPAIGN_EVENT_TYPES)
    for names, types in ((DICE_NAMES, DICE_EVENT_TYPES), (CAMPAIGN_NAMES, CAMPAIGN_EVENT_TYPES)):
        seen_later = {e["type"] for name in names
                      for e in json.loads((SAVES / f"{name}.json").read_text(encoding="utf-8"))["events"]}
        assert set(types) <= seen_later


def test_who_fell_in_an_old_save():
    bridge = Contest.from_json((SAVES / "bridge_fight.json").read_text(encoding="utf-8"))
    by_uid = {c.uid: c for c in bridge.characters()}
    assert bridge.is_dropped(by_uid["squire"]) and bridge.fates == {"squire": "Is knighted for fetching help."}
    assert bridge.is_defeated(by_uid["viking"]) and not bridge.is_defeated(by_uid["ogre"])


def test_a_log_with_a_second_start_or_an_unknown_event_is_not_replayed():
    events = json.loads((SAVES / "showdown.json").read_text(encoding="utf-8"))["events"]
    for broken in ([*events[:2], {**events[0], "seq": 3}], [*events[:2], {**events[2], "type": "publish"}]):
        with pytest.raises(SaveFileError) as caught:
            Contest.from_events(broken)
        assert caught.value.key == "error.save.event_not_replayable" and caught.value.fields["n"] == 3
