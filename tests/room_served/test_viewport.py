"""Every page the dashboard serves declares a viewport, so a phone lays it out at its own width
(without one it lays the page out 980 px wide and shrinks it: buttons end up 12 px tall), and says
its language (Panel's template says "en" on every page)."""

from __future__ import annotations

import re
import urllib.request

from raisus_panel import i18n
from raisus_panel.room.registry import RoomLinks

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def head_of(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        page = response.read().decode("utf-8")
    return re.search(r"<head>(.*?)</head>", page, re.S).group(1)


def test_every_page_declares_a_viewport(served):
    _, links = served.registry.create_room("Phones", gm_name="Gina")
    _, ann = served.registry.join(links.player, "Ann")
    pages = {"lobby": served.url, "refusal": f"{served.url}?token=no.such-token",
             **{role: links.url(role, served.url) for role in ("gm", "player", "spectator")},
             "personal": RoomLinks(links.room_id, "", ann, "").url("player", served.url)}
    for name, url in pages.items():
        head = head_of(url)
        assert head.count(VIEWPORT) == 1, name
        assert len(re.findall(r'<meta name="viewport"', head)) == 1, name
        assert f'<script>document.documentElement.lang = "{i18n.settings.lang}";</script>' in head, name
