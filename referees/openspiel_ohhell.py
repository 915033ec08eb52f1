"""OpenSpiel's ``ISMCTSBot`` seated at our Oh Hell table (the benchmark's opponent).

The bot is handed what every agent is handed -- the seat's view -- never the deal: the
adapter draws one full state from the view with our sampler, replays it into OpenSpiel's
``oh_hell`` (the whole deal as OpenSpiel's chance actions, then the bids and cards), and
asks the bot for a move there. The bot then resamples the hidden cards itself
(``ResampleFromInfostate``) at every simulation, so the state we pass only fixes its
information set. Its resampling deals the unseen cards at random with no regard to the
voids play has revealed, so some of its worlds give a seat a card of a suit it has shown
it lacks: its searches spend simulations on impossible worlds, which handicaps it against
ours (whose samples are exact) from the first discard on -- the comparison measures both
the search and the sampler."""

from __future__ import annotations

import random
from typing import Any

from gamesearch.agents import Agent
from gamesearch.errors import UnsupportedGameError
from gamesearch.game import Game
from gamesearch.games.ohhell import (
    BID,
    PLAYERS,
    SeatView,
    from_openspiel_card,
    openspiel_chance_actions,
    to_openspiel_card,
)
from gamesearch.search.control import Limit

PARAMS = {"players": PLAYERS, "num_suits": 4, "num_cards_per_suit": 4,
          "num_tricks_fixed": 3}


def openspiel_state(pyspiel: Any, game: Any, state: Any) -> Any:
    """Our (full) state replayed in OpenSpiel's ``oh_hell``."""
    s = game.new_initial_state()
    for a in openspiel_chance_actions(state):
        s.apply_action(a)
    first = (state.dealer + 1) % PLAYERS
    for k in range(PLAYERS):
        b = state.bids[(first + k) % PLAYERS]
        if b < 0:
            break
        s.apply_action(BID + b)
    for _, card in state.plays:
        s.apply_action(to_openspiel_card(card))
    return s


class OpenSpielIsmcts(Agent):
    """OpenSpiel's ``ISMCTSBot`` (random rollouts, ``uct_c``, ``simulations`` per move or
    ``seconds`` of wall clock), playing from the seat's view."""

    def __init__(self, simulations: int = 1000, seconds: float | None = None,
                 uct_c: float = 2.0, seed: int = 0) -> None:
        try:
            import pyspiel
        except ImportError:  # pragma: no cover - open_spiel is in the dev extra
            raise UnsupportedGameError("OpenSpiel's ISMCTSBot needs open_spiel "
                                       "(pip install open_spiel)") from None
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("oh_hell", PARAMS)
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.ISMCTSBot(seed, evaluator, uct_c,
                                     simulations if seconds is None else 10**9, -1,
                                     pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False,
                                     False, -1.0 if seconds is None else seconds)
        self.rng = random.Random(seed)
        self.name = f"openspiel-ismcts:{'time=' + str(seconds) if seconds else simulations}"

    def choose(self, game: Game[Any, Any], state: Any, limit: Limit | None = None) -> Any:
        if not isinstance(state, SeatView):
            raise UnsupportedGameError("the ISMCTSBot adapter is handed a seat's view")
        observation = game.observation()
        assert observation is not None
        world = observation.sample(state, self.rng)
        action = self.bot.step(openspiel_state(self.pyspiel, self.game, world))
        return action if action >= BID else from_openspiel_card(action)
