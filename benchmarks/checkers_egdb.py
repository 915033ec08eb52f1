"""Checkers endgame databases: builds, value counts, workers, the solver's agreement and the
engine's conversion of won positions.

    nice -n 10 .venv/bin/python benchmarks/checkers_egdb.py --pieces 5 --dir /tmp/egdb-bench

Sections (``--sections``, comma-separated):

* ``build``: ``gamesearch egdb build checkers --pieces N`` from scratch for N = 2 .. --pieces
  (each a subprocess): positions, wall and CPU seconds, positions/s, bytes on disk, peak
  memory (the child's maximum resident set);
* ``counts``: wins, losses and draws per material (the largest build's slices summed);
* ``workers``: the --workers-pieces build with 1 and with 2 workers, and the speed-up;
* ``rebuild``: the speed-up from 1 to 2 workers on the largest pieces of a built database
  (--dir): a fixed handful of its slices with the most pieces (--rebuild-slices of them,
  none depending on another, chosen by name among those of --rebuild-min to --rebuild-max
  positions) rebuilt into --rebuild-tmp (every other slice linked from --dir, read only)
  by ``gamesearch egdb build --workers 1`` and then ``--workers 2``: wall and CPU seconds
  and whether the files are the same either way and the same as --dir's (SHA-256);
* ``solver``: the exact solver (search/solve.py, rules only, a proof within --solver-plies
  plies) against the database on random positions of up to 4 pieces won or lost within
  that many plies, and drawn ones (which it must leave undecided);
* ``convert``: the engine (``id`` at --depth, probing the database) against the database's
  slowest defence from random won positions of up to --pieces pieces, under the game's draw
  rule: the share it wins, and in how many plies beside the database's;
* ``verify``: Chinook's check (every position against its successors, ``verify_slice``) of
  the slices with exactly --verify-pieces pieces, in a seeded random order
  (--verify-seed), one slice at a time until --verify-seconds have passed; each slice's
  result is appended to --verify-jsonl, and slices already there are skipped (resumable), so
  a bounded run verifies a seeded sample of the slices when the whole set does not fit;
* ``table``: wins, losses and draws per slice of the built database in --dir (up to its
  piece count; each slice read from its value file), written as a Markdown table to
  --table-out, and a summary by piece count printed (mirror images counted in, checked
  against twice Chinook's counts: both sides to move);
* ``probe``: what probing costs and saves the engine: ``id`` at --probe-depth on
  --probe-samples positions with at most --probe-pieces pieces (the first such position of
  random games from the start, so some pieces above the database), searched with and without
  the database: nodes, seconds, nodes/s, and how often the two choose a different move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from gamesearch.games import get_game
from gamesearch.games.checkers import compiled as K
from gamesearch.games.checkers import egdb as E
from gamesearch.search import Limit, search
from gamesearch.search.control import SearchTimeout
from gamesearch.search.solve import Solver


def _fen(bm: int, bk: int, wm: int, wk: int, stm: int) -> str:
    def side(men: int, kings: int) -> str:
        squares = sorted([(s + 1, "") for s in range(32) if men >> s & 1]
                         + [(s + 1, "K") for s in range(32) if kings >> s & 1])
        return ",".join(f"{k}{s}" for s, k in squares)

    return f"{'BW'[stm]}:W{side(wm, wk)}:B{side(bm, bk)}"


def build(pieces: int, folder: Path, workers: int = 1) -> dict[str, Any]:
    """One build from scratch in a subprocess: its JSON report plus time and memory."""
    shutil.rmtree(folder, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "gamesearch", "egdb", "build", "checkers",
                          "--pieces", str(pieces), "--dir", str(folder), "--json",
                          "--workers", str(workers)],
                         check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    report: dict[str, Any] = json.loads(out)
    files = list((folder / "checkers").glob("*.*"))
    report.update(
        wall=wall, cpu=(after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        bytes=sum(f.stat().st_size for f in files),
        wld_bytes=sum(f.stat().st_size for f in files if f.suffix == ".wld"),
        dtw_bytes=sum(f.stat().st_size for f in files if f.suffix == ".dtw"),
        peak_mb=after.ru_maxrss / 1024)  # (the largest child so far: builds grow)
    return report


def section_build(args: argparse.Namespace) -> dict[str, Any]:
    print("| pieces | slices | positions | wall s | CPU s | positions/s (CPU) | WLD bytes "
          "| DTW bytes | peak MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    last: dict[str, Any] = {}
    for n in range(2, args.pieces + 1):
        r = build(n, args.dir / f"p{n}")
        print(f"| {n} | {r['slices']:,} | {r['positions']:,} | {r['wall']:.1f} | "
              f"{r['cpu']:.1f} | {r['positions'] / max(r['cpu'], 1e-9):,.0f} | "
              f"{r['wld_bytes']:,} | {r['dtw_bytes']:,} | {r['peak_mb']:.0f} |", flush=True)
        last = r
    return last


def section_counts(report: dict[str, Any]) -> None:
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in report.get("reports", []):
        name = r["slice"].split("-")[0]  # b{men}{kings}w{men}{kings}
        row = by[name]
        row[0] += r["positions"]
        row[1] += r["wins"]
        row[2] += r["losses"]
        row[3] += r["draws"]
    print("\n| material (Black men kings, White men kings) | positions | wins | losses | "
          "draws |")
    print("|---|---|---|---|---|")
    for name, (n, w, lo, d) in sorted(by.items(), key=lambda kv: (sum(
            int(c) for c in kv[0] if c.isdigit()), kv[0])):
        print(f"| {name} | {n:,} | {w:,} | {lo:,} | {d:,} |")


def section_workers(args: argparse.Namespace) -> None:
    one = build(args.workers_pieces, args.dir / "w1", workers=1)
    two = build(args.workers_pieces, args.dir / "w2", workers=2)
    same = all((args.dir / "w1" / "checkers" / f.name).read_bytes() == f.read_bytes()
               for f in (args.dir / "w2" / "checkers").glob("*.*") if f.suffix != ".json")
    print(f"\n{args.workers_pieces} pieces: 1 worker {one['wall']:.1f} s, 2 workers "
          f"{two['wall']:.1f} s: speed-up {one['wall'] / two['wall']:.2f}; files identical: "
          f"{same} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def _independent_slices(db: E.CheckersEndgameDatabase, count: int, low: int,
                        high: int) -> list[E.SliceKey]:
    """``count`` slices with the database's most pieces, ``low`` to ``high`` positions
    each, none a dependency of another (so two workers can build them at once), the first
    such by name."""
    top = [k for k in db.slices(db.pieces) if E.pieces_of(k) == db.pieces
           and low <= db.positions(k) <= high]
    chosen: list[E.SliceKey] = []
    for key in sorted(top, key=E.slice_name):
        deps = set(db.dependencies(key))
        if all(key not in db.dependencies(c) and c not in deps for c in chosen):
            chosen.append(key)
        if len(chosen) == count:
            break
    return chosen


def _digest(path: Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def section_rebuild(args: argparse.Namespace) -> None:
    """Rebuild a fixed handful of the top slices with 1 and 2 workers (see the module
    docstring); the source database is only read (its files are linked, never written)."""
    source = args.dir / "checkers"
    db = E.open_database(args.dir)
    keys = _independent_slices(db, args.rebuild_slices, args.rebuild_min, args.rebuild_max)
    names = {f"{E.slice_name(k)}.{kind}" for k in keys for kind in ("wld", "dtw")}
    positions = sum(db.positions(k) for k in keys)
    print(f"\nrebuilding {len(keys)} slices of {db.pieces} pieces, {positions:,} positions: "
          + ", ".join(E.slice_name(k) for k in keys))
    digests: dict[int, dict[str, str]] = {}
    print("| workers | wall s | CPU s | positions/s (wall) | speed-up | peak MB | load before |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    first = 0.0
    for workers in (1, 2):
        folder = args.rebuild_tmp / f"w{workers}"
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "checkers").mkdir(parents=True)
        for f in source.iterdir():
            if f.name == "egdb.json":
                shutil.copyfile(f, folder / "checkers" / f.name)
            elif f.name not in names and not f.name.endswith(".part"):
                (folder / "checkers" / f.name).symlink_to(f)
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "gamesearch", "egdb", "build", "checkers",
                              "--pieces", str(db.pieces), "--dir", str(folder), "--json",
                              "--workers", str(workers)],
                             check=True, capture_output=True, text=True).stdout
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        built = json.loads(out)["built"]
        assert built == len(keys), (built, len(keys))
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        digests[workers] = {n: _digest(folder / "checkers" / n) for n in sorted(names)}
        first = first or wall
        print(f"| {workers} | {wall:.1f} | {cpu:.1f} | {positions / wall:,.0f} | "
              f"{first / wall:.2f} | {after.ru_maxrss / 1024:.0f} | {load:.1f} |", flush=True)
    original = {n: _digest(source / n) for n in sorted(names)}
    print(f"files: 1 worker == 2 workers: {digests[1] == digests[2]}; == {source}: "
          f"{digests[1] == original} ({len(names)} files, SHA-256)")


def random_positions(db: E.CheckersEndgameDatabase, pieces: int, rng: random.Random,
                     accept: Any) -> Any:
    keys = [k for p in range(2, pieces + 1) for k in E.all_keys(p) if db.half_size(k)]
    while True:
        key = rng.choice(keys)
        position = (*K.unrank(rng.randrange(db.half_size(key)), *key, db.offsets(key)),
                    rng.randrange(2))
        value = db.probe(position)
        if value is not None and accept(value):
            yield position, value


def section_solver(args: argparse.Namespace, folder: Path) -> None:
    """The exact solver against the database: random positions of up to 4 pieces that the
    database says end within --solver-plies plies (wins and losses), and --solver-draws
    drawn ones; each solved by search/solve.py on the rules alone with ``within`` set to
    --solver-plies (a depth-bounded proof: the exact win or loss if one is forced within
    that many plies, else "not decided", which is what a draw must give)."""
    db = E.open_database(folder)
    game = get_game("checkers")
    solver = Solver(game, tt=1 << 20)
    step = solver.engine.win_step
    rng = random.Random(1)
    plies = args.solver_plies
    start = time.perf_counter()
    decisive = random_positions(db, min(4, db.pieces), rng,
                                lambda v: v.plies is not None and 0 < v.plies <= plies)
    drawn = random_positions(db, min(4, db.pieces), rng, lambda v: v.value == 0)
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # proved agree disagree unproved
    nodes = done = 0
    wanted = [("won/lost", args.samples), ("drawn", args.solver_draws)]
    for kind, count in wanted:
        sample = decisive if kind == "won/lost" else drawn
        for _ in range(count):
            if time.perf_counter() - start > args.seconds:
                print(f"(stopped after {args.seconds:g} s)")
                break
            position, value = next(sample)
            row = rows[kind]
            try:
                result = solver.solve(game.parse_state(_fen(*position)), best_moves=False,
                                      limit=Limit(nodes=args.solver_nodes), within=plies)
            except SearchTimeout:
                row[3] += 1
                continue
            done += 1
            nodes += result.nodes
            want = (None if value.value == 0 else
                    value.value * (game.max_utility - step * (value.plies or 0)))
            row[0] += 1
            if result.value == want:
                row[1] += 1
            else:
                row[2] += 1
                print(f"  disagree: {_fen(*position)} database {want} solver {result.value}")
            if done % 100 == 0:
                print(f"  {done} solved, {time.perf_counter() - start:.0f} s", flush=True)
    seconds = time.perf_counter() - start
    print(f"\nsolver (within {plies} plies, cap {args.solver_nodes:,} nodes a position, "
          f"positions of up to {min(4, db.pieces)} pieces):\n")
    print("| database value | positions | proved | agree | disagree | unproved |")
    print("|---|---|---|---|---|---|")
    for kind, (proved, agree, disagree, unproved) in rows.items():
        print(f"| {kind} | {proved + unproved:,} | {proved:,} | {agree:,} | {disagree:,} | "
              f"{unproved:,} |")
    print(f"\n{nodes:,} nodes, {seconds:.1f} s (load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores)")


def section_convert(args: argparse.Namespace, folder: Path) -> None:
    db = E.open_database(folder)
    game = get_game("checkers", egdb=str(folder))
    rng = random.Random(2)
    sample = random_positions(db, db.pieces, rng, lambda v: v.value == 1)
    won = exact = 0
    failed: list[tuple[str, int | None, str | None]] = []
    start = time.perf_counter()
    for _ in range(args.samples):
        position, value = next(sample)
        state = game.parse_state(_fen(*position))
        engine = game.to_move(state)
        plies = 0
        while not game.is_terminal(state):
            if game.to_move(state) == engine:
                move = search(game, state, "id", Limit(depth=args.depth)).action
            else:
                move = max(game.actions(state),
                           key=lambda a: _plies(db.probe(game.result(state, a))))
            state = game.result(state, move)
            plies += 1
        if game.returns(state)[engine] > 0:
            won += 1
            exact += plies == value.plies
        else:
            failed.append((_fen(*position), value.plies, game.termination(state)))
    seconds = time.perf_counter() - start
    print(f"\nconversion: the engine (id, depth {args.depth}, with the database) won "
          f"{won}/{args.samples} won positions of up to {db.pieces} pieces against the "
          f"slowest defence, {exact} in exactly the database's plies; {seconds:.1f} s")
    for fen, dtw, why in failed[:10]:
        print(f"  not won: {fen} (database: win in {dtw} plies): {why}")


def game_positions(pieces: int, count: int, rng: random.Random) -> list[Any]:
    """The first position with at most ``pieces`` pieces, not over, of ``count`` random
    games from the start (games that end first are skipped)."""
    game = get_game("checkers")
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            if K.popcount(state.black | state.white) <= pieces:
                found.append(state)
                break
            state = game.result(state, rng.choice(game.actions(state)))
    return found


def section_probe(args: argparse.Namespace, folder: Path) -> None:
    plain = get_game("checkers")
    probing = get_game("checkers", egdb=str(folder))
    positions = game_positions(args.probe_pieces, args.probe_samples, random.Random(3))
    runs = (("without", plain), ("with, first pass (slices read from disk)", probing),
            ("with, second pass (slices in memory)", probing))
    totals = {label: [0, 0.0] for label, _ in runs}
    chosen: dict[str, list[Any]] = {label: [] for label, _ in runs}
    for label, game in runs:
        for state in positions:
            result = search(game, game.parse_state(plain.to_fen(state)), "id",
                            Limit(depth=args.probe_depth))
            totals[label][0] += result.nodes
            totals[label][1] += result.seconds
            chosen[label].append(result.action)
    differ = sum(a != b for a, b in zip(chosen[runs[0][0]], chosen[runs[2][0]], strict=True))
    print(f"\nprobing: id at depth {args.probe_depth} on {len(positions)} positions of at "
          f"most {args.probe_pieces} pieces (first such position of random games)")
    print("| database | nodes | seconds | nodes/s |")
    print("| --- | ---: | ---: | ---: |")
    for label, (nodes, seconds) in totals.items():
        print(f"| {label} | {nodes:,} | {seconds:.2f} | {nodes / max(seconds, 1e-9):,.0f} |")
    print(f"different moves chosen: {differ} of {len(positions)}")


def section_verify(args: argparse.Namespace, folder: Path) -> None:
    """Verify a seeded random sample of the slices with exactly --verify-pieces pieces (the
    order is fixed by --verify-seed; the run stops at --verify-seconds; --verify-jsonl keeps
    each slice's result and makes the run resumable)."""
    pieces = args.verify_pieces
    db = E.open_database(folder)
    if db.pieces < pieces:
        raise SystemExit(f"{folder}: built up to {db.pieces} pieces, not {pieces}")
    keys = [k for k in db.slices(pieces) if E.pieces_of(k) == pieces]
    random.Random(args.verify_seed).shuffle(keys)
    log = args.verify_jsonl
    done: dict[str, dict[str, Any]] = {}
    if log is not None and log.exists():
        for line in log.read_text().splitlines():
            row = json.loads(line)
            done[row["slice"]] = row
    start = time.perf_counter()
    cpu0 = time.process_time()
    for key in keys:
        name = E.slice_name(key)
        if name in done:
            continue
        if time.perf_counter() - start > args.verify_seconds:
            break
        if db._arena is not None and db._arena.used > args.verify_arena:
            db = E.open_database(folder)  # (drop the loaded slices: bounded memory)
        t0, c0 = time.perf_counter(), time.process_time()
        checked, wrong = db.verify_slice(key)
        row = {"slice": name, "positions": checked, "wrong": wrong,
               "seconds": round(time.perf_counter() - t0, 3),
               "cpu": round(time.process_time() - c0, 3),
               "load": round(os.getloadavg()[0], 2)}
        done[name] = row
        if log is not None:
            with log.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"  {name}: {checked:,} positions, {wrong} wrong, {row['seconds']:.1f} s",
              flush=True)
    rows = [done[E.slice_name(k)] for k in keys if E.slice_name(k) in done]
    total = sum(2 * db.half_size(k) for k in keys)
    checked = sum(r["positions"] for r in rows)
    print(f"\nverify: {len(rows)} of {len(keys)} {pieces}-piece slices (seed "
          f"{args.verify_seed}), {checked:,} of {total:,} positions "
          f"({100 * checked / max(total, 1):.1f} %): {sum(r['wrong'] for r in rows)} wrong; "
          f"{sum(r['seconds'] for r in rows):.0f} s wall, {sum(r['cpu'] for r in rows):.0f} "
          f"CPU s (this run {time.process_time() - cpu0:.0f} CPU s; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def section_table(args: argparse.Namespace, folder: Path) -> None:
    """Wins, losses and draws per stored slice (the full table, to --table-out) and by
    piece count (printed), from the value files of the database in ``folder``."""
    db = E.open_database(folder)
    start = time.perf_counter()
    rows = []
    for key in db.slices(db.pieces):
        counts = db.slice_value_counts(key)
        rows.append((E.pieces_of(key), E.slice_name(key), key, counts))
    rows.sort(key=lambda r: (r[0], r[1]))
    lines = [f"# Checkers endgame database: wins, losses and draws per slice (up to "
             f"{db.pieces} pieces)", "",
             "Generated by `benchmarks/checkers_egdb.py --sections table` from the value "
             "files. A slice `bMKwMK-LL` holds Black's men and kings, White's men and kings, "
             "and the rows of each side's most advanced man (`x`: no man); counts are for "
             "the side to move, both sides to move; each row also stands for its mirror "
             "image (colours swapped, board turned), which is not stored.", "",
             "| slice | pieces | positions | wins | losses | draws |",
             "|---|---:|---:|---:|---:|---:|"]
    summary: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for pieces, name, key, c in rows:
        n = c["wins"] + c["losses"] + c["draws"]
        lines.append(f"| `{name}` | {pieces} | {n:,} | {c['wins']:,} | {c['losses']:,} | "
                     f"{c['draws']:,} |")
        weight = 1 if E.mirror_key(key) == key else 2  # (the mirror image, not stored)
        row = summary[pieces]
        row[0] += 1
        for i, v in enumerate((n, c["wins"], c["losses"], c["draws"]), 1):
            row[i] += weight * v
    if args.table_out is not None:
        args.table_out.write_text("\n".join(lines) + "\n")
    chinook = E.count_positions(db.pieces)
    print(f"\nvalues by piece count ({len(rows):,} slices read in "
          f"{time.perf_counter() - start:.1f} s; mirror images counted in; both sides to "
          "move; the full table per slice: "
          f"{args.table_out if args.table_out is not None else '(not written)'})\n")
    print("| pieces | slices stored | positions | wins | losses | draws | won | drawn |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for pieces, (k, n, w, lo, d) in sorted(summary.items()):
        assert n == 2 * chinook[pieces], (pieces, n, chinook[pieces])
        print(f"| {pieces} | {k:,} | {n:,} | {w:,} | {lo:,} | {d:,} | "
              f"{100 * w / n:.1f} % | {100 * d / n:.1f} % |")


def _plies(value: Any) -> int:
    """The defender's preference among its moves, by the value of the position they leave
    to the engine: one the engine does not win first, else the slowest win."""
    if value is None or value.value <= 0:
        return 10**6
    return int(value.plies)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pieces", type=int, default=5)
    p.add_argument("--dir", type=Path, default=Path("/tmp/gamesearch-egdb-bench"))
    p.add_argument("--sections", default="build,counts,workers,solver,convert")
    p.add_argument("--workers-pieces", type=int, default=4)
    p.add_argument("--samples", type=int, default=1000)
    p.add_argument("--solver-plies", type=int, default=7)
    p.add_argument("--solver-draws", type=int, default=100,
                   help="drawn positions the solver must leave undecided within the plies")
    p.add_argument("--solver-nodes", type=int, default=300_000,
                   help="a solve that needs more nodes is counted apart (not proven)")
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--seconds", type=float, default=1800.0,
                   help="the solver section stops after this long and reports what it did")
    p.add_argument("--probe-depth", type=int, default=8)
    p.add_argument("--probe-pieces", type=int, default=8)
    p.add_argument("--probe-samples", type=int, default=20)
    p.add_argument("--rebuild-slices", type=int, default=4)
    p.add_argument("--rebuild-min", type=int, default=5_000_000)
    p.add_argument("--rebuild-max", type=int, default=20_000_000)
    p.add_argument("--rebuild-tmp", type=Path, default=Path("/tmp/gamesearch-egdb-rebuild"))
    p.add_argument("--table-out", type=Path, default=None,
                   help="where the table section writes the per-slice table (Markdown)")
    p.add_argument("--verify-pieces", type=int, default=6)
    p.add_argument("--verify-seed", type=int, default=24)
    p.add_argument("--verify-seconds", type=float, default=3600.0)
    p.add_argument("--verify-jsonl", type=Path, default=None,
                   help="each verified slice's result, appended; resumes from it")
    p.add_argument("--verify-arena", type=int, default=300_000_000,
                   help="loaded positions kept between slices before they are dropped")
    args = p.parse_args()
    sections = set(args.sections.split(","))
    report: dict[str, Any] = {}
    if "build" in sections:
        report = section_build(args)
    if "counts" in sections:
        if not report:
            report = build(args.pieces, args.dir / f"p{args.pieces}")
        section_counts(report)
    if "workers" in sections:
        section_workers(args)
    folder = args.dir / f"p{args.pieces}"
    if "solver" in sections:
        section_solver(args, folder)
    if "convert" in sections:
        section_convert(args, folder)
    if "probe" in sections:
        section_probe(args, folder)
    if "verify" in sections:
        section_verify(args, args.dir)
    if "table" in sections:
        section_table(args, args.dir)
    if "rebuild" in sections:
        section_rebuild(args)


if __name__ == "__main__":
    main()
