"""Every table says what the policy knew: ``open``, ``thoughtful`` or ``fair``."""

from __future__ import annotations

import pandas as pd
import pytest

from simlab.experiments.cells import Cell, information_label
from simlab.experiments.config import Component
from simlab.experiments.tables import summarize


def cell(game: str, policy: str) -> Cell:
    return Cell("key", Component(game, game, {}, 1), Component(policy, policy, {}, 1))


@pytest.mark.parametrize(("game", "policy", "label"), [
    ("beleaguered_castle", "solver", "open"),
    ("beleaguered_castle", "greedy", "open"),
    ("castle_of_indolence", "solver", "thoughtful"),
    ("castle_of_indolence", "greedy", "fair"),
    ("castle_of_indolence", "heuristic", "fair"),
    ("castle_of_indolence", "random", "fair"),
])
def test_a_cell_is_labelled_by_what_its_policy_sees(game, policy, label):
    assert information_label(cell(game, policy)) == label


def test_the_summary_carries_the_label():
    frame = pd.DataFrame({
        "game": ["c"] * 2, "policy": ["solver"] * 2, "information": ["thoughtful"] * 2, "deal": [1, 2],
        "verdict": ["won", "lost"], "end_reason": ["won", "exhausted"], "moves": [10, 0], "cards_home": [104, 3],
        "nodes": [5, 7], "cpu_seconds": [0.1, 0.2], "error": ["", ""],
    })
    assert summarize(frame)["information"].tolist() == ["thoughtful"]
