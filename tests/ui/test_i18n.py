"""The message catalogs: same keys and fields in every language, lookup, settings, switching."""

from __future__ import annotations

import ast
import gc
import importlib
import json
import pathlib
import re
import string

import pytest

from raisus_panel import i18n
from raisus_panel.i18n import LANGUAGES, catalog, t

PACKAGE = pathlib.Path(__file__).parents[2] / "raisus_panel"
UI = PACKAGE / "ui"
KEY = re.compile(r"[a-z_]+(?:\.[a-z_0-9]+)+")


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_catalogs_have_the_same_keys():
    ko, en = catalog("ko"), catalog("en")
    assert set(ko) == set(en)
    assert len(ko) > 100


@pytest.mark.parametrize("key", sorted(catalog("en")))
def test_catalogs_agree_on_format_fields(key):
    assert fields(catalog("ko")[key]) == fields(catalog("en")[key])


def test_no_catalog_text_is_empty_and_korean_is_korean():
    for lang in LANGUAGES:
        assert all(v.strip() for v in catalog(lang).values())
    hangul = re.compile("[\uac00-\ud7a3]")
    korean = [k for k, v in catalog("ko").items() if hangul.search(v)]
    assert len(korean) > 0.9 * len(catalog("ko")) - 10


def test_glossary_terms():
    ko = catalog("ko")
    assert ko["kind.grunt_mob"] == "잡졸 무리"
    assert ko["kind.team"] == "캐릭터 팀"
    assert ko["contest.single_roll"] == "한방 대결"
    assert ko["contest.volunteer"] == "자원"
    assert "복수 보너스" in ko["team.revenge_armed"]
    assert ko["contest.disband"] == "해체" and ko["contest.drop_out"] == "탈퇴"
    assert ko["check.title"] == "행동 판정"
    assert "참가 불가자 티켓" in ko["contest.give_tickets"]


def test_every_key_the_ui_uses_exists():
    used = set()
    for path in UI.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    KEY.fullmatch(node.value) and not node.value.endswith(".json"):
                used.add(node.value)
    missing = used - set(catalog("en"))
    assert not missing


def test_every_refusal_and_term_in_the_catalogs_is_used_by_the_code():
    """No dead ``error.``/``term.`` texts: each is named somewhere in the package."""
    named = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.fullmatch(node.value):
                named.add(node.value)
    refusals = {k for k in catalog("en") if k.startswith(("error.", "term."))}
    assert len(refusals) > 200
    assert sorted(refusals - named) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("value", [1, 7])
def test_every_catalog_text_formats_with_any_values_for_its_fields(lang, value):
    for key, text in catalog(lang).items():
        formatted = i18n.fill(text, **{name: value for name in fields(text)})  # raises if a field is malformed
        assert formatted.strip(), key


def test_english_counts_of_dice_are_singular_for_one():
    assert t("contest.pool", lang="en", n=1) == "Rolls 1 die"
    assert t("contest.pool", lang="en", n=3) == "Rolls 3 dice"
    assert t("contest.pool", lang="en", n=0) == "Rolls 0 dice"
    assert t("team.pool", lang="en", parts="Knight 0 + Viking", n=1) == "Knight 0 + Viking = 1 die"
    assert t("team.pool_sixes", lang="en", lead="Knight 1", n=1, helpers="Viking") == \
        "Knight 1 = 1 die; Viking roll for sixes"
    assert t("log.uses", lang="en", name="Pirate", cliche="Pirate", n=1) == "Pirate rolls Pirate: 1 die"
    assert t("log.brevet_for", lang="en", name="Ann", cliche="Pie", n=1) == "Ann: Pie +1 temporary die"
    assert t("odds.p_next", lang="en", n=2, p="50%", a=1, b=1) == "Round 2: side A wins it with 50% (1 die against 1)"
    assert t("log.dice_verified", lang="en", rolls=1, dice=1).endswith("verified here: 1 roll, 1 die")
    assert t("log.dice_verified", lang="en", rolls=2, dice=7).endswith("verified here: 2 rolls, 7 dice")
    assert t("contest.pool", lang="ko", n=1) == "주사위 1개"  # Korean nouns do not change with the count
    # no English text counts dice in the plain form any more (a "{n} dice" reads "1 dice" for one)
    plain = [k for k, v in catalog("en").items() if re.search(r"\{(n|a|pool)\} dice", v) and not k.startswith("error.")]
    assert plain == []


def test_a_refusal_without_a_key_or_with_an_unknown_one_shows_its_english(english_catalog_agrees):
    from raisus_panel.rules import RuleError

    assert i18n.translate(RuleError("Plain English."), "ko") == "Plain English."
    assert i18n.translate(RuleError("Plain English.", key="error.no.such", x=1), "ko") == "Plain English."
    assert i18n.translate(ValueError("A bug."), "ko") == "A bug."
    extra_field = RuleError("This contest has ended: start a new contest to roll again.", key="error.contest.ended",
                            unused=1)
    assert i18n.translate(extra_field, "ko") == "이 대결은 끝났습니다. 다시 굴리려면 새 대결을 시작하세요."
    missing_field = RuleError("Viking has nothing to recover.", key="error.recovery.nothing")
    assert i18n.translate(missing_field, "ko") == "Viking has nothing to recover."
    english_catalog_agrees.clear()  # these were wrong on purpose


def test_t_formats_and_falls_back():
    assert t("contest.round", lang="en", n=3) == "Round 3"
    assert t("contest.round", lang="ko", n=3) == "3라운드"
    assert t("no.such.key", lang="en") == "no.such.key"
    assert t("contest.round", lang="en") == "Round {n}"  # missing fields leave the template


def test_t_follows_the_settings():
    gc.collect()  # no left-over components of other tests to refresh
    i18n.settings.lang = "en"
    assert t("sheet.save") == "Save"
    i18n.settings.lang = "ko"
    assert t("sheet.save") == "저장"


def test_unknown_language_is_refused():
    with pytest.raises(ValueError):
        catalog("fr")


def test_default_language_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("RAISUS_LANG", "en")
    assert i18n._env_lang() == "en"
    monkeypatch.setenv("RAISUS_LANG", "")
    assert i18n._env_lang() == "ko"
    monkeypatch.setenv("RAISUS_LANG", "xx")
    with pytest.warns(UserWarning):
        assert i18n._env_lang() == "ko"


def test_catalogs_are_package_data_json():
    for lang in LANGUAGES:
        path = pathlib.Path(importlib.import_module("raisus_panel.i18n").__file__).with_name(f"{lang}.json")
        assert json.loads(path.read_text(encoding="utf-8"))


def test_the_notebooks_language_switch_tooltip_reads_as_plain_words():
    """Issue 22: the tutorials' switch (``from_param``) showed the parameter's docstring, RST backticks and all."""
    import panel as pn

    from raisus_panel.i18n import settings

    tip = pn.widgets.RadioButtonGroup.from_param(settings.param.lang, name="언어 / Language").description
    assert tip and "`" not in tip and "ko (Korean) or en (English)" in tip
    assert "ko(한국어) 또는 en(영어)" in tip  # the switch is how a Korean learner changes language too
