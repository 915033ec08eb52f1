"""The layout rules of docs/architecture.md, checked on the source tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "gamesearch"
MODEL = {"game", "capabilities", "errors", "spec", "argtypes", "files", "tablefiles",
         "__init__"}
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
    """Every registered game's name (the registry, so a new game is guarded at once), as
    a literal compared or looked up, and any ``.name`` compared with or looked up in
    something (``g.name in EXAMPLES`` passed the old list of seven names)."""
    from gamesearch.games import available_games

    names = sorted(available_games(), key=len, reverse=True)
    alt = "|".join(map(re.escape, names))
    pattern = re.compile(rf"""(==|!=|\bin\b|\bnot in\b)\s*\(?\s*["']({alt})["']"""
                         rf"""|["']({alt})["']\s*(==|!=)""")
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = str(path.relative_to(PACKAGE))
        if rel.startswith("games/"):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) or re.search(
                    r"\.name\s*(==|!=)\s*[\"']|\b(g|game)\.name\s+(not\s+)?in\s", line):
                found.append(f"{rel}:{i}: {line.strip()}")
    assert found == [], "\n".join(found)


def test_no_game_class_is_tested_outside_games() -> None:
    """Generic code asks a game for a capability, never what class it is: no
    ``isinstance(x, C)`` outside ``games/`` where ``C`` is a registered game's class (or
    one of its bases below :class:`Game`; the registry's, so a new game is guarded at once)."""
    from gamesearch.game import Game
    from gamesearch.games import available_games, get_game

    classes = {c.__name__ for name in available_games()
               for c in type(get_game(name)).__mro__
               if issubclass(c, Game) and c is not Game}
    found = []
    for rel, tree in modules():
        if rel.startswith("games/"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" \
                    and len(node.args) == 2:
                kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) \
                    else [node.args[1]]
                named = {getattr(k, "id", None) or getattr(k, "attr", None) for k in kinds}
                if named & classes:
                    found.append(f"{rel}:{node.lineno}: isinstance(..., "
                                 f"{', '.join(sorted(named & classes))})")
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


def reached_modules() -> set[str]:
    """The package's modules that another one imports (``from X import y``: X, and X.y when
    y is a module) or names in a string (a registry's ``"kuhn_poker:KuhnPoker"``, an
    ``import_module(f"{__package__}.egdb")``)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    out = set()
    for rel, tree in modules():
        out.update(imported(rel, tree))
        package = ["gamesearch", *Path(rel).parent.parts]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = (".".join(package[:len(package) - node.level + 1]
                                 + ([node.module] if node.module else []))
                        if node.level else node.module or "")
                out.update(f"{base}.{a.name}" for a in node.names)
    for rel, _ in modules():
        name = "gamesearch." + rel[:-3].replace("/", ".")
        stem = name.rsplit(".", 1)[1]
        if re.search(rf"""["']({re.escape(name)}|{stem}):|\.{stem}["']""", source):
            out.add(name)
    return out


def test_every_package_module_serves_the_package() -> None:
    """Code only the tests and benchmarks use lives in referees/ (docs/architecture.md):
    each module of the package is reached from another (:func:`reached_modules`), is a
    program of its own (``__main__``), or says in its docstring why it is kept in the
    package although nothing in it reaches it."""
    reached = reached_modules()
    alone = []
    for rel, tree in modules():
        name = "gamesearch." + rel[:-3].replace("/", ".")
        text = (PACKAGE / rel).read_text(encoding="utf-8")
        kept = "kept in the package" in (ast.get_docstring(tree) or "")
        if (rel.endswith("__init__.py") or name in reached or "__main__" in text
                or rel == "__main__.py" or kept):
            continue
        alone.append(rel)
    assert alone == [], f"reached by nothing in the package (tests only?): {alone}"


# ----- the game protocol: the tables of docs/architecture.md against the code -----------------
DOC = PACKAGE.parents[1] / "docs" / "architecture.md"
EXAMPLE = PACKAGE / "games" / "nim.py"


def doc_table(first_header: str) -> list[list[str]]:
    """The rows of the table of docs/architecture.md whose first column is headed
    ``first_header``, each a list of cells."""
    rows: list[list[str]] = []
    inside = False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_header:
            inside = True
        elif inside and not line.startswith("|"):
            break
        elif inside and not set(cells[0]) <= {"-", " "}:
            rows.append(cells)
    return rows


def ticked(cell: str) -> list[str]:
    """The names in backticks in a table cell, without call brackets."""
    return [re.sub(r"\(.*\)$", "", name) for name in re.findall(r"`([^`]+)`", cell)]


def library_games() -> list[str]:
    """The library's own games: those the table documents (a game registered from outside,
    ``py:MODULE:ATTR`` or an installed entry point, is guarded by every other test here,
    but the library's documentation does not list it)."""
    from gamesearch.games import available_games

    return [name for name, (target, _) in available_games().items()
            if not target.startswith("py:")]


def capability_rows() -> dict[str, tuple[list[str], str, set[str]]]:
    """capability -> (members, readers, games) as the table lists them."""
    GAMES = library_games()

    out = {}
    for name_cell, members, readers, games in doc_table("capability"):
        name = ticked(name_cell)[0]
        listed = {g.strip() for g in games.split(",")} - {"—", ""}
        out[name] = (ticked(members), readers, set(GAMES) if listed == {"all"} else listed)
    return out


def test_the_protocol_table_lists_every_capability_and_rule_of_game() -> None:
    from gamesearch.game import CAPABILITIES, RULES, Game

    assert set(capability_rows()) == set(CAPABILITIES)
    rules = {name for cells in doc_table("rule") for name in ticked(cells[0])}
    assert rules == set(RULES)
    public = {n for n in dir(Game) if not n.startswith("_")}
    assert public == set(RULES) | set(CAPABILITIES), "a public name of Game in no table"


def test_the_games_listed_under_a_capability_have_it_and_no_other_does() -> None:
    from gamesearch.games import get_game

    rows = capability_rows()
    for game_name in library_games():
        game = get_game(game_name)
        for capability, (_, _, games) in rows.items():
            has = getattr(game, capability)() is not None
            assert has == (game_name in games), (game_name, capability, has)


def test_the_members_listed_are_the_capability_objects_members() -> None:
    import typing

    from gamesearch.game import Game

    for capability, (members, _, _) in capability_rows().items():
        hint = typing.get_type_hints(getattr(Game, capability))["return"]
        kinds = [a for a in typing.get_args(hint) if a is not type(None)]
        cls = typing.get_origin(kinds[0]) or kinds[0]
        if not isinstance(cls, type):
            assert members == [], capability  # (a plain function: the book builder)
            continue
        fields = getattr(cls, "__dataclass_fields__", None)
        own = set(fields) if fields else {
            n for n in (*vars(cls), *getattr(cls, "__annotations__", {}))
            if not n.startswith("_")}
        assert set(members) == own, (capability, sorted(own ^ set(members)))


def test_the_example_game_explains_every_capability_and_rule() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    missing = [f"{capability}.{member}" if member else capability
               for capability, (members, _, _) in capability_rows().items()
               for member in ["", *members]
               if not re.search(rf"\b{re.escape(member or capability)}\b", text)]
    assert missing == [], f"games/nim.py does not explain: {', '.join(missing)}"
    for cells in doc_table("rule"):  # a rule: in the example, or explained in its row
        for name in ticked(cells[0]):
            assert re.search(rf"\b{name}\b", text) or len(cells[1]) > 10, name
