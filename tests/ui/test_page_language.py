"""Issue 21 item 7: the lobby's and join page's language from the browser's Accept-Language header."""

from raisus_panel.dashboard.language import browser_language


def test_the_first_catalog_language_by_weight():
    assert browser_language("en-US,en;q=0.9") == "en"
    assert browser_language("ko-KR,ko;q=0.9,en;q=0.8") == "ko"
    assert browser_language("fr-FR,en;q=0.5,ko;q=0.7") == "ko"  # French is no catalog: the better of the rest
    assert browser_language("de, fr") is None
    assert browser_language("") is None
    assert browser_language("en;q=zero, ko;q=0.1") == "ko"  # a malformed weight skips that language only
    assert browser_language("en;q=0, ko") == "ko"  # q=0 means "not this one"
