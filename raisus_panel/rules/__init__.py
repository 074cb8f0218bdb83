"""The Risus rules: dice, clichés, characters, action checks, contests, teams and odds.

This package imports only the standard library and ``param``: it loads fast, runs anywhere, and is
tested in milliseconds. Everything a notebook user types is importable from here.
"""

from . import advisor, odds
from .advisor import Advice, Choice, advise
from .campaign import AdvancementRoll, Budget, advancement_roll, check_budget, creation_budget
from .character import Character, GruntMob
from .check import TN_PRESETS, CheckResult, action_check, effective_tn
from .cliche import Cliche
from .contest import Contest
from .dice import CommittedDice, DiceSource, ScriptedDice, SeededDice
from .errors import DiceError, RuleError, SaveFileError
from .profile import RulesProfile
from .team import CharacterTeam
from .validation import MAX_MOB_RATING, MAX_NAME_LENGTH, MAX_RATING
from .verification import DiceCheck, RollProblem, verify, verify_contest

__all__ = [
    "AdvancementRoll", "Advice", "Budget", "Character", "CharacterTeam", "CheckResult", "Choice", "Cliche", "CommittedDice", "Contest", "DiceCheck", "DiceError",
    "DiceSource",
    "GruntMob", "MAX_MOB_RATING", "MAX_NAME_LENGTH", "MAX_RATING", "RuleError", "RulesProfile",
    "RollProblem", "SaveFileError", "ScriptedDice", "SeededDice", "TN_PRESETS", "action_check", "advancement_roll", "advise", "advisor", "check_budget", "creation_budget", "effective_tn",
    "odds", "verify", "verify_contest",
]
