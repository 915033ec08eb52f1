"""RAVE's compact tree (per-node arrays of the children's statistics, compiled selection
and all-moves-as-first back-up) searches as the plain Python tree: seed for seed the same
root visits, on Go (from the empty board and from a position of a stored game against GNU
Go), tic-tac-toe, Connect Four and Othello, also after tree reuse.

``tests/data/mcts/rave_root_visits.json`` was recorded from the plain tree before the
compact one was written (``python tests/mcts_rave_cases.py --record``)."""

from __future__ import annotations

import json

import pytest

from mcts_rave_cases import CASES, GOLDEN, run_case

RECORDED = json.loads(GOLDEN.read_text())["cases"]


@pytest.mark.parametrize("name", list(CASES))
def test_rave_search_gives_the_recorded_root_visits(name: str) -> None:
    assert run_case(name) == RECORDED[name]
