"""A backgammon evaluation learned by TD(lambda) self-play, as TD-Gammon learned its own.

Follows Tesauro, "Practical issues in temporal difference learning" (Machine Learning 8,
1992) and "Temporal difference learning and TD-Gammon" (CACM 38(3), 1995), with Sutton's
TD(lambda) (Machine Learning 3, 1988):

* **Net**: one hidden layer of sigmoid units (40 or 80, as TD-Gammon 0.0 and 1.0) and five
  sigmoid outputs, as gnubg has them: P(win), P(win a gammon), P(win a backgammon),
  P(lose a gammon), P(lose a backgammon); money equity
  ``2 P(win) - 1 + P(wg) - P(lg) + P(wbg) - P(lbg)``.
* **Inputs**: Tesauro's raw encoding (four units a point: at least 1, 2, 3 checkers, and
  ``(n - 3) / 2`` beyond three; checkers on the bar / 2; checkers off / 15) for the side on
  roll then its opponent: 196 inputs. Departure: no "whose turn" units; the net always
  sees the position from the side on roll (gnubg's convention), and a move is chosen by
  evaluating each resulting position from the opponent's side and flipping the outputs.
* **Expert inputs** (optional, ``--expert``): TD-Gammon 2.x added hand-made features to the
  raw encoding (Tesauro 1995 names pip counts, hitting chances and primes); ours are nine
  (:func:`expert_features`): both pip counts, a race flag, each side's share of the 36
  rolls that hit a blot (direct and combination shots, blocks ignored; tested against the
  published table of hitting chances), each side's longest prime and home-board points.
  A net's input count (196 or 205) says whether it takes them.
* **Widening** (:meth:`Net.grown`): a trained net can take more hidden units and the expert
  inputs without changing its function (new hidden units with zero output weights, new
  inputs with zero weights; Chen et al.'s Net2Net, 2016, widens the same way), so the
  shipped ``td80`` went on from ``td40``'s 74,000 games instead of starting afresh.
* **Learning**: self-play at 0 ply; after every move the outputs of the position before
  the move are moved towards those after it (or towards the true result at the end),
  ``w += alpha * sum_k delta_k * e_k``, with one eligibility trace per output decayed by
  ``lambda``. Departure: the values are kept from one side's view in each game so that one
  trace serves both sides (:func:`.compiled.train_games`).

The plain numpy forward pass here (:func:`net_outputs`, :func:`evaluate`) is the reference;
the compiled one (:func:`.compiled.net_forward`) is tested equal to it.

Training command (a progress bar, a learning curve against pubeval every ``--eval-every``
games, saved as ``.npz`` weights, a JSON log and a PNG picture; a run cut short by
``--max-minutes`` still leaves its last checkpoint). The shipped ``td40`` came in two
stages, each deterministic for its seed, and ``td80`` (the default) from it in a third::

    python -m gamesearch.games.backgammon.td train --seed 1 --games 50000 \\
        --eval-every 10000 --eval-games 500 --out stage1.npz
    python -m gamesearch.games.backgammon.td train --seed 2 --init stage1.npz \\
        --games 24000 --alpha 0.05 --alpha-final 0.005 --eval-every 4000 \\
        --eval-games 500 --out src/gamesearch/games/backgammon/data/td40.npz
    python -m gamesearch.games.backgammon.td train --seed 3 \
        --init src/gamesearch/games/backgammon/data/td40.npz --hidden 80 --expert \
        --games 80000 --alpha 0.1 --alpha-final 0.01 --eval-every 8000 \
        --eval-games 1000 --max-minutes 44 --out src/gamesearch/games/backgammon/data/td80.npz

(stage 1: 50,000 games at a constant alpha 0.1, 39 minutes under ``nice`` on a shared
2-core machine, log ``data/td40-stage1.log.json``; stage 2: 24,000 more games with alpha
decayed from 0.05 to 0.005, 16.6 minutes, log ``data/td40.log.json``, learning curve
``data/td40.png``; stage 3: see ``data/td80.log.json`` and ``data/td80.png``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from gamesearch.errors import InvalidLimitError, InvalidPositionError
from gamesearch.games.backgammon import compiled
from gamesearch.games.backgammon.pubeval import (
    WEIGHTS_CONTACT,
    WEIGHTS_RACE,
    TanBoard,
    check_board,
    is_race,
)

__all__ = ["NETS", "Net", "default_net", "encode", "evaluate", "expert_features", "net_outputs",
           "shipped_net", "train"]

#: the shipped nets, by name (their shape), each with its ``.log.json`` and ``.png``
NETS = {"td80": "td80.npz", "td40": "td40.npz"}
#: the strongest shipped net, the one the evaluator ``td`` uses
DEFAULT_NET = "td80"


@dataclass
class Net:
    """The weights of a one-hidden-layer net: ``w1`` (hidden x 196), ``b1``, ``w2``
    (5 x hidden), ``b2``."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    @classmethod
    def random(cls, hidden: int, seed: int, expert: bool = False) -> Net:
        """Small random weights (uniform in +-0.1) from ``seed``; with ``expert`` the net
        also takes the expert features (:func:`expert_features`)."""
        rng = np.random.default_rng(seed)
        inputs = compiled.NUM_EXPERT_INPUTS if expert else compiled.NUM_INPUTS
        return cls(
            rng.uniform(-0.1, 0.1, (hidden, inputs)),
            rng.uniform(-0.1, 0.1, hidden),
            rng.uniform(-0.1, 0.1, (compiled.NUM_OUTPUTS, hidden)),
            rng.uniform(-0.1, 0.1, compiled.NUM_OUTPUTS),
        )

    @property
    def expert(self) -> bool:
        """Whether the net takes the expert features beside the raw encoding."""
        return bool(self.w1.shape[1] == compiled.NUM_EXPERT_INPUTS)

    def grown(self, hidden: int, expert: bool, seed: int) -> Net:
        """The same function with more hidden units and/or the expert inputs: the new
        hidden units get small random input weights (+-0.1, from ``seed``) and zero output
        weights, the new inputs zero weights, so the outputs are unchanged until training
        moves them (a function-preserving widening, as Net2Net's)."""
        old_hidden, old_inputs = self.w1.shape
        if hidden < old_hidden or (self.expert and not expert):
            raise InvalidLimitError(f"a net of {old_hidden} hidden units"
                                    f"{' with expert inputs' if self.expert else ''} cannot "
                                    f"shrink to {hidden}{' with' if expert else ' without'} "
                                    "them")
        inputs = compiled.NUM_EXPERT_INPUTS if expert else compiled.NUM_INPUTS
        rng = np.random.default_rng(seed)
        w1 = np.zeros((hidden, inputs))
        w1[:old_hidden, :old_inputs] = self.w1
        w1[old_hidden:] = rng.uniform(-0.1, 0.1, (hidden - old_hidden, inputs))
        b1 = np.concatenate([self.b1, rng.uniform(-0.1, 0.1, hidden - old_hidden)])
        w2 = np.zeros((compiled.NUM_OUTPUTS, hidden))
        w2[:, :old_hidden] = self.w2
        return Net(w1, b1, w2, self.b2.copy())

    @classmethod
    def load(cls, path: str | Path) -> Net:
        """The weights saved by :meth:`save`."""
        with np.load(path) as data:
            return cls(data["w1"], data["b1"], data["w2"], data["b2"])

    def save(self, path: str | Path) -> None:
        """Save the weights as an ``.npz`` file."""
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)

    def copy(self) -> Net:
        """An independent copy of the weights."""
        return Net(self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy())


