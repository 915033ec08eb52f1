"""MkDocs hook: pictures that live beside the data they show (the TD nets' learning curves
in ``src/gamesearch/games/backgammon/data/``) are served from there, not copied into docs/:
each appears in the site as ``img/backgammon/NAME.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
PICTURES = {"img/backgammon": ROOT / "src/gamesearch/games/backgammon/data"}


def on_files(files: Files, config: Any) -> Files:
    for uri_dir, folder in PICTURES.items():
        for path in sorted(folder.glob("*.png")):
            files.append(File.generated(config, f"{uri_dir}/{path.name}",
                                        abs_src_path=str(path)))
    return files
