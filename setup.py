"""Build of the optional compiled chess kernels and the compiled twin of the chess search
(everything else is declared in pyproject.toml). Without a C compiler the extensions are
skipped (``optional=True``) and the chess game runs on its pure-Python functions and the
Python search."""

from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = "src/gamesearch/games/chess/kernels"

setup(
    ext_modules=cythonize(
        [
            Extension(
                "gamesearch.games.chess.kernels.compiled",
                [f"{KERNELS}/compiled.pyx"],
                extra_compile_args=["-O3"],
                optional=True,
            ),
            Extension(
                "gamesearch.games.chess.kernels.engine",
                [f"{KERNELS}/engine.pyx"],
                extra_compile_args=["-O3"],
                optional=True,
            ),
        ],
        compiler_directives={"language_level": "3"},
    )
)
