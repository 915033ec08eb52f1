"""The ``match`` and ``tournament`` commands (wired into ``gamesearch`` by
:func:`add_arena_commands`)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from typing import Any, TextIO

from ..arena.duplicate import (
    duplicate_summary,
    render_duplicate,
    render_duplicate_svg,
    table_views,
)
from ..arena.errors import ArenaError
from ..arena.ratings import SPRT, Points, format_elo, points_per_game
from ..arena.report import (
    check_pgn_notation,
    render_pairs,
    render_standings,
    repeated_games,
    repeats_warning,
    write_jsonl,
    write_pgn,
    write_picture,
    write_plot,
)
from ..arena.schedule import (
    FORMATS,
    Opening,
    TournamentConfig,
    default_openings,
    load_game,
    parse_agents,
    random_openings,
    read_openings,
)
from ..arena.timecontrol import TimeControl
from ..arena.tournament import BACKENDS, RunOptions, TournamentResult, run_tournament
from ..argtypes import RANGES, argtype, help_range
from ..errors import echo
from ..spec import GAME_SPEC_HELP


def parse_sprt(text: str, alpha: float, beta: float) -> SPRT:
    """``--sprt ELO0,ELO1`` (each in ``RANGES["elo"]``) with ``--alpha`` and ``--beta``."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError(f"expected ELO0,ELO1, e.g. 0,10; each {RANGES['elo'].describe()}")
        elo0, elo1 = (RANGES["elo"].parse(p) for p in parts)
    except ValueError as exc:
        raise ArenaError(f"--sprt {echo(text)}: {exc}") from None
    if not elo1 > elo0:
        raise ArenaError(f"--sprt {echo(text)}: elo1 must be greater than elo0")
    for name, p in (("--alpha", alpha), ("--beta", beta)):
        if not 0 < p < 0.5:
            raise ArenaError(f"{name} {p}: must be between 0 and 0.5")
    return SPRT(elo0, elo1, alpha, beta)


def _openings(args: argparse.Namespace, games_per_pair: int) -> tuple[Opening, ...]:
    game = load_game(args.game)
    if getattr(args, "duplicate", False):
        if args.openings is not None or args.random_plies is not None:
            raise ArenaError("--duplicate plays the game's own boards (deals): "
                             "--openings and --random-plies do not apply")
        return ()
    if args.openings is not None:
        return tuple(read_openings(game, args.openings))
    if args.random_plies is not None:
        count = (games_per_pair + 1) // 2
        return tuple(random_openings(game, count, args.random_plies, args.seed))
    return tuple(default_openings(game))  # the game's (chess: balanced book lines), if any


def _config(args: argparse.Namespace, agents: list[str], games: int, fmt: str
            ) -> TournamentConfig:
    game = load_game(args.game)
    if getattr(args, "func", None) is cmd_match and game.num_players != 2:
        raise ArenaError(f"match is for two-player games; {game.spec} has {game.num_players} "
                         f"seats: use gamesearch tournament {game.spec} --agents A B C ...")
    config = TournamentConfig(
        game=game.spec,
        agents=tuple(parse_agents(agents)),
        format=fmt,
        games_per_pair=games,
        time_control=TimeControl.parse(args.time_control),
        grace=args.grace,
        openings=_openings(args, games),
        seed=args.seed,
        max_plies=args.max_plies,
        duplicate=getattr(args, "duplicate", False),
    )
    config.check_seats()
    return config


