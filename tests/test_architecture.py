"""The layout rules of docs/architecture.md, checked on the source tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "gamesearch"
MODEL = {"game", "errors", "spec", "argtypes", "files", "__init__"}
#: functions allowed past MAX_LINES: measured hot loops, each saying so in its docstring
HOT_LOOPS = {
    ("search/negamax.py", "_kernel"),
    ("search/negamax.py", "negamax"),
    ("games/chess/movegen.py", "generate_moves"),
}
MAX_LINES = 150


def modules() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(PACKAGE)), ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted(PACKAGE.rglob("*.py"))]


def imported(rel: str, tree: ast.Module) -> set[str]:
    """Absolute names (below gamesearch) this module imports."""
    package = ["gamesearch", *Path(rel).parent.parts]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
                names = [name] if node.module else [f"{name}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
            out.update(n for n in names if n.startswith("gamesearch"))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("gamesearch"))
    return out


def layer(name: str) -> str:
    parts = name.split(".")
    head = parts[1] if len(parts) > 1 else ""
    if head in ("", "__init__", "__version__"):
        return "facade"  # the package's own re-exports (and its version)
    if head in MODEL:
        return "model"
    return head  # search, games, agents, arena, interfaces, __main__


ALLOWED = {
    "facade": {"model", "games", "search"},
    "model": {"model"},
    "games": {"model", "games"},
    "search": {"model", "search"},
    "agents": {"model", "search", "agents"},
    "arena": {"model", "search", "agents", "arena", "games", "facade"},
    "interfaces": {"model", "search", "agents", "arena", "games", "interfaces", "facade"},
    "__main__": {"interfaces"},
}


def test_imports_point_one_way() -> None:
    wrong = []
    for rel, tree in modules():
        mine = layer("gamesearch." + rel[:-3].replace("/", "."))
        for name in imported(rel, tree):
            if layer(name) not in ALLOWED[mine]:
                wrong.append(f"{rel} ({mine}) imports {name} ({layer(name)})")
    assert wrong == [], "\n".join(wrong)


def test_no_game_name_is_compared_outside_games() -> None:
    names = ["tictactoe", "connect4", "chess", "othello", "pig", "nim", "fig6.2"]
    alt = "|".join(map(re.escape, names))
    pattern = re.compile(rf"""(==|!=|\bin\b|\bnot in\b)\s*\(?\s*["']({alt})["']"""
                         rf"""|["']({alt})["']\s*(==|!=)""")
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = str(path.relative_to(PACKAGE))
        if rel.startswith("games/"):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) or re.search(r"\.name\s*(==|!=)\s*[\"']", line):
                found.append(f"{rel}:{i}: {line.strip()}")
    assert found == [], "\n".join(found)


def test_no_long_functions_but_the_documented_hot_loops() -> None:
    long = []
    for rel, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n <= MAX_LINES:
                    continue
                doc = ast.get_docstring(node) or ""
                # a hot loop's docstring gives its measurement ("measured", "12 %") ...
                if (rel, node.name) in HOT_LOOPS and (
                        re.search(r"measured|\d+ ?%", doc) or node.name == "negamax"):
                    continue  # (negamax is _kernel's closure: the builder's docstring says why)
                long.append(f"{rel}:{node.lineno} {node.name} ({n} lines)")
    assert long == [], "\n".join(long)
