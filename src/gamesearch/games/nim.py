"""Nim: the plain, readable game to copy when you add a game of your own.

Rules (normal play): a few heaps of counters; a player takes one or more counters from one
heap; whoever takes the last counter wins. Bouton (1901) solved it: the player to move
loses exactly when the XOR of the heap sizes (the *nim-sum*) is 0, which gives the tests
an independent truth to check every search against.

This module is written to be read, not to be fast (for a fast game see
:mod:`gamesearch.games.tictactoe`: a compact int state and precomputed tables). It shows
every part of the game protocol (:mod:`gamesearch.game`), each with a comment on what it
is for:

* the rules: the textbook's six functions (AIMA 4e §6.1: ``initial_state``, ``to_move``,
  ``actions``, ``result``, ``is_terminal``, ``returns``) — enough for minimax, alpha-beta,
  max^n, MCTS and the exact solver — then ``key`` (what the transposition table stores a
  position under), ``search_start`` (what the game needs at the start of every search),
  the notation (``format_action``/``parse_action``, ``format_state``/``parse_state``, with
  clear errors for bad input: the command line and the web app rely on them) and
  ``render``;
* every *capability* (:mod:`gamesearch.capabilities`): a method that returns a small
  object, or ``None`` when the game does not have it. Nim has an ``evaluation``, a
  ``move_ordering``, ``safe_moves``, a ``drawing`` and a ``perft``; for each capability it
  does not have (``tactics``, ``null_move``, ``score_convention``, ``engine_settings``,
  ``playouts``, ``compiled_search``, ``fast_solver``, ``opening_book``, ``book_builder``,
  ``endgame_database``, ``match_hooks``, ``turn_passing``, ``observation``,
  ``value_bounds``, ``perfect_view``, ``game_record``, ``gtp``, ``gnubg_player``) a
  comment says what it is for and which game has one.

Its parameter, the start's heaps, is an option of its spec (``nim:heaps=1-3-5-7``): the
``options`` tuple declares it, typed and ranged, and the game keeps its value in the attribute
of the same name so that ``game.spec`` writes the spec back. Its positions hold spaces
(``3 4 5``), so it says that a positions-file line is one position (``split_position_line``).

Copy it, rename it, change the rules, and register it in :data:`gamesearch.games.GAMES` (or,
outside the library, name it ``py:MODULE:Nim`` or give it a ``gamesearch.games`` entry point).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import partial, reduce
from operator import xor
from types import MappingProxyType

from ..capabilities import Drawing, Evaluation, MoveOrdering, Perft, SafeMoves
from ..errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from ..game import Game, GameType
from ..spec import GameOption

#: Largest heap and number of heaps a position string may have (keeps searches finite).
MAX_HEAP = 99
MAX_HEAPS = 8


def _read_heaps(key: str, text: str) -> tuple[int, ...]:
    """Heap sizes of a spec option: ``3-4-5`` (or ``3 4 5``)."""
    words = text.replace("-", " ").split()
    if not 1 <= len(words) <= MAX_HEAPS or not all(
            w.isascii() and w.isdigit() and int(w) <= MAX_HEAP for w in words):
        raise InvalidLimitError(f"option {key}={text[:60]!r}: expected 1 to {MAX_HEAPS} heap "
                                f"sizes of 0 to {MAX_HEAP}, like 3-4-5")
    return tuple(int(w) for w in words)


@dataclass(frozen=True)
class NimState:
    """A position: the heap sizes and the player to move (0 or 1). Frozen, so it is
    hashable and search can never change it by accident."""

    heaps: tuple[int, ...]
    player: int = 0


#: An action: take ``count`` counters from heap ``heap`` (both 0-based / at least 1).
NimAction = tuple[int, int]

#: How :meth:`Nim.count_perft` counts (name -> what it counts).
PERFT_CONVENTIONS = MappingProxyType({
    "perft": "positions exactly D plies deep; a game over earlier counts 0"})


def _no_draw_bound(state: NimState) -> None:
    # Nim never ends in a draw, so no count of plies left implies one.
    return None


class Nim(Game[NimState, NimAction]):
    name = "nim"
    description = "Nim, normal play (last counter wins): the readable example game"
    num_players = 2
    # Two players take turns and nothing is left to chance: the search may read the side
    # to move from the ply's parity instead of calling to_move.
    game_type = GameType(num_players=2, alternating=True)
    # Utilities are +1 (win) and -1 (loss); search discounts wins by distance.
    max_utility = 1.0
    state_notation = "heap sizes separated by spaces or commas, e.g. '3 4 5' (player 1 to move)"

    # The options a spec may give (``nim:heaps=1-3-5-7``); each is kept in the attribute of
    # its name, which is how ``game.spec`` writes the game back.
    options = (GameOption("heaps", tuple, (3, 4, 5),
                          f"1 to {MAX_HEAPS} sizes of 0 to {MAX_HEAP}, like 1-3-5-7",
                          "the heap sizes at the start",
                          read=lambda key, text: _read_heaps(key, text),
                          write=lambda heaps: "-".join(map(str, heaps))),)

    def __init__(self, heaps: Sequence[int] = (3, 4, 5)) -> None:
        self.start = self._checked_heaps(tuple(heaps), str(tuple(heaps)))
        self.heaps = self.start

    def split_position_line(self, line: str) -> tuple[str, str]:
        # Heap sizes are separated by spaces: a positions-file line is one position.
        return line.strip(), ""

    # ----- the textbook's six functions ---------------------------------------------
    def initial_state(self) -> NimState:
        return NimState(self.start, 0)

    def to_move(self, state: NimState) -> int:
        return state.player

    def actions(self, state: NimState) -> list[NimAction]:
        # A stable order (heap by heap, small takes first): search breaks ties in favour
        # of the first action, so results are reproducible.
        return [(h, n) for h, size in enumerate(state.heaps) for n in range(1, size + 1)]

    def result(self, state: NimState, action: NimAction) -> NimState:
        # A new state every time: the old one stays valid (search relies on this).
        heap, count = action
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(tuple(heaps), 1 - state.player)

    def is_terminal(self, state: NimState) -> bool:
        return not any(state.heaps)

    def returns(self, state: NimState) -> list[float]:
        # At the end the player to move faces empty heaps: the other took the last one.
        winner = 1 - state.player
        return [1.0 if p == winner else -1.0 for p in range(2)]

    # ----- what every search asks ------------------------------------------------------
    def key(self, state: NimState) -> Hashable:
        # The table keeps a best move with each key, and plays it in any state of that key:
        # so states with one key must have the same legal actions. Heaps in another order
        # have the same value but not the same moves (heap 2 is another heap), so the key is
        # the heaps in their order (sorting them gave the PV illegal moves:
        # tests/test_pv_contract.py).
        return (state.heaps, state.player)

    # search_start(state): what a game needs at the start of every search. Every search
    # driver calls it, whatever the front end; the default (the state itself) is right for
    # Nim. Chess marks the root there, so that a repetition after it is a draw at once.

    # ----- capabilities: each returns an object, or None (gamesearch.capabilities) ---------
    # A search asks for a capability once and binds the object's members before its loop,
    # so the object costs nothing at each node. Presence is the object's presence: there is
    # no flag to set.

    def evaluation(self, name: str | None = None) -> Evaluation[NimState] | None:
        # A heuristic for depth-limited search (and MCTS's cut-off playouts): Evaluation's
        # evaluate(state, player), on the utility scale, strictly inside (-1, 1) so that a
        # real win always counts more. An Evaluation may add a quick_evaluate(state,
        # player) -> (estimate, margin), a cheap bracket of evaluate that lets the engine
        # skip the full evaluation (lazy evaluation; chess has one), and at_chance=True when
        # it scores chance nodes, the positions before a roll (backgammon). A game may offer
        # several evaluations by name; Nim has one, the default (name None).
        if name is not None:
            return super().evaluation(name)
        return Evaluation(self.evaluate)

    def evaluate(self, state: NimState, player: int) -> float:
        # Bouton's rule makes it exact in sign: a non-zero nim-sum wins for the mover.
        mover_wins = reduce(xor, state.heaps, 0) != 0
        value = 0.5 if mover_wins else -0.5
        return value if player == state.player else -value

    def move_ordering(self) -> MoveOrdering[NimState, NimAction]:
        # MoveOrdering's order_actions(state, actions): the moves most likely best first, so
        # that alpha-beta prunes more (the engine and the solver ask it first).
        return MoveOrdering(self.order_actions)

    def order_actions(self, state: NimState, actions: Sequence[NimAction]) -> list[NimAction]:
        # Moves that leave a nim-sum of 0 (the winning ones) first, then big takes.
        total = reduce(xor, state.heaps, 0)

        def rank(action: NimAction) -> tuple[int, int]:
            heap, count = action
            after = total ^ state.heaps[heap] ^ (state.heaps[heap] - count)
            return (after != 0, -count)

        return sorted(actions, key=rank)

    def safe_moves(self) -> SafeMoves[NimState, NimAction]:
        # Pons's pruning, for games won by a move that wins at once (Connect Four's and
        # Nim's: whoever takes the last counter wins). SafeMoves holds winning_action (a
        # move that wins at once, or None), safe_actions (the moves after which the
        # opponent cannot win at once) and plies_left_bound (a bound on the plies left
        # after which the game is a draw; None for Nim, which has no draws). The engine
        # ("id") and the exact solver then skip the moves that lose at once.
        return SafeMoves(self.winning_action, self.safe_actions, _no_draw_bound)

    def winning_action(self, state: NimState) -> NimAction | None:
        # One heap left: take it all.
        left = [h for h, size in enumerate(state.heaps) if size]
        return (left[0], state.heaps[left[0]]) if len(left) == 1 else None

    def safe_actions(self, state: NimState) -> list[NimAction]:
        # A move that leaves one heap lets the opponent take it and win.
        return [(h, n) for h, n in self.actions(state)
                if sum(1 for i, size in enumerate(state.heaps)
                       if (size - n if i == h else size)) != 1]

    # tactics() -> Tactics: the moves the engine must not stop at: noisy_actions (what
    # quiescence search still tries at the horizon: chess's captures), is_noisy (a cheap
    # test of one move), in_check (a threat to answer at once: check extension) and
    # exchange (what a move wins or loses in the exchange it starts, for static exchange
    # pruning: chess's SEE). Nim has no exchanges to finish: its evaluation is as good
    # after any move.

    # null_move() -> NullMove: a pass (its result and whether it is allowed) for null-move
    # pruning; chess has one. Nim has no pass.

    # score_convention() -> ScoreConvention: the game's own score of a solved value
    # (exact_score) and its inverse (score_threshold), which the solver answers in:
    # Connect Four's Pons scores, Othello's disc counts. Nim's scores are the values
    # themselves (a win, discounted by its distance).

    # engine_settings() -> EngineSettings: engine policy the game asks for by default
    # (lmr: late-move reductions, futility_margins, soft_share of a time limit,
    # score_unit: the size of "a pawn" for the time rule's falling-score and far-ahead
    # tests; lmr_table, lmp, iir: table-driven reductions, late-move pruning, internal
    # iterative reductions; exchange_margins and see_pruning: static exchange pruning;
    # noisy_first: captures before killers, history for quiet moves only),
    # a typed value: a wrong name or type is an error naming the known ones. Chess asks
    # for what its measurements kept; Nim for none (the engine's defaults).

    # playouts() -> Playouts: what MCTS asks: priors (PUCT's prior of each action) and
    # compiled (a compiled uniformly random playout; Connect Four's and Othello's; Go's
    # follows MoGo's patterns) and traced (the same playout with the moves it played, for
    # RAVE; Go's), margin (how much a finished playout is won by, for MCTS's margin=ε;
    # Go's area score) and untraced (actions the trace never reports, which RAVE then
    # leaves without AMAF statistics: Go's pass), action_codes (actions are the integers
    # below it) and traced_codes (the trace as two integer arrays, players and actions),
    # which RAVE's compact tree indexes its arrays by (Go's). Nim's playouts are the plain
    # Python ones.

    # compiled_search() -> CompiledSearch: a compiled twin of the engine's whole search
    # (its engine(...) makes one searcher's; chess's Cython one), node for node the Python
    # loop's, and table_entries(nbytes) sizes its table by memory (UCI's Hash). Nim's
    # searches are small: the Python loop serves.

    # fast_solver() -> FastSolver: a compiled exact solver whose solve(state, ...) answers
    # what the Python solver answers, much faster (Connect Four's and Othello's, numba).
    # opening_book(spec) -> Book: solved positions, looked up by state (lookup(state) ->
    # BookEntry or None; meta says how the book was made), and book_builder(): the
    # function that builds it; Connect Four has both. Nim is solved at once without them.
    # endgame_database() -> EndgameDatabase: exact values of endgame positions built by
    # retrograde analysis; probe(state) -> EndgameValue (win/loss/draw for the side to
    # move, plies to the end) or None, pieces the most it holds; the engine probes it below
    # the root (checkers, given a built database). Nim needs none.

    def drawing(self) -> Drawing[NimState]:
        # The picture for the web app: Drawing's render_svg(state, **options), every legal
        # move a clickable counter (nim_svg.py).
        from .nim_svg import render

        return Drawing(partial(render, self))

    def perft(self) -> Perft[NimState]:
        # The leaf count of the move tree, the classic test of a move generator
        # (gamesearch perft nim): Perft's count(state, depth, convention) with its
        # conventions (name -> what it counts).
        return Perft(PERFT_CONVENTIONS, self.count_perft)

    def count_perft(self, state: NimState, depth: int, convention: str | None = None) -> int:
        if convention not in (None, "perft"):
            raise InvalidLimitError(f"nim perft convention {convention!r}; allowed: perft")
        if depth == 0:
            return 1
        if self.is_terminal(state):
            return 0
        return sum(self.count_perft(self.result(state, a), depth - 1)
                   for a in self.actions(state))

    # match_hooks() -> MatchHooks: what a match starts from when the caller names nothing:
    # default_opponent (the agent `gamesearch play` and the web app put against a person;
    # Connect Four's is the solver), arena_openings (the arena's start lines; chess's 50
    # book lines), pgn_notation (FEN and UCI, so the arena can write PGN: chess) and points
    # (returns are points won, so the arena reports points per game: backgammon); teams
    # and board_points make duplicate possible in a game that starts with chance (two
    # teams of seats, the board's points from the difference of a team's returns at its
    # two tables: bridge's partnerships and IMPs; a board is the chance outcomes at the
    # start, drawn from the board's seed: bridge's deal), and team_names and
    # table_outcome name the teams and describe a finished table (a TableOutcome: words and
    # facts) in duplicate's live lines, web page and export (bridge: N-S, E-W; the
    # contract, the tricks and the score); the web app also says a team game's result by
    # team. seat_names gives each seat its colour, so people read `player 1 (red)`
    # (Rolit). Nim needs none: the default search plays it perfectly.

    # turn_passing() -> TurnPassing: give_turn(state, player), the position with another
    # player to move; best-reply search lets an opponent move out of turn with it on three
    # or more players (Rolit, Chinese Checkers). Nim has two players and does not need it.
    # observation() -> Observation: what a seat may see in a game with hidden information
    # (observe(state, seat), seat None a spectator; its actions; sample(observation, rng)
    # for a determinisation, with sampler; describe, the view in words; public_game(), the
    # game a seat is handed, without the holder's secrets; world, the game of the sampled
    # full states). Nim has perfect information: None, each seat sees the state (bridge and
    # Oh Hell have one; tests/test_information_sets.py holds every such game to it).

    # value_bounds() -> ValueBounds: bounds(state, player), a (low, high) range of the exact
    # value known without search; the engine narrows its window with it at every node
    # (bridge's double-dummy view: quick tricks); optional banked(state, player), the
    # part of the value already settled (bridge: tricks won), which the table keeps out
    # so that the key may leave it out. Nim's solver needs none.
    # perfect_view() -> PerfectView: view(state) -> (a perfect-information game, its
    # state), side(state, seat), positions(text) to solve, the result of a solved score in
    # the game's terms, the equivalents of a merged move and an optional compiled solve:
    # what a hidden-information game is when every card is seen (bridge: double dummy).
    # Nim hides nothing.

    # game_record() -> GameRecord: game records in the file format the game's players use
    # (its format name and file extension; write(start, actions, names) -> bytes and
    # read(bytes) -> (start, actions)), for ``gamesearch play --record/--load``: Go's SGF.
    # Nim has no such format: its games are lines of moves in its notation.

    # gtp() -> GTPBoard: the game speaks the Go Text Protocol (gamesearch gtp, the gtp:
    # agent for outside engines such as GNU Go). What GTP asks of a board: size, komi,
    # points (numbered 0 .. points-1), min_size and max_size (boardsize's range),
    # pass_action, vertex(action) and parse_vertex(text) (D4, pass), stones(state) (the
    # colour on each point), with_turn(state, player) (a colour may play twice),
    # reopened(state) (its passes forgotten), with_stones(state, actions) and
    # handicap_points(n) (handicap stones), read_record(bytes) (an SGF record's size, komi and
    # states), area(stones) and owners(stones) (area scoring). Go is its own GTPBoard.
    # Nim has no vertices: None.

    # gnubg_player() -> GnubgPlayer: read_board(line), the state a GNU Backgammon FIBS
    # board line describes, so gnubg plays the game through its external-player
    # interface (gamesearch gnubg-match; the answer is format_action). Backgammon's.

    # ----- notation -------------------------------------------------------------------
    def format_action(self, state: NimState, action: NimAction) -> str:
        heap, count = action
        return f"{heap + 1}-{count}"  # heap 1-based, then how many: "2-3"

    def parse_action(self, state: NimState, text: str) -> NimAction:
        heap_text, dash, count_text = text.strip().partition("-")
        legal = self.legal_action_strings(state)
        if not dash or not heap_text.isdigit() or not count_text.isdigit() \
                or not heap_text.isascii() or not count_text.isascii():
            raise IllegalMoveError(text, legal, reason="write HEAP-COUNT, e.g. 2-3")
        action = (int(heap_text) - 1, int(count_text))
        if action not in self.actions(state):
            raise IllegalMoveError(text, legal)
        return action

    def format_state(self, state: NimState) -> str:
        heaps = " ".join(str(h) for h in state.heaps)
        return heaps if state.player == 0 else f"{heaps} /2"

    def parse_state(self, text: str) -> NimState:
        body, slash, who = text.strip().partition("/")
        player = 0
        if slash:
            if who.strip() not in ("1", "2"):
                raise InvalidPositionError(f"nim position {text[:60]!r}: after '/' give the "
                                           "player to move, 1 or 2")
            player = int(who.strip()) - 1
        words = body.replace(",", " ").split()
        if not words or not all(w.isascii() and w.isdigit() and len(w) <= 9 for w in words):
            raise InvalidPositionError(f"nim position {text[:60]!r}: expected "
                                       f"{self.state_notation}")
        return NimState(self._checked_heaps(tuple(int(w) for w in words), text), player)

    # render(state): the position as text for the terminal; the default (format_state)
    # serves Nim.

    @staticmethod
    def _checked_heaps(heaps: tuple[int, ...], text: str) -> tuple[int, ...]:
        if not 1 <= len(heaps) <= MAX_HEAPS or not all(0 <= h <= MAX_HEAP for h in heaps):
            raise InvalidPositionError(f"nim position {text[:60]!r}: 1 to {MAX_HEAPS} heaps "
                                       f"of 0 to {MAX_HEAP} counters")
        return heaps