def _run(args: argparse.Namespace, config: TournamentConfig, sprt: SPRT | None
         ) -> TournamentResult:
    if args.export_pgn:
        check_pgn_notation(load_game(config.game))
    options = RunOptions(
        db=args.db, workers=args.workers, backend=args.backend,
        ray_address=args.ray_address, sprt=sprt,
        progress=None if args.quiet else sys.stderr,
    )
    result = run_tournament(config, options)
    title = (f"{config.game}: " + " vs ".join(a.name for a in config.agents)
             if len(config.agents) == 2 else f"{config.game} {config.format}, "
             f"{len(config.agents)} agents")
    writers: list[tuple[str | None, Callable[[str], None]]] = [
        (args.plot, lambda path: write_picture(  # (duplicate: IMPs; no Elo, no rating)
            path, title, render_duplicate_svg(title, config, result.records),
            render_duplicate(config, result.records)) if config.duplicate else
            write_plot(path, title, list(config.agents), result.records, config.seats)),
        (args.export_jsonl, lambda path: write_jsonl(path, result.records, list(config.agents),
                                                     config.game, config.key,
                                                     _duplicate_extras(config, result))),
        (args.export_pgn, lambda path: write_pgn(path, result.records, list(config.agents),
                                                 load_game(config.game), config.key)),
    ]
    for path, write in writers:
        if not path:
            continue
        try:
            write(path)
        except OSError as exc:
            raise ArenaError(f"cannot write {echo(path)}: {exc.strerror or exc}") from None
    return result


def _duplicate_extras(config: TournamentConfig, result: TournamentResult
                      ) -> list[dict[str, Any]] | None:
    """What ``--export-jsonl`` adds to each table of a duplicate tournament
    (``docs/arena.md``): ``duplicate``, the table's :func:`table_views` object (board,
    table, the board's game, the outcome -- bridge: contract, declarer, tricks, score --
    and each team's agent, score and board points), and ``result`` as the outcome's text
    in place of the per-seat ranks; ``None`` (nothing added) for other tournaments."""
    if not config.duplicate:
        return None
    return [{"result": view["outcome"]["text"], "duplicate": view}
            for view in table_views(config, result.records)]


def _summary(result: TournamentResult) -> dict[str, Any]:
    cfg = result.config

    def num(x: float) -> float | None:  # JSON has no infinity: null, and see "elo_text"
        return x if math.isfinite(x) else None

    data: dict[str, Any] = {
        "game": cfg.game,
        "tournament": cfg.key,
        "scheduled": result.scheduled,
        "games": len(result.records),
        "played": result.played,
        "seats": cfg.seats,
        "duplicate": cfg.duplicate,
        "standings": [
            {"agent": s.name, "spec": s.spec, "games": s.score.games, "wins": s.score.wins,
             "draws": s.score.draws, "losses": s.score.losses, "points": s.score.points,
             "elo": num(s.elo), "margin": num(s.margin),
             "elo_text": format_elo(s.elo, s.margin), "forfeits": s.forfeits}
            if s.seats == 2 else
            {"agent": s.name, "spec": s.spec, "games": s.games, "firsts": s.firsts,
             "mean_rank": num(s.mean_rank), "score": num(s.mean_score),
             "score_margin": num(s.score_margin),
             "seat_scores": [num(s.seat_score(k)) for k in range(s.seats)],
             "rating": num(s.mu), "rating_sigma": num(s.sigma),
             "rating_margin": num(s.rating_margin), "forfeits": s.forfeits}
            for s in result.standings
        ],
        "terminations": {},
        "repeated_games": repeated_games(result.records),
    }
    for r in result.records:
        data["terminations"][r.termination] = data["terminations"].get(r.termination, 0) + 1
    if cfg.duplicate:
        data.update(duplicate_summary(cfg, result.records, outcomes=True))
        return data
    if len(cfg.agents) == 2:
        sc = result.match_score
        data["match"] = {"wins": sc.wins, "draws": sc.draws, "losses": sc.losses,
                         "score": sc.score, "elo": num(sc.elo), "margin": num(sc.elo_margin()),
                         "elo_text": format_elo(sc.elo, sc.elo_margin()), "los": sc.los}
    points = _points(result)
    if points is not None:
        data["points"] = {name: {"games": p.games, "mean": p.mean, "margin": num(p.margin),
                                 "wins": p.wins, "win_rate": p.win_rate,
                                 "win_interval": [p.win_low, p.win_high]}
                          for name, p in points.items()}
    if result.sprt is not None:
        data["sprt"] = {"llr": result.sprt.llr(result.match_score),
                        "lower": result.sprt.lower, "upper": result.sprt.upper,
                        "decision": result.sprt_decision,
                        "stopped_early": result.stopped_by_sprt}
    return data


