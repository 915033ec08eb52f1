"""numba for the games' compiled kernels (Connect Four's and Othello's), loaded once.

numba is optional (the ``fast`` extra): without it these names still import, :func:`jit`
returns the plain function, :func:`available` says False and :data:`NUMBA_ERROR` says why.
Compiled code is cached on disk (``cache=True``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["NUMBA_ERROR", "available", "jit", "njit", "np"]


def _load_numba() -> tuple[Any, Any, str]:
    """(numpy, numba.njit, "") or (None, None, why not)."""
    try:
        numpy = importlib.import_module("numpy")
        numba = importlib.import_module("numba")
    except ImportError as exc:  # pragma: no cover - depends on the environment
        return None, None, str(exc)
    return numpy, numba.njit, ""


np, njit, NUMBA_ERROR = _load_numba()

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """``numba.njit(cache=True)`` when numba is there; the plain function otherwise."""
    if njit is None:  # pragma: no cover - depends on the environment
        return fn
    return cast(F, njit(cache=True)(fn))


def available() -> bool:
    """True when numba imports, so that the compiled kernels can run."""
    return njit is not None
