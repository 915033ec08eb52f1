"""The compiled (Cython) twins of the chess hot functions: ``compiled.pyx`` (attack tables,
checks and pins, move generation, SEE, the quiescence moves, the legal-move test) with
``evaluation.pxi``, ``result.pxi`` (make-move) and ``status.pxi`` (terminal test) included.

``setup.py`` builds them as the extension module ``gamesearch.games.chess.kernels.compiled``
where a C compiler is found; :mod:`gamesearch.games.chess.backend` initialises them with the
package's tables and offers them as ``COMPILED``. The pure-Python functions they mirror stay
the reference (``tests/test_chess_kernels.py`` compares the two).
"""
