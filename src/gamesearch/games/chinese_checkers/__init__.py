"""Chinese Checkers for 2, 3, 4 and 6 players (:mod:`.rules`; the board in :mod:`.board`,
the SVG in :mod:`.svg`; the bridge to OpenSpiel's ``chinese_checkers``, which only the
tests and benchmarks use, in ``referees/chinese_checkers_openspiel.py`` outside the
package)."""

from .rules import PASS, CCState, ChineseCheckers

__all__ = ["PASS", "CCState", "ChineseCheckers"]
