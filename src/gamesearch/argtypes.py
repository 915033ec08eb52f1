"""Argument types shared by the command lines: numbers checked with a clear message."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(low: int = 1) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if v < low:
            raise argparse.ArgumentTypeError(f"{text!r}: must be at least {low}")
        return v

    return parse


def number(
    low: float = 0.0, *, strict: bool = True, what: str = "seconds"
) -> Callable[[str], float]:
    """An argparse type: a finite number above ``low`` (``strict``) or at least ``low``."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        ok = (v > low if strict else v >= low) and v != float("inf")
        if not ok:
            if strict and low == 0:
                raise argparse.ArgumentTypeError(f"{text!r}: must be a positive number of {what}")
            bound = f"above {low:g}" if strict else f"{low:g} or more"
            raise argparse.ArgumentTypeError(f"{text!r}: must be a number of {what}, {bound}")
        return v

    return parse


positive_int = whole_number(1)
positive_seconds = number(0.0, strict=True)