def _shot_rolls(board: TanBoard, hitter: int) -> int:
    """Of the 36 rolls, how many let side ``hitter`` hit a blot of the other side with one
    checker moving straight, blocks ignored (the plain twin of
    :func:`.compiled.shot_rolls`)."""
    own, other = board[hitter], board[1 - hitter]
    # points (hitter's frame, the bar as 24) holding a checker of the hitter, and blots
    sources = [i for i in range(25) if own[i] > 0]
    blots = [23 - k for k in range(24) if other[k] == 1]
    distances = {i - b for i in sources for b in blots if i > b}
    count = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            reach = {d1 * k for k in range(1, 5)} if d1 == d2 else {d1, d2, d1 + d2}
            count += bool(reach & distances)
    return count


def expert_features(board: TanBoard) -> np.ndarray:
    """The nine hand-made inputs of an expert net, the side on roll then the other:
    pip counts / 167; 1 in a race (no contact left); the share of the 36 rolls that hit a
    blot (direct and combination shots, blocks ignored: the side on roll's now, the other
    side's as if it were on roll); the longest prime (consecutive made points) / 6; the
    home-board points made / 6."""
    f = np.zeros(compiled.NUM_FEATURES)
    for n, side in enumerate((1, 0)):
        row = [int(v) for v in board[side]]
        f[n] = (25 * row[24] + sum((i + 1) * row[i] for i in range(24))) / 167.0
        f[3 + n] = _shot_rolls(board, side) / 36.0
        run = best = 0
        for i in range(24):
            run = run + 1 if row[i] >= 2 else 0
            best = max(best, run)
        f[5 + n] = best / 6.0
        f[7 + n] = sum(1 for i in range(6) if row[i] >= 2) / 6.0
    f[2] = float(is_race(board))
    return f


