"""Referees: code that only the tests and the benchmarks use, kept outside the installed
package ``gamesearch`` (a user's ``pip install`` does not carry it).

* :mod:`referees.go`: Go's rules against OpenSpiel's ``go`` and GNU Go over GTP;
* :mod:`referees.backgammon`: backgammon's move lists against gnubg (``gnubg-nn``) and
  OpenSpiel's ``backgammon``, and the random decision positions they are compared on;
* :mod:`referees.openspiel_ohhell`: OpenSpiel's ``ISMCTSBot`` seated at our Oh Hell table;
* :mod:`referees.bridge_simple_play`: a rule-based bridge card player, the declarer-play
  benchmark's baseline;
* :mod:`referees.chinese_checkers_openspiel`: Chinese Checkers' moves as OpenSpiel's
  actions, and the two games compared;
* :mod:`referees.random_game`: a random constant-sum game for n players, the multi-player
  searches' stand-in.

The tests find this folder through pytest's ``pythonpath`` (``pyproject.toml``); a
benchmark puts the repository's root on ``sys.path`` first, as ``benchmarks/go_referees.py``
does. Each module imports ``gamesearch`` only through its public modules, as a user would.
"""
