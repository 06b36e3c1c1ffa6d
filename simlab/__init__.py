"""simlab: Monte Carlo win rates of patience games."""

from simlab import numba_cache  # noqa: F401  (first: numba reads NUMBA_CACHE_DIR as it is imported)
from simlab.api import env, load_config, load_results, run, summarize
from simlab.engine import Game, Move, Observation, State
from simlab.games import GAMES, make_game
from simlab.play import deal_rng, play_deal
from simlab.policies import POLICIES, PlayRecord, Policy, make_policy
from simlab.solver import SolveResult, solve
from simlab.version import __version__

__all__ = [
    "GAMES", "POLICIES", "Game", "Move", "Observation", "PlayRecord", "Policy", "SolveResult", "State",
    "__version__", "deal_rng", "env", "load_config", "load_results", "make_game", "make_policy", "play_deal",
    "run", "solve", "summarize",
]
