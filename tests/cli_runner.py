"""Run ``gamesearch`` in-process for the CLI tests: the exit code, stdout and stderr."""

from __future__ import annotations

import io
from contextlib import redirect_stderr

from gamesearch.interfaces.cli import main


def cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        try:
            code = main(argv, out)
        except SystemExit as exc:  # argparse's errors
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()
