"""One deal played step by step by an outside agent (a learning agent, a notebook), in the
shape Gymnasium and OpenSpiel users expect: ``reset``, ``legal_moves``, ``step``,
``observation``, ``clone``.

The environment is the referee: it keeps the state and applies each move through
``Game.apply``, the same rules every policy and the solver use. With ``observe=True``
(the default) the agent is handed only ``Game.observe(state)``, what a real player
sees (hidden cards read ``simlab.engine.moves.HIDDEN``, no shuffle to come), exactly as
a policy is; with ``observe=False`` it gets the full ``State``: the solver's view, whose
results are ``thoughtful`` where cards are hidden (an upper bound on fair play).
"""

from __future__ import annotations

from typing import Any

from simlab.engine.game import Game, Move, Observation, State, parse_move
from simlab.engine.table_text import render_table
from simlab.errors import IllegalMoveError, SimlabError

WIN_REWARD = 1.0  # the reward of the move that wins; every other move earns 0


class GameOverError(SimlabError):
    """A move was asked for after the game ended (won, no legal move, or the move cap)."""


class Environment:
    """Deal ``deal`` of ``game``, played one move at a time.

    Args:
        game: the game (``simlab.env`` builds it from a name).
        deal: PySolFC's deal number.
        observe: hand out what a player sees (True) or the full state (False).
        max_moves: moves after which an unfinished game is cut short (``truncated``);
            None: no cap.
    """

    def __init__(self, game: Game, deal: int, observe: bool = True, max_moves: int | None = None) -> None:
        self.game = game
        self.deal = deal
        self.observe = observe
        self.max_moves = max_moves
        self._state = game.initial_state(deal)
        self.moves: list[Move] = []

    @property
    def information(self) -> str:
        """``open`` (the game hides nothing), ``fair`` (only what a player sees) or
        ``thoughtful`` (the full state of a game that hides cards or shuffles)."""
        if not (self.game.has_hidden_cards or self.game.has_chance):
            return "open"
        return "fair" if self.observe else "thoughtful"

    def reset(self, *, deal: int | None = None) -> tuple[Observation | State, dict[str, Any]]:
        """Back to the start of this deal (or of ``deal``); returns ``(observation, info)``."""
        if deal is not None:
            self.deal = deal
        self._state = self.game.initial_state(self.deal)
        self.moves = []
        return self.observation(), self.info()

    def observation(self) -> Observation | State:
        """What the agent sees now: ``Game.observe(state)``, or the state with ``observe=False``."""
        if self.observe:
            return self.game.observe(self._state)
        return _copy(self._state)  # the agent may write on it: the referee's stays untouched

    def legal_moves(self) -> list[Move]:
        """The legal moves now (none once the game is over), read from what the agent sees
        (a player's observation has the same moves as the state)."""
        if self._over():
            return []
        return self.game.legal_moves(self.observation())

    def step(self, move: Move | tuple[str, str] | str) -> tuple[Observation | State, float, bool, bool,
                                                                   dict[str, Any]]:
        """Play ``move`` (a ``Move``, a ``(source, destination)`` pair or ``"row0->row5"``).

        Returns:
            ``(observation, reward, terminated, truncated, info)`` as Gymnasium's ``step``:
            reward 1.0 for the move that wins, else 0.0; ``terminated`` when the game is
            won or the rules leave no legal move; ``truncated`` when ``max_moves`` moves
            were made first; ``info`` as ``info()``.

        Raises:
            IllegalMoveError: the move is not legal here (the message lists the legal moves).
            GameOverError: the game is already over (``reset`` starts again).
        """
        if self._over():
            raise GameOverError(f"{self.game.name} deal {self.deal} is over after {len(self.moves)} moves "
                                "(won, no legal move, or the move cap); reset() starts again.")
        move = _as_move(move)
        try:
            self._state = self.game.apply(self._state, move)
        except IllegalMoveError:
            legal = " ".join(str(m) for m in self.legal_moves()) or "none"
            raise IllegalMoveError(f"{move} is not legal after {len(self.moves)} moves of {self.game.name} "
                                   f"deal {self.deal}; the legal moves are: {legal}.") from None
        self.moves.append(move)
        won = self.game.is_won(self._state)
        terminated = won or len(self.game.legal_move_codes(self._state)) == 0
        truncated = not terminated and self.max_moves is not None and len(self.moves) >= self.max_moves
        return self.observation(), WIN_REWARD if won else 0.0, terminated, truncated, self.info()

    def info(self) -> dict[str, Any]:
        """``won``, ``cards_home``, ``moves`` (made so far) and ``legal_moves`` (now)."""
        return {"won": self.game.is_won(self._state), "cards_home": self.game.cards_home(self._state),
                "moves": len(self.moves), "legal_moves": self.legal_moves()}

    def clone(self) -> Environment:
        """An independent copy at this position: moves played on either leave the other as it is."""
        twin = Environment(self.game, self.deal, self.observe, self.max_moves)
        twin._state = _copy(self._state)
        twin.moves = list(self.moves)
        return twin

    def piles(self) -> dict[str, list[str]]:
        """What the agent sees, pile by pile, bottom to top (``??``: a hidden card)."""
        return self.game.visible_piles(self.observation())

    def render(self) -> str:
        """What the agent sees as a card table (``simlab.engine.table_text.render_table``; the
        hidden cards too with ``observe=False``)."""
        return render_table(self.game, self._state, reveal=not self.observe)

    def _over(self) -> bool:
        if self.game.is_won(self._state) or len(self.game.legal_move_codes(self._state)) == 0:
            return True
        return self.max_moves is not None and len(self.moves) >= self.max_moves

    def __repr__(self) -> str:
        return (f"Environment({self.game.name}, deal {self.deal}, {self.information}, "
                f"{len(self.moves)} moves)")


def _copy(state: State) -> State:
    """A state sharing no array with ``state`` (the chance tape included)."""
    return State(state.array.copy(), state.chance.copy())


def _as_move(move: object) -> Move:
    """``move`` as a ``Move``: a ``Move``, a ``(source, destination)`` pair of pile names or
    ``"source->destination"``.

    Raises:
        IllegalMoveError: ``move`` is none of these.
    """
    if isinstance(move, str):
        return parse_move(move)
    if isinstance(move, (tuple, list)) and len(move) == 2 and all(isinstance(pile, str) for pile in move):
        return Move(*move)
    raise IllegalMoveError(f"a move is a Move, a (source, destination) pair of pile names or "
                           f"'source->destination'; got {type(move).__name__} {move!r}.")
