"""Checkers (English draughts): every rule on hand-picked positions, PDN notation, and the move
generator against independent referees -- the published perft counts, OpenSpiel's
``checkers`` (perft in its action convention, and the legal moves state by state along random
games) and ``pydraughts`` (variant ``english``: perft and random games)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from gamesearch.errors import IllegalMoveError, InvalidLimitError, InvalidPositionError
from gamesearch.games import get_game
from gamesearch.games.checkers import Checkers, CheckersState
from gamesearch.games.checkers.board import row_col
from gamesearch.games.checkers.rules import START_FEN

#: Published perft of the start position, a jump chain one move (tests/data/checkers/perft.txt:
#: Aart Bik's table; depths 1-7 are the counts issue 24 quotes).
PERFT_FILE = Path(__file__).resolve().parent / "data" / "checkers" / "perft.txt"
PUBLISHED = [int(line.split()[1]) for line in PERFT_FILE.read_text().splitlines()
             if line.strip() and not line.startswith("#")][:7]

GAME = Checkers()


def moves_of(fen: str, game: Checkers = GAME) -> list[str]:
    return game.legal_action_strings(game.from_fen(fen))


# ----- the rules, one position each ---------------------------------------------------------
def test_start_position_and_first_moves() -> None:
    s = GAME.initial_state()
    assert GAME.to_fen(s) == START_FEN
    assert s.black == 0xFFF and s.white == 0xFFF00000 and s.kings == 0 and s.side == 0
    assert GAME.legal_action_strings(s) == ["9-13", "9-14", "10-14", "10-15", "11-15",
                                            "11-16", "12-16"]
    assert GAME.to_move(s) == 0  # Black moves first


def test_square_numbering_follows_the_standard_board() -> None:
    # seen from White: 1 at b8 (row 0, column 1), 4 at h8, 5 at a7, 29 at a1, 32 at g1
    assert row_col(0) == (0, 1) and row_col(3) == (0, 7) and row_col(4) == (1, 0)
    assert row_col(28) == (7, 0) and row_col(31) == (7, 6)


def test_men_move_forward_only_and_kings_both_ways() -> None:
    assert moves_of("B:W32:B14") == ["14-17", "14-18"]  # a black man: down the board
    assert moves_of("W:W14:B1") == ["14-9", "14-10"]  # a white man: up the board
    assert sorted(moves_of("B:W32:BK14")) == ["14-10", "14-17", "14-18", "14-9"]


def test_capture_is_compulsory() -> None:
    # Black could step 1-5/1-6 or 14-17, but must jump 14x23 (18 is not attackable: 22 full)
    assert moves_of("B:W18,22,19:B14,1") == ["14x23"]


def test_any_capture_not_necessarily_the_longest() -> None:
    # a three-jump chain from 1 and two-jump chains from 9: all legal (no majority rule)
    moves = moves_of("B:W14,22,23,K6:B9,1")
    assert moves == ["1x10x17x26", "9x18x25", "9x18x27"]


def test_a_chain_must_be_completed() -> None:
    # 22x15 then on to 6 or 8: the single jump 22x15 alone is not legal
    moves = moves_of("W:W22,K30:B18,10,K5,11,3")
    assert moves == ["22x15x6", "22x15x8"]
    with pytest.raises(IllegalMoveError, match="legal moves: 22x15x6 22x15x8"):
        GAME.play(GAME.from_fen("W:W22,K30:B18,10,K5,11,3"), "22x15")


def test_crowning_ends_the_move() -> None:
    # Black's man on 22 jumps 26 and is crowned on 31, where a king could jump on over 27
    # to 24 -- but the move ends at the crowning
    s = GAME.from_fen("B:W26,27:B22")
    assert GAME.legal_action_strings(s) == ["22x31"]
    after = GAME.play(s, "22x31")
    assert after.kings == 1 << 30 and after.black == 1 << 30 and after.white == 1 << 26
    assert after.side == 1
    # a king already crowned jumps on: the same geometry with a king on 22
    assert moves_of("B:W26,27:BK22") == ["22x31x24"]


def test_a_man_stepping_to_the_last_row_is_crowned() -> None:
    after = GAME.play(GAME.from_fen("B:W5:B27"), "27-32")
    assert after.black_kings == 1 << 31 and after.black_men == 0


def test_a_king_jumps_round_a_ring_each_piece_once() -> None:
    # A black king on 6 inside White's men on 9, 10, 17, 18: the chain goes round the ring
    # and back over its own start square, jumping each piece once
    s = GAME.from_fen("B:W9,10,17,18:BK6")
    moves = GAME.legal_action_strings(s)
    assert sorted(moves) == ["6x13x22x15x6", "6x15x22x13x6"]
    after = GAME.play(s, moves[0])
    assert after.white == 0 and after.black == after.kings == 1 << 5
    assert GAME.is_terminal(after)


def test_no_move_loses() -> None:
    blocked = GAME.from_fen("B:W5,6:B1")  # Black's man on 1 is hemmed in (5, 6 White)...
    # ...but 1x10 over 6 is a jump: check the no-piece case and a true block instead
    assert GAME.legal_action_strings(blocked) == ["1x10"]
    none_left = GAME.from_fen("B:W21:B")
    assert GAME.is_terminal(none_left)
    assert GAME.returns(none_left) == (-GAME.max_utility, GAME.max_utility)
    stuck = GAME.from_fen("W:W29:B25,22")  # White's man on 29: 25 ahead, 22 behind it
    assert GAME.legal_action_strings(stuck) == []
    assert GAME.returns(stuck) == (GAME.max_utility, -GAME.max_utility)
    assert GAME.termination(stuck) == "White has no move"


def test_move_limit_draw() -> None:
    game = Checkers(draw_plies=4)
    s = game.from_fen("B:WK32:BK1")
    for m in ["1-6", "32-27", "6-1"]:
        s = game.play(s, m)
        assert not game.is_terminal(s)
    s = game.play(s, "27-32")  # the fourth king move in a row
    assert game.is_terminal(s) and game.returns(s) == (0.0, 0.0)
    assert "move limit" in (game.termination(s) or "")
    # a man's move resets the count
    s = game.from_fen("B:WK32,21:BK1")
    for m in ["1-6", "32-27", "6-1", "21-17"]:
        s = game.play(s, m)
    assert s.quiet == 0 and not game.is_terminal(s)


def test_threefold_repetition_draw() -> None:
    s = GAME.from_fen("B:WK32:BK1")
    cycle = ["1-6", "32-27", "6-1", "27-32"]
    for m in cycle:  # back at the start: its second occurrence
        s = GAME.play(s, m)
    assert not GAME.is_terminal(s)
    for m in cycle[:3]:
        s = GAME.play(s, m)
        assert not GAME.is_terminal(s)
    s = GAME.play(s, cycle[3])  # third occurrence
    assert GAME.is_terminal(s) and GAME.returns(s) == (0.0, 0.0)
    assert GAME.termination(s) == "threefold repetition"


def test_game_spec_option() -> None:
    assert get_game("checkers:draw_plies=40").draw_plies == 40  # type: ignore[attr-defined]
    assert get_game("checkers:draw_plies=40").spec == "checkers:draw_plies=40"
    with pytest.raises(InvalidLimitError):
        get_game("checkers:draw_plies=0")


# ----- notation --------------------------------------------------------------------------------
def test_fen_round_trip_and_bitboards() -> None:
    s = GAME.from_fen("B:W21,22,K30:B1,2,K5")
    assert s.black == (1 << 0) | (1 << 1) | (1 << 4)
    assert s.white == (1 << 20) | (1 << 21) | (1 << 29)
    assert s.kings == (1 << 4) | (1 << 29)
    assert s.black_kings == 1 << 4 and s.white_men == (1 << 20) | (1 << 21)
    assert GAME.to_fen(s) == "B:W21,22,K30:B1,2,K5"
    assert GAME.to_fen(GAME.from_fen("W:B1-12:W21-32")) == START_FEN.replace("B:", "W:", 1)
    assert GAME.to_fen(GAME.from_fen('[FEN "W:W21,22:B1."]')) == "W:W21,22:B1"


@pytest.mark.parametrize("fen, words", [
    ("", "expected the side"),
    ("X:W21:B1", "expected the side"),
    ("B:W21:W1", "once each"),
    ("B:W33:B1", "outside 1-32"),
    ("B:W2x:B1", "bad square"),
    ("B:W1:B1", "both colours"),
    ("B:W21,21:B1", "twice"),
    ("B:W:B29", "crowning row"),
    ("B:W1:B5", "crowning row"),
    ("B:W13-32:B1", "at most 12"),
])
def test_bad_fen_is_one_line_error(fen: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=words) as err:
        GAME.from_fen(fen)
    assert "\n" not in str(err.value)


def test_move_notation_and_bad_moves() -> None:
    s = GAME.from_fen("B:W14,22,23,K6:B9,1")
    assert GAME.format_action(s, GAME.parse_action(s, "1x26")) == "1x10x17x26"  # by its ends
    assert GAME.format_action(s, GAME.parse_action(s, "9x18x27")) == "9x18x27"
    with pytest.raises(IllegalMoveError, match="capture is compulsory"):
        GAME.parse_action(s, "1-5")
    with pytest.raises(IllegalMoveError, match="squares 1-32"):
        GAME.parse_action(s, "e3e4")
    with pytest.raises(IllegalMoveError, match="squares 1-32"):
        GAME.parse_action(s, "0-40")
    with pytest.raises(IllegalMoveError, match="legal moves: 9-13"):
        GAME.parse_action(GAME.initial_state(), "9-18")
    # two chains join 1 and 19 here: the ends alone are ambiguous
    amb = GAME.from_fen("B:W6,7,14,15:BK1")
    ends = [m for m in GAME.legal_action_strings(amb)
            if m.startswith("1x") and m.endswith("x1")]
    if len(ends) > 1:
        with pytest.raises(IllegalMoveError, match="ambiguous"):
            GAME.parse_action(amb, "1x1")


def test_render_and_drawing() -> None:
    s = GAME.from_fen("B:W21,K30:B1,K5")
    text = GAME.render(s)
    assert " B " in text and " W" in text and "Black to move" in text
    svg = GAME.render_svg(s)
    assert svg is not None and svg.startswith("<svg")
    assert svg.count('class="sq"') == 32 and 'data-square="1"' in svg
    assert svg.count('class="piece') == 4 and svg.count(" king") == 2


# ----- perft against the referees ----------------------------------------------------------
def test_perft_matches_published_counts() -> None:
    assert PUBLISHED == [7, 49, 302, 1469, 7361, 36768, 179740]
    s = GAME.initial_state()
    assert [GAME.count_perft(s, d) for d in range(1, 8)] == PUBLISHED


def test_perft_bad_convention_and_depth() -> None:
    with pytest.raises(InvalidLimitError, match="allowed: moves, openspiel"):
        GAME.count_perft(GAME.initial_state(), 2, "chess")
    with pytest.raises(InvalidLimitError):
        GAME.count_perft(GAME.initial_state(), -1)


def _openspiel() -> object:
    return pytest.importorskip("pyspiel", reason="OpenSpiel (the dev extra) is the referee")


def _spiel_perft(state: object, depth: int) -> int:
    if depth == 0 or state.is_terminal():  # type: ignore[attr-defined]
        return 1
    return sum(_spiel_perft(state.child(a), depth - 1)  # type: ignore[attr-defined]
               for a in state.legal_actions())  # type: ignore[attr-defined]


def test_perft_in_openspiel_convention_matches_openspiel() -> None:
    pyspiel = _openspiel()
    root = pyspiel.load_game("checkers").new_initial_state()  # type: ignore[attr-defined]
    ours = [GAME.count_perft(GAME.initial_state(), d, "openspiel") for d in range(1, 8)]
    assert ours == [_spiel_perft(root, d) for d in range(1, 8)]
    # the conventions part where a chain of two jumps first fits in the depth
    assert ours[:6] == PUBLISHED[:6] and ours[6] != PUBLISHED[6]


def _spiel_square(name: str) -> int:
    """OpenSpiel's square (``g3``: its player 0, our Black, moves up from row 1) as our bit:
    its board is ours turned round (its row 1 is our squares 1-4, its column h our left)."""
    col = 7 - (ord(name[0]) - ord("a"))
    row = int(name[1]) - 1
    return 4 * row + col // 2


def _spiel_moves(state: object) -> set[tuple[int, ...]]:
    """Every whole move of OpenSpiel's player to move: its action sequences until the turn
    passes, as paths of our square bits."""
    player = state.current_player()  # type: ignore[attr-defined]
    out: set[tuple[int, ...]] = set()

    def walk(s: object, path: tuple[int, ...]) -> None:
        for a in s.legal_actions():  # type: ignore[attr-defined]
            text = s.action_to_string(player, a)  # type: ignore[attr-defined]
            start, end = _spiel_square(text[:2]), _spiel_square(text[2:4])
            p = path or (start,)
            c = s.child(a)  # type: ignore[attr-defined]
            if not c.is_terminal() and c.current_player() == player:
                walk(c, (*p, end))
            else:
                out.add((*p, end))

    walk(state, ())
    return out


def test_random_games_state_by_state_against_openspiel() -> None:
    """Along 100 random games the legal moves agree with OpenSpiel's at every turn, as long
    as both rule sets apply: OpenSpiel draws after 40 plies without a capture (ours counts
    plies without a capture or a man's move, to 80, and also draws on a third repetition),
    so a game is compared until either side's draw rule could end it."""
    pyspiel = _openspiel()
    spiel_game = pyspiel.load_game("checkers")  # type: ignore[attr-defined]
    rng = random.Random(24)
    turns = wins = 0
    for _ in range(100):
        ours = GAME.initial_state()
        theirs = spiel_game.new_initial_state()
        no_capture = 0
        while True:
            legal = set(ours.moves)
            if theirs.is_terminal() or GAME.is_terminal(ours):
                if GAME.termination(ours) == "threefold repetition":
                    break  # our draw rule, which OpenSpiel does not have
                if theirs.is_terminal() and GAME.is_terminal(ours) and no_capture < 40:
                    assert legal == set()
                    r = theirs.returns()
                    assert tuple(v * GAME.max_utility for v in r) == GAME.returns(ours)
                    wins += 1
                break
            if no_capture >= 39:
                break  # OpenSpiel's draw rule could end the game here
            assert legal == _spiel_moves(theirs), GAME.to_fen(ours)
            turns += 1
            move = rng.choice(sorted(legal))
            capture = GAME.tactics().is_noisy(ours, move)  # type: ignore[misc]
            no_capture = 0 if capture else no_capture + 1
            for start, end in itertools.pairwise(move):
                wanted = [a for a in theirs.legal_actions()
                          if (_spiel_square(theirs.action_to_string(theirs.current_player(),
                                                                    a)[:2]),
                              _spiel_square(theirs.action_to_string(theirs.current_player(),
                                                                    a)[2:4])) == (start, end)]
                assert len(wanted) == 1
                theirs.apply_action(wanted[0])
            ours = GAME.result(ours, move)
    print("openspiel turns", turns, "wins", wins)
    assert turns > 3000 and wins >= 20


def _play_on_both(ours: Any, theirs: Any, game: Checkers, move: tuple[int, ...]) -> Any:
    """Play our whole ``move`` on our state and, leg by leg, on OpenSpiel's."""
    for start, end in itertools.pairwise(move):
        player = theirs.current_player()
        wanted = [a for a in theirs.legal_actions()
                  if (_spiel_square(theirs.action_to_string(player, a)[:2]),
                      _spiel_square(theirs.action_to_string(player, a)[2:4])) == (start, end)]
        assert len(wanted) == 1
        theirs.apply_action(wanted[0])
    return game.result(ours, move)


def test_openspiel_draw_count_ends_games_where_openspiel_does() -> None:
    """``checkers:draw_plies=40,draw_count=captures`` counts as OpenSpiel does (40 plies
    without a capture; a man's move does not reset the count): along random games played
    in both to their end, the two end at the same ply with the same returns, draws by the
    move limit included (a game our threefold repetition ends first, a rule OpenSpiel does
    not have, is left out). Under the default count the same games run on."""
    pyspiel = _openspiel()
    spiel_game = pyspiel.load_game("checkers")  # type: ignore[attr-defined]
    game = get_game("checkers:draw_plies=40,draw_count=captures")
    assert isinstance(game, Checkers) and game.spec == "checkers:draw_plies=40,draw_count=captures"
    rng = random.Random(40)
    ends: dict[str, int] = {}
    for _ in range(60):
        ours, theirs = game.initial_state(), spiel_game.new_initial_state()
        while not game.is_terminal(ours) and not theirs.is_terminal():
            ours = _play_on_both(ours, theirs, game, rng.choice(sorted(ours.moves)))
        why = game.termination(ours) or "OpenSpiel only"
        if why == "threefold repetition":
            continue
        assert game.is_terminal(ours) and theirs.is_terminal(), why
        assert tuple(v * game.max_utility for v in theirs.returns()) == game.returns(ours)
        ends[why.split(" (")[0]] = ends.get(why.split(" (")[0], 0) + 1
    print("game ends", ends)
    assert ends.get("move limit", 0) >= 10 and len(ends) >= 2


def test_draw_count_captures_counts_past_a_mans_move() -> None:
    game = Checkers(draw_plies=4, draw_count="captures")
    s = game.from_fen("B:WK32,21:BK1")
    for m in ["1-6", "32-27", "6-1", "21-17"]:  # the man's move does not reset the count
        s = game.play(s, m)
    assert s.quiet == 4 and game.is_terminal(s) and game.returns(s) == (0.0, 0.0)
    assert game.termination(s) == "move limit (4 plies without a capture)"
    assert s.history == ()  # (but nothing before a man's move can recur)
    s = game.from_fen("B:WK27,K32:BK1,K23")
    s = game.play(s, "1-6")
    assert s.quiet == 1
    s = game.play(s, "27x18")  # a capture does
    assert s.quiet == 0
    with pytest.raises(InvalidLimitError, match="allowed: captures_or_men, captures"):
        get_game("checkers:draw_count=men")


def _draughts() -> object:
    return pytest.importorskip("draughts", reason="pydraughts (the dev extra) is the referee")


def test_perft_matches_pydraughts() -> None:
    draughts = _draughts()
    board = draughts.Board(variant="english")  # type: ignore[attr-defined]

    def count(depth: int) -> int:
        moves = board.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            board.push(m)
            total += count(depth - 1)
            board.pop()
        return total

    assert [count(d) for d in range(1, 4)] == [GAME.count_perft(GAME.initial_state(), d)
                                                for d in range(1, 4)]
    mid = "W:W18,22,23,25,26,K3:B1,2,9,11,14,15,K30"
    board = draughts.Board(variant="english", fen=mid)  # type: ignore[attr-defined]
    assert count(3) == GAME.count_perft(GAME.from_fen(mid), 3)


def test_random_games_state_by_state_against_pydraughts() -> None:
    draughts = _draughts()
    rng = random.Random(7)
    turns = wins = 0
    for _ in range(8):
        ours: CheckersState = GAME.initial_state()
        board = draughts.Board(variant="english")  # type: ignore[attr-defined]
        while not GAME.is_terminal(ours):
            theirs = {tuple(sq - 1 for sq in m.steps_move): m for m in board.legal_moves()}
            assert set(ours.moves) == set(theirs), GAME.to_fen(ours)
            assert GAME.parse_state(board.fen).black == ours.black
            move = rng.choice(sorted(theirs))
            board.push(theirs[move])
            ours = GAME.result(ours, move)
            turns += 1
        if GAME.termination(ours) in ("Black has no move", "White has no move"):
            assert board.legal_moves() == []
            wins += 1
    print("pydraughts turns", turns, "wins", wins)
    assert turns > 500 and wins >= 2
