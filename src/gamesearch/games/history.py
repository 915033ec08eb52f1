"""What the small imperfect-information games (``kuhn_poker``, ``leduc_poker``,
``liars_dice``) share: a state is the tuple of actions played so far, chance's included --
OpenSpiel's *history*, in OpenSpiel's action numbering -- so a state is an immutable,
hashable value and a game replays it move for move against ``pyspiel``.

A game of this family (:class:`HistoryGame`) implements the rules from the history and a
seat's *view* (its information set: what the seat has seen, a small frozen dataclass whose
``str`` is OpenSpiel's information-state string); :class:`HistoryObservation` is the
:class:`~gamesearch.capabilities.Observation` built from them. Notation: a position is the
actions played, in the game's notation, separated by spaces (``-``: none yet), e.g. Kuhn's
``K J pass bet``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..capabilities import Drawing
from ..errors import GameError, IllegalMoveError, InvalidPositionError, echo
from ..game import Game

History = tuple[int, ...]


class HistoryGame(Game[History, int]):
    """A two-player zero-sum game with chance and hidden information whose state is its
    history. Subclasses give the rules (``to_move``, ``actions``, ``chance_outcomes``,
    ``is_terminal``, ``returns``), the notation of an action (``format_action``), the views
    (:meth:`view`, :meth:`view_actions`, :meth:`describe_view`) and how to draw a state
    consistent with a view (:meth:`candidates`, :meth:`assemble`)."""

    num_players = 2
    state_notation = "the actions played, separated by spaces ('-': none yet)"
    #: the perfect-information variant (set by :func:`world_of`)
    world_class: type[HistoryGame] | None = None
    #: the first actions are chance's private deals, one to each seat in turn
    private_deals = 2

    def initial_state(self) -> History:
        return ()

    def result(self, state: History, action: int) -> History:
        return (*state, action)

    def utility(self, state: History, player: int) -> float:
        return self.returns(state)[player]

    # ----- notation ---------------------------------------------------------------------
    def parse_action(self, state: History, text: str) -> int:
        t = text.strip().lower()
        legal = [] if self.is_terminal(state) else list(self.actions(state))
        for a in legal:
            if self.format_action(state, a).lower() == t:
                return a
        raise IllegalMoveError(text, [self.format_action(state, a) for a in legal])

    def format_state(self, state: History) -> str:
        words: list[str] = []
        s: History = ()
        for a in state:
            words.append(self.format_action(s, a))
            s = (*s, a)
        return " ".join(words) or "-"

    def parse_state(self, text: str) -> History:
        words = text.split()
        if words == ["-"]:
            return ()
        if len(words) > 64:
            raise InvalidPositionError(f"{self.name} position: {len(words)} actions is more "
                                       "than any game lasts")
        state: History = ()
        for word in words:
            try:
                state = self.result(state, self.parse_action(state, word))
            except GameError as exc:
                raise InvalidPositionError(
                    f"{self.name} position {echo(text, 60)}: {exc}"[:900]) from None
        return state

    def render(self, state: History) -> str:
        return self.format_state(state)

    def public_text(self, state: History) -> str:
        """The history as anyone at the table sees it: the private deals as ``?``."""
        words: list[str] = []
        s: History = ()
        for i, a in enumerate(state):
            words.append("?" if i < self.private_deals else self.format_action(s, a))
            s = (*s, a)
        return " ".join(words) or "-"

    # ----- views (subclasses) -----------------------------------------------------------
    def view(self, state: History, seat: int) -> Any:
        raise NotImplementedError

    def view_actions(self, view: Any) -> list[int]:
        raise NotImplementedError

    def describe_view(self, view: Any) -> str:
        raise NotImplementedError

    def candidates(self, view: Any) -> list[Any]:
        """The hidden parts a state consistent with ``view`` may have (each as likely as
        the others by chance's probabilities: the opponent's private outcomes)."""
        raise NotImplementedError

    def assemble(self, view: Any, hidden: Any) -> History:
        """The history of ``view`` with the hidden part ``hidden`` (one of
        :meth:`candidates`)."""
        raise NotImplementedError

    # ----- capabilities -----------------------------------------------------------------
    def observation(self) -> HistoryObservation | None:
        return HistoryObservation(self)

    def drawing(self) -> Drawing[History]:
        from .history_svg import render_svg

        return Drawing(lambda state, **options: render_svg(self, state, **options))


@dataclass(frozen=True)
class PublicView:
    """A spectator's view: the history with the private deals as ``?``."""

    history: str
    seat: None = None


class HistoryObservation:
    """The :class:`~gamesearch.capabilities.Observation` of a :class:`HistoryGame`: a seat's
    view (hashable; ``str``: OpenSpiel's information-state string), its legal actions, and
    full states sampled from the view (the opponent's private outcomes drawn uniformly among
    those consistent with it: chance deals them uniformly)."""

    def __init__(self, game: HistoryGame) -> None:
        self.game = game
        #: the perfect-information game of the sampled states (every card in view)
        self.world = world_of(game)

    def observe(self, state: History, seat: int | None) -> Hashable:
        if seat is None:  # a spectator: the history with the private deals as "?"
            return PublicView(self.game.public_text(state))
        view: Hashable = self.game.view(state, seat)
        return view

    def actions(self, observation: Hashable) -> list[int]:
        if isinstance(observation, PublicView):
            return []
        return self.game.view_actions(observation)

    def describe(self, observation: Hashable) -> str:
        if isinstance(observation, PublicView):
            return f"a spectator sees: {observation.history}"
        return self.game.describe_view(observation)

    def public_game(self) -> HistoryGame:
        """These games keep no secret in their options: a new game of the same spec."""
        return copy.copy(self.game)

    def sampler(self, observation: Hashable) -> tuple[list[Any], None]:
        return self.game.candidates(observation), None

    def sample(self, observation: Hashable, rng: random.Random,
               sampler: Any = None) -> History:
        # ``sampler``: what :meth:`sampler` built, or its first part alone (as PIMC and
        # ISMCTS pass it, Oh Hell's convention)
        if sampler is None:
            hidden = self.game.candidates(observation)
        elif isinstance(sampler, tuple):
            hidden = sampler[0]
        else:
            hidden = sampler
        return self.game.assemble(observation, rng.choice(hidden))


def world_of(game: HistoryGame) -> HistoryGame:
    """The same rules with every card in view (no observation): PIMC's worlds."""
    cls = type(game)
    if cls.world_class is None:
        from dataclasses import replace

        world = type(f"{cls.__name__}World", (cls,), {
            "name": f"{cls.name}-world",
            "game_type": replace(cls.game_type, perfect_information=True),
            "observation": lambda self: None,
        })
        cls.world_class = world
    return cls.world_class()

