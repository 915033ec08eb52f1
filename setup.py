"""Build of the optional compiled chess kernels (everything else is declared in
pyproject.toml). Without a C compiler the extension is skipped (``optional=True``) and the
chess game runs on its pure-Python functions."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension(
                "gamesearch.games.chess.kernels.compiled",
                ["src/gamesearch/games/chess/kernels/compiled.pyx"],
                extra_compile_args=["-O3"],
                optional=True,
            )
        ],
        compiler_directives={"language_level": "3"},
    )
)
