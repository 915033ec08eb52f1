"""What the fuzz tests share: the hypothesis profile, hostile inputs by kind, and the run of
one ``gamesearch`` invocation with the reliability invariant checked (issue 13).

The invariant: exit status 0 or 2, never a traceback, every message one line of bounded
length, and the command done within its time limit.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from gamesearch.argtypes import Range
from gamesearch.errors import MAX_MESSAGE_CHARS
from gamesearch.interfaces import cli

#: How many examples the suites run: the profile's numbers times this (GAMESEARCH_FUZZ=4
#: for a longer run; the default keeps the fuzz tests near a minute on two cores).
SCALE = float(os.environ.get("GAMESEARCH_FUZZ", "1"))
#: GAMESEARCH_FUZZ_RANDOM=1: new examples every run (to explore; CI keeps the fixed ones).
EXPLORE = os.environ.get("GAMESEARCH_FUZZ_RANDOM", "") not in ("", "0")

# Derandomized: the same examples on every run, so that CI is repeatable; no example
# database; no per-example deadline (the invariant has its own time limit).
settings.register_profile(
    "gamesearch-fuzz",
    derandomize=not EXPLORE,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much, HealthCheck.large_base_example],
)
FUZZ = settings.get_profile("gamesearch-fuzz")


def examples(n: int) -> settings:
    return settings(FUZZ, max_examples=max(1, int(n * SCALE)))


#: A message line: "gamesearch: line 12: " + the bounded message.
MAX_LINE = MAX_MESSAGE_CHARS + 40
#: Seconds one in-process invocation may take (cheap invocations; a loaded CI machine).
LIMIT = 25.0

# ----- hostile inputs ----------------------------------------------------------------------
NASTY_NUMBERS = [
    "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e308", "1e999", "-1e999", "1e-400",
    "0", "-0", "-1", "+1", "0.0", "1.5", ".5", "5.", "1_000", "0x10", "1e3", "3+4", "1,2",
    "99999999999999999999999", "9" * 60, "9" * 5000, "٣", "１", "²", "௫", "Ⅻ", "١٠", "-٣",
    "\u00a01", "1\n", " ", "", "true", "None", "--", "-", "1e308+1e308",
]
NASTY_TEXT = [
    "", " ", "-", "--", "-h", "\x00", "\n", "\t", "é", "\udcff", "\u202e", "x" * 100_000,
    "../../etc/passwd", "/dev/zero", ":", ",", "=", "a:b=c", "😀" * 10,
]


def texts(max_size: int = 40) -> st.SearchStrategy[str]:
    """Arbitrary text (no NUL: it cannot pass through argv), now and then a nasty one."""
    return st.one_of(
        st.text(st.characters(blacklist_characters="\x00"), max_size=max_size),
        st.sampled_from([t for t in NASTY_TEXT if "\x00" not in t]),
    )


def number_texts(rng: Range | None = None, cap: float | None = None
                 ) -> st.SearchStrategy[str]:
    """Text for a numeric option: nasty, arbitrary ints and floats, digits of any script.
    Values that ``rng`` accepts are kept only up to ``cap`` (valid, but long to run)."""
    raw = st.one_of(
        st.sampled_from(NASTY_NUMBERS),
        st.integers().map(str),
        st.integers(-3, 12).map(str),
        st.floats().map(repr),
        st.floats(0, 2).map(lambda x: f"{x:.3f}"),
        st.text(st.characters(categories=("Nd", "No", "Nl")), min_size=1, max_size=4),
        texts(12),
    )
    if rng is None or cap is None:
        return raw

    def affordable(text: str) -> bool:
        try:
            return float(rng.parse(text)) <= cap
        except ValueError:
            return True

    return raw.filter(affordable)


# ----- one invocation ----------------------------------------------------------------------
class Hang(BaseException):
    """The invocation ran past its limit (a BaseException: nothing may swallow it)."""


@dataclass
class Outcome:
    argv: list[str]
    code: int
    stdout: str
    stderr: str
    seconds: float

    def describe(self) -> str:
        shown = [a if len(a) < 200 else a[:200] + "…" for a in self.argv]
        return f"gamesearch {shown!r} -> {self.code} in {self.seconds:.2f} s\n{self.stderr[-3000:]}"


def run_main(argv: list[str], stdin: bytes = b"", limit: float = LIMIT) -> Outcome:
    """``gamesearch argv`` in this process, with ``stdin`` as standard input; a
    :class:`Hang` (a failed test) when it runs past ``limit`` seconds."""
    out, err = io.StringIO(), io.StringIO()
    fake_in = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"gamesearch {argv!r} did not finish within {limit} s")

    saved = sys.stdin, sys.stderr, sys.stdout
    previous = signal.signal(signal.SIGALRM, alarm)
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        sys.stdin, sys.stderr, sys.stdout = fake_in, err, out
        try:
            code = cli.main(argv, out)
        except SystemExit as exc:  # argparse's errors, --help and --version
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin, sys.stderr, sys.stdout = saved
    return Outcome(argv, code, out.getvalue(), err.getvalue(), time.monotonic() - start)


def check(o: Outcome, extra: Callable[[Outcome], None] | None = None) -> None:
    """The invariant of issue 13."""
    assert o.code in (0, 2), o.describe()
    assert "Traceback" not in o.stderr, o.describe()
    lines = o.stderr.splitlines()
    for line in lines:
        if line.startswith("gamesearch:"):
            assert len(line) <= MAX_LINE, o.describe()
    if o.code == 2:
        assert lines and lines[-1].startswith("gamesearch: "), o.describe()
    if extra is not None:
        extra(o)