def encode(board: TanBoard, expert: bool = False) -> np.ndarray:
    """Tesauro's 196 inputs for the side on roll (row 1) then the other side (row 0); with
    ``expert`` the nine :func:`expert_features` after them."""
    parts = []
    for row in (board[1], board[0]):
        counts = np.asarray(row[:24], dtype=np.float64)
        units = np.stack([counts >= 1, counts >= 2, counts >= 3,
                          np.where(counts > 3, (counts - 3) / 2.0, 0.0)], axis=1)
        bar = float(row[24])
        off = 15 - float(sum(row))
        parts.append(np.concatenate([units.astype(np.float64).ravel(), [bar / 2.0, off / 15.0]]))
    if expert:
        parts.append(expert_features(board))
    return np.concatenate(parts)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-z)))


def net_outputs(net: Net, board: TanBoard) -> np.ndarray:
    """The five outputs for the side on roll of ``board`` (plain numpy)."""
    hidden = _sigmoid(net.w1 @ encode(board, net.expert) + net.b1)
    return _sigmoid(net.w2 @ hidden + net.b2)


def equity(outputs: np.ndarray) -> float:
    """Money equity of five outputs."""
    return float(2.0 * outputs[0] - 1.0 + outputs[1] - outputs[3] + outputs[2] - outputs[4])


_LOADED: dict[str, Net] = {}


def shipped_net(name: str) -> Net:
    """A shipped net by name (:data:`NETS`), loaded once."""
    if name not in NETS:
        raise InvalidLimitError(f"no shipped backgammon net {name!r}: known {sorted(NETS)}")
    if name not in _LOADED:
        ref = resources.files("gamesearch.games.backgammon") / "data" / NETS[name]
        with resources.as_file(ref) as path:
            _LOADED[name] = Net.load(path)
    return _LOADED[name]


def default_net() -> Net:
    """The strongest shipped net (:data:`DEFAULT_NET`, trained by the commands in the
    module doc)."""
    return shipped_net(DEFAULT_NET)


def evaluate(board: TanBoard, net: Net | None = None) -> float:
    """Money equity (-3..3) of ``board`` for its side on roll by the net (the shipped one
    unless ``net`` is given); a finished position gets its true points."""
    arr = check_board(board)
    points = int(compiled.game_points(arr))
    if points:
        # the side with no checker left has won
        return float(points if arr[1].sum() == 0 else -points)
    return equity(net_outputs(net or default_net(), arr.tolist()))


def evaluate_compiled(board: TanBoard, net: Net | None = None) -> float:
    """:func:`evaluate` by the compiled forward pass."""
    arr = check_board(board)
    points = int(compiled.game_points(arr))
    if points:
        return float(points if arr[1].sum() == 0 else -points)
    use = net or default_net()
    return float(compiled.equity_of(compiled.evaluate_board(arr, use.w1, use.b1, use.w2,
                                                            use.b2)))


