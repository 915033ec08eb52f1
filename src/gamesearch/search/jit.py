"""numba for the search's compiled kernels (RAVE's compact tree, the compiled MCCFR): its
``njit`` when the ``fast`` extra is installed, else nothing, so each kernel module falls
back to its plain Python reference (:data:`njit` ``None``, :func:`available` False)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def _load_njit() -> Any:
    """numba.njit, or None when numba is not installed."""
    try:
        return importlib.import_module("numba").njit
    except ImportError:  # pragma: no cover - depends on the environment
        return None


#: numba.njit, or None without numba
njit = _load_njit()


def jit(fn: F) -> F:
    """``numba.njit(cache=True)`` (no fast-math: the same floating point as Python's), or
    ``fn`` itself without numba."""
    if njit is None:  # pragma: no cover - depends on the environment
        return fn
    return cast(F, njit(cache=True)(fn))


def available() -> bool:
    """True when numba imports, so that the kernels run compiled."""
    return njit is not None


__all__ = ["available", "jit", "njit"]
