"""Contract bridge card play and its double-dummy solver (issue 22).

* :mod:`.cards` -- cards, seats, strains, the PBN deal notation;
* :mod:`.rules` -- the card play of a contract (:class:`Bridge`), the duplicate score,
  what each seat sees, the rule that picks a contract from the double-dummy table;
* :mod:`.dd` -- the double-dummy view: a two-side perfect-information game with
  equivalent-card merging, quick-trick bounds and a relative-rank table key, which the
  library's generic solver solves;
* :mod:`.compiled` -- the same solver compiled with numba, node for node; the tricks of a
  (strain, declarer) and the full table;
* :mod:`.svg` -- the table drawn for the web app.
"""

from .rules import Bridge, BridgeState, BridgeView

__all__ = ["Bridge", "BridgeState", "BridgeView"]