def best_position(board: TanBoard, d1: int, d2: int, net: Net | None = None) -> np.ndarray:
    """The position the net plays to at 0 ply for the side on roll with ``d1``-``d2``."""
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidPositionError(f"dice are 1 to 6, got {d1}-{d2}")
    use = net or default_net()
    values = np.empty(compiled.NUM_OUTPUTS)
    return np.asarray(compiled.net_choose(check_board(board), d1, d2, use.w1, use.b1, use.w2,
                                          use.b2, values))


def versus_pubeval(net: Net, games: int, seed: int, plies: int = 0) -> np.ndarray:
    """Points per game of ``net`` (at ``plies`` 0 or 1) against pubeval over ``games``
    games, the net on roll first in every other game."""
    if plies not in (0, 1):
        raise InvalidPositionError(f"the net plays at 0 or 1 ply, not {plies}")
    rng = np.array([(seed * 2654435761 + 1) % 2**64 or 1], dtype=np.uint64)
    return np.asarray(compiled.play_vs_pubeval(net.w1, net.b1, net.w2, net.b2, WEIGHTS_RACE,
                                               WEIGHTS_CONTACT, games, rng, plies))


def _generator(seed: int) -> np.ndarray:
    """The dice generator's state for a training seed (never zero)."""
    return np.array([(seed * 6364136223846793005 + 1442695040888963407) % 2**64 or 1],
                    dtype=np.uint64)


def train(net: Net, games: int, seed: int, alpha: float = 0.1, lam: float = 0.7,
          chunk: int = 100, progress: bool = False) -> list[float]:
    """Train ``net`` in place on ``games`` self-play games; the mean squared TD error of
    each chunk of ``chunk`` games (deterministic for a seed)."""
    rng = _generator(seed)
    errors = []
    bar = _progress(games, progress)
    done = 0
    while done < games:
        n = min(chunk, games - done)
        errors.append(float(compiled.train_games(net.w1, net.b1, net.w2, net.b2, n, alpha,
                                                 lam, rng)))
        done += n
        bar.update(n)
    bar.close()
    return errors


def learning_rate(alpha: float, alpha_final: float | None, done: int, games: int) -> float:
    """The step size after ``done`` of ``games`` training games: ``alpha`` throughout, or
    decayed geometrically from ``alpha`` to ``alpha_final``."""
    if alpha_final is None:
        return alpha
    return float(alpha * (alpha_final / alpha) ** (min(done, games) / games))


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass


def _progress(total: int, shown: bool) -> _NoBar:
    if not shown:
        return _NoBar()
    from tqdm import tqdm

    bar: _NoBar = tqdm(total=total, unit="game", file=sys.stderr)
    return bar


def interval(points: np.ndarray) -> tuple[float, float, float, float]:
    """(win rate, its 95 % half-width, points per game, its 95 % half-width)."""
    n = len(points)
    wins = float(np.mean(points > 0))
    ppg = float(np.mean(points))
    return (wins, 1.96 * (wins * (1 - wins) / n) ** 0.5, ppg,
            1.96 * float(np.std(points, ddof=1)) / n ** 0.5)