def _points(result: TournamentResult) -> dict[str, Points] | None:
    """Each agent's points per game, for a game whose results are points
    (``MatchHooks.points``: backgammon's gammons); ``None`` for other games."""
    hooks = load_game(result.config.game).match_hooks()
    if hooks is None or not hooks.points:
        return None
    out = {}
    for k, agent in enumerate(result.config.agents):
        returns = [r.returns[r.seats.index(k)] for r in result.records
                   if r.returns is not None and k in r.seats]
        out[agent.name] = points_per_game(returns)
    return out


def _print(result: TournamentResult, args: argparse.Namespace, out: TextIO) -> None:
    if args.json:
        out.write(json.dumps(_summary(result)) + "\n")
        return
    cfg = result.config
    if cfg.duplicate:
        out.write(f"{cfg.game}, duplicate {cfg.format}, {cfg.boards} boards at each of "
                  f"{len(cfg.pairs())} pairs of agents (two tables a board), time control "
                  f"{cfg.time_control}: {len(result.records)}/{result.scheduled} games "
                  f"({result.played} played now)\n")
        out.write(render_duplicate(cfg, result.records) + "\n")
    else:
        _print_standings(result, out)
    terms: dict[str, int] = {}
    for r in result.records:
        terms[r.termination] = terms.get(r.termination, 0) + 1
    out.write("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terms.items()))
              + "\n")
    warning = repeats_warning(result.records)
    if warning is not None:
        out.write(warning + "\n")


def _print_standings(result: TournamentResult, out: TextIO) -> None:
    cfg = result.config
    agents = list(cfg.agents)
    seats = f", {cfg.seats} seats, {len(cfg.pairs())} tables" if cfg.seats > 2 else ""
    out.write(f"{cfg.game}, {cfg.format}{seats}, time control {cfg.time_control}: "
              f"{len(result.records)}/{result.scheduled} games "
              f"({result.played} played now)\n")
    out.write(render_standings(result.standings) + "\n")
    if len(agents) == 2:
        sc = result.match_score
        out.write(f"{agents[0].name} vs {agents[1].name}: +{sc.wins} ={sc.draws} "
                  f"-{sc.losses}  score {100 * sc.score:.1f}%  Elo "
                  f"{format_elo(sc.elo, sc.elo_margin())}  LOS {100 * sc.los:.1f}%\n")
        if result.sprt is not None:
            out.write(result.sprt.describe(sc)
                      + ("  (stopped early)" if result.stopped_by_sprt else "") + "\n")
    else:
        pairs: list[tuple[int, ...]] = (cfg.pairs() if cfg.seats == 2 else
                 [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))])
        head = "pairs" if cfg.seats == 2 else "head to head (better rank = win)"
        out.write(f"{head}:\n" + render_pairs(agents, result.records, pairs) + "\n")
    for name, p in (_points(result) or {}).items():
        out.write(f"{name}: {p.describe()}\n")


def cmd_match(args: argparse.Namespace, out: TextIO) -> int:
    sprt = parse_sprt(args.sprt, args.alpha, args.beta) if args.sprt else None
    config = _config(args, [args.first, args.second], args.games, "round-robin")
    _print(_run(args, config, sprt), args, out)
    return 0


