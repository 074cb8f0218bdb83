"""The dashboard's report downloads, without a browser: offered once a contest ended, made on click,
from what the page's person may see; a past contest's report from the past contests' list."""

from __future__ import annotations

from raisus_panel.dashboard.room_page import RoomPage
from raisus_panel.room import Actor, RoomSession
from raisus_panel.ui import Actions, PastContests

from .conftest import EVIL


def test_a_spectators_log_tab_offers_the_reports_once_a_contest_ended(played):
    page = RoomPage(RoomSession(played.room, Actor.spectator()), lang="en")
    assert "log" not in page._tab_children  # nothing is made before the tab is opened
    page._fill_tab("log")
    assert page._report.visible and page._session_report.visible
    contest = page._contest_report_file().getvalue().decode("utf-8")
    assert "Kitchen" in contest and "Brawl" not in contest and EVIL not in contest
    session = page._session_report_file().getvalue().decode("utf-8")
    assert "Kitchen" in session and "Brawl &lt;script&gt;" in session
    page.dispose()


def test_no_contest_report_while_the_contest_runs(played):
    played.room.apply(played.gm, "start_contest", {"name": "Third", "side_a": [played.olaf], "side_b": [played.ogre]})
    page = RoomPage(RoomSession(played.room, Actor.spectator()), lang="ko")
    page._fill_tab("log")
    assert not page._report.visible and page._session_report.visible  # two contests were closed
    assert page._report.label == "이 대결의 기록 (HTML)"
    page.dispose()


def test_a_picked_past_contest_gets_its_report(played):
    made = []

    def report(uid, lang):
        made.append((uid, lang))
        return f"<p>{uid}</p>".encode()
    watcher = Actions(RoomSession(played.room, Actor.spectator()))
    past = PastContests(actions=watcher, lang="en", report=report)
    assert past.download is None  # made when a contest is first picked
    uid = played.room.past_contests[0]["contest"]
    past._pick.value = uid
    assert past.download.visible and past.download.label == "Report (HTML)" and not made
    assert past._report_file().getvalue() == f"<p>{uid}</p>".encode() and made == [(uid, "en")]
    past._pick.value = ""
    assert not past.download.visible
    assert PastContests(actions=watcher, lang="en").download is None  # no report maker, no button