def draw_curve(log: dict, path: Path) -> None:
    """The learning curve (win rate against pubeval with its 95 % interval) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [row["games"] for row in log["curve"]]
    rate = [100 * row["win_rate"] for row in log["curve"]]
    half = [100 * row["win_rate_95"] for row in log["curve"]]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(games, rate, yerr=half, marker="o", capsize=3, label="TD net, 0 ply")
    ax.axhline(50, color="grey", linestyle=":", label="pubeval's level")
    ax.set_xlabel("self-play training games")
    ax.set_ylabel(f"% of {log['eval_games']} games won against pubeval")
    ax.set_title(f"TD(lambda={log['lambda']}) backgammon net, {log['hidden']} hidden units")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """``train``: the reproducible training command (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m gamesearch.games.backgammon.td")
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="TD(lambda) self-play training with a learning curve")
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--games", type=int, default=60000)
    tr.add_argument("--hidden", type=int, default=None,
                    help="hidden units (default 40; with --init: its size, or more to widen "
                         "it, see Net.grown)")
    tr.add_argument("--expert", action="store_true",
                    help="inputs: the expert features beside the raw encoding (with --init "
                         "of a raw net: added with zero weights)")
    tr.add_argument("--alpha", type=float, default=0.1)
    tr.add_argument("--alpha-final", type=float, default=None,
                    help="decay alpha geometrically to this value over --games (default: "
                         "constant alpha)")
    tr.add_argument("--init", type=Path, default=None,
                    help="continue from these weights (.npz) instead of random ones")
    tr.add_argument("--lam", type=float, default=0.7)
    tr.add_argument("--eval-every", type=int, default=5000)
    tr.add_argument("--eval-games", type=int, default=500)
    tr.add_argument("--max-minutes", type=float, default=60.0,
                    help="stop (after the current block) past this wall time")
    tr.add_argument("--out", type=Path, required=True, help="weights file (.npz)")
    args = parser.parse_args(argv)
    if args.games <= 0 or (args.hidden is not None and args.hidden <= 0) or \
            args.eval_every <= 0 or args.eval_games <= 1:
        parser.error("--games, --hidden, --eval-every must be positive, --eval-games > 1")
    if args.alpha <= 0 or (args.alpha_final is not None and args.alpha_final <= 0):
        parser.error("--alpha and --alpha-final must be positive")
    if args.init is not None:
        if not args.init.is_file():
            parser.error(f"--init: no weights file {args.init}")
        net = Net.load(args.init)
        if (args.hidden is not None and args.hidden != net.w1.shape[0]) or \
                args.expert != net.expert:
            try:
                net = net.grown(args.hidden or net.w1.shape[0], args.expert, args.seed)
            except InvalidLimitError as exc:
                parser.error(f"--init: {exc}")
    else:
        net = Net.random(args.hidden or 40, args.seed, args.expert)
    log: dict = {"command": "python -m gamesearch.games.backgammon.td " + " ".join(
        argv if argv is not None else sys.argv[1:]),
        "seed": args.seed, "hidden": int(net.w1.shape[0]), "expert": net.expert,
        "alpha": args.alpha,
        "alpha_final": args.alpha_final, "lambda": args.lam,
        "init": str(args.init) if args.init else None,
        "eval_games": args.eval_games, "curve": [], "td_error": []}
    rng = _generator(args.seed)
    start = time.monotonic()
    bar = _progress(args.games, True)
    done = 0
    stopped_early = False

    def checkpoint() -> None:
        points = versus_pubeval(net, args.eval_games, seed=10_000 + done)
        wins, wins_half, ppg, ppg_half = interval(points)
        log["curve"].append({"games": done, "win_rate": wins, "win_rate_95": wins_half,
                             "points_per_game": ppg, "points_95": ppg_half,
                             "minutes": (time.monotonic() - start) / 60})
        bar.set_postfix_str(f"vs pubeval {100 * wins:.1f}%")
        net.save(args.out)
        log["games"] = done
        args.out.with_suffix(".log.json").write_text(json.dumps(log, indent=1) + "\n")
        draw_curve(log, args.out.with_suffix(".png"))

    checkpoint()
    while done < args.games:
        block = min(args.eval_every, args.games - done)
        while block > 0:
            n = min(500, block)
            err = compiled.train_games(net.w1, net.b1, net.w2, net.b2, n,
                                       learning_rate(args.alpha, args.alpha_final, done,
                                                     args.games), args.lam, rng)
            log["td_error"].append([done + n, float(err)])
            done += n
            block -= n
            bar.update(n)
        checkpoint()
        if (time.monotonic() - start) / 60 > args.max_minutes and done < args.games:
            stopped_early = True
            break
    bar.close()
    log["stopped_early"] = stopped_early
    log["minutes"] = (time.monotonic() - start) / 60
    args.out.with_suffix(".log.json").write_text(json.dumps(log, indent=1) + "\n")
    print(f"{done} games in {log['minutes']:.1f} min; last win rate against pubeval "
          f"{100 * log['curve'][-1]['win_rate']:.1f}%; weights in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
