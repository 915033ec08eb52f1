"""The web app: play any game against any agent, watch the search think, replay the
textbook's pruning, browse tournaments (``gamesearch web``; needs the ``[web]`` extra).

* :mod:`~gamesearch.interfaces.web.app` — the FastAPI application: pages, JSON API, live streams;
* :mod:`~gamesearch.interfaces.web.validation` — every input through the library's parsers and the
  server's caps (bad input: HTTP 400 with the library's one-line message);
* :mod:`~gamesearch.interfaces.web.gate` — a bounded number of searches at once (others: 429);
* :mod:`~gamesearch.interfaces.web.learn` — step-by-step animations from the search's own trace;
* :mod:`~gamesearch.interfaces.web.tournaments` — the arena's results files, read-only;
* ``static/`` — the pages (plain HTML, CSS and JavaScript; no build step).

Boards are drawn by the games themselves (their :meth:`gamesearch.game.Game.drawing`); the app
never tests a game's name.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
