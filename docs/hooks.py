"""MkDocs hooks.

* Pictures that live beside the data they show (the TD nets' learning curves in
  ``src/gamesearch/games/backgammon/data/``) are served from there, not copied into docs/:
  each appears in the site as ``img/backgammon/NAME.png``.
* The API reference renders the docstrings, which cross-reference in Sphinx's roles
  (``:class:`~.capabilities.Evaluation```): the role's name and the ``~`` are dropped, the
  name is kept as code.
"""

from __future__ import annotations

import re
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


ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj|const):<code>~?\.?")


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    return ROLE.sub("<code>", html)