def cmd_tournament(args: argparse.Namespace, out: TextIO) -> int:
    games = args.games_per_pair if args.games_per_pair is not None else 2
    if args.boards is not None and not args.duplicate:
        raise ArenaError("--boards N is for --duplicate (each board at two tables); "
                         "without it use --games-per-pair")
    if args.duplicate:
        if args.games_per_pair is not None:
            raise ArenaError("--duplicate counts boards: give --boards N, not "
                             "--games-per-pair")
        games = 2 * (args.boards if args.boards is not None else 1)
    config = _config(args, args.agents, games, args.format)
    _print(_run(args, config, None), args, out)
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--time-control", default="10+0.1", metavar="BASE+INC",
                   help="seconds per game + seconds added per move (default 10+0.1)")
    p.add_argument("--grace", type=argtype("grace"), default=1.0, metavar="S",
                   help="seconds past its clock before a move loses on time (default 1) "
                   + help_range("grace"))
    g = p.add_mutually_exclusive_group()
    g.add_argument("--openings", metavar="FILE",
                   help="one opening a line: moves in the game's notation, or a position "
                   "(default: the game's own, if it has any; chess: the 50 balanced lines "
                   "of gamesearch/data/chess_openings.txt)")
    g.add_argument("--random-plies", type=argtype("random_plies"), metavar="N",
                   help="openings of N random moves (from --seed) " + help_range("random_plies"))
    p.add_argument("--seed", type=argtype("seed"), default=0,
                   help="seed of random openings, random agents and dice (default 0)")
    p.add_argument("--max-plies", type=argtype("max_plies"), default=1000, metavar="N",
                   help="a game still running after N plies is a draw (default 1000) "
                   + help_range("max_plies"))
    p.add_argument("--db", default=":memory:", metavar="FILE",
                   help="SQLite results file; rerun the same command to resume")
    p.add_argument("--workers", type=argtype("workers"), default=1, metavar="K",
                   help="games played at once (default 1) " + help_range("workers"))
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="local processes or a Ray cluster (pip install 'gamesearch[ray]')")
    p.add_argument("--ray-address", default=None,
                   help="Ray cluster to join, HOST:PORT (default: a new local instance that "
                   "listens on 127.0.0.1 only)")
    p.add_argument("--plot", metavar="FILE", help="rating plot: .html page or .svg picture")
    p.add_argument("--export-jsonl", metavar="FILE", help="all games, one JSON object a line")
    p.add_argument("--export-pgn", metavar="FILE", help="chess games as PGN (python-chess)")
    p.add_argument("--json", action="store_true", help="the summary as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress line on stderr")


def add_arena_commands(sub: Any) -> None:
    """Add ``match`` and ``tournament`` to the ``gamesearch`` sub-command parsers."""
    s = sub.add_parser("match", help="play agent A against agent B (with SPRT if asked)")
    s.add_argument("game", help=GAME_SPEC_HELP)
    s.add_argument("first", metavar="A", help="agent spec (e.g. alphabeta:depth=4)")
    s.add_argument("second", metavar="B", help="agent spec")
    s.add_argument("--games", type=argtype("games"), default=10, metavar="N",
                   help="games to play, colours alternating (default 10) " + help_range("games"))
    s.add_argument("--sprt", metavar="ELO0,ELO1",
                   help="stop when 'A is ELO1 stronger' is accepted or rejected against ELO0")
    s.add_argument("--alpha", type=argtype("sprt_p"), default=0.05,
                   help="SPRT false positive rate (default 0.05) " + help_range("sprt_p"))
    s.add_argument("--beta", type=argtype("sprt_p"), default=0.05,
                   help="SPRT false negative rate (default 0.05) " + help_range("sprt_p"))
    _common(s)
    s.set_defaults(func=cmd_match)

    s = sub.add_parser("tournament", help="round-robin or gauntlet between several agents")
    s.add_argument("game", help=GAME_SPEC_HELP)
    s.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                   help="agent specs (NAME=SPEC to name one); the first is the gauntlet's. "
                   "A game of N seats (rolit:players=3) seats every combination of N agents "
                   "(a balanced sample of 500 when there are more), each rotated through "
                   "every seat")
    s.add_argument("--format", choices=FORMATS, default="round-robin")
    s.add_argument("--games-per-pair", type=argtype("games"), default=None, metavar="N",
                   help="games at each pair (table), colours (seats) rotating; a multiple of "
                   "the seats puts every agent in every seat (default 2) "
                   + help_range("games"))
    s.add_argument("--duplicate", action="store_true",
                   help="duplicate, for a game of two teams (bridge): each agent plays every "
                   "seat of its team, each pair of agents plays --boards boards, each board "
                   "at two tables with the teams turned; results in board points (bridge: "
                   "IMPs) per agent with 95 %% intervals")
    s.add_argument("--boards", type=argtype("boards"), default=None, metavar="N",
                   help="boards each pair of agents plays with --duplicate (default 1) "
                   + help_range("boards"))
    _common(s)
    s.set_defaults(func=cmd_tournament)
