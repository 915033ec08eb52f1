"""A compiled double-dummy solver with partition search: the fast solve of full deals.

:mod:`.compiled` is the generic engine (:mod:`gamesearch.search.solve` over
:mod:`gamesearch.search.negamax`) translated node for node; it is exact but stores whole
relative layouts, so that an entry answers only the same cards. This module follows the
technique of the programs that solve full deals in a fraction of a second -- Ginsberg's
*partition search* (M. Ginsberg, "GIB: Imperfect information in a computationally
challenging game", JAIR 14, 2001, sections 3-4) as Bo Haglund's DDS implements it (the
"winning ranks" of its transposition table; DDS's description in its sources, ``DDS
algorithm description``) -- written for this library, in numba:

* **null-window searches on a trick target** (DDS's outer loop): each search answers "does
  the declaring side take at least ``t`` more tricks?"; the solve moves ``t`` by the
  answers (from a guess -- the previous declarer's result in a table -- by steps of one,
  else by halving), as DDS does;
* **the transposition table at trick starts only**, bucketed by the leader, the strain and
  the suit lengths of the four hands, each entry a bound on the leader's side's tricks to
  come *together with the cards that mattered*: a stored position answers every position
  that agrees with it on the holders of each suit's top cards down to the lowest card that
  mattered (the relative ranks; lengths agree through the bucket). The cards that matter
  are gathered as the search returns (Ginsberg's partition search): a trick's winning
  card matters when the trick was won by rank (another card of its suit was played to
  it: DDS's rule; the wrong result it once gave on the benchmark's seed 31 was the merged
  cards' fault below, and "always", its cure then, took 20-38 % more nodes); a node
  that cuts off keeps its cutting child's cards, one that fails keeps the union of all its
  children's -- and, for a move that stands for equivalent lower cards of its hand
  (merged, below), when the move itself mattered (it won a trick), the lowest of those
  cards too: each of them, played instead, matters in its own line (without it, an entry
  made with West's T9 of spades, the T recorded, answered a position with West's 95:
  the benchmark's seed 327, 3 tricks where DDS says 4); a cut-off by quick tricks keeps
  the cards of the tricks it needed (:func:`_fewest_quick_cards`: the top cards of as
  few suits as give them; the opponents' top trumps it needed), a cut-off by the table
  the entry's cards. A table entry of one
  deal is valid for any deal (the value depends on those cards and the lengths only), so
  one table serves the strains, declarers, and deals of a process -- PIMC's worlds
  included;
* **quick tricks** at trick starts: the leader's tricks from the top of its hand (with
  the length tricks of a suit it runs the opponents and partner out of,
  :func:`_length_tricks`), or those and then partner's when the leader can reach
  partner's master (:func:`_partner_quick`), and the
  top trumps of the leader's opponents (:func:`.dd.quick_tricks`), as cut-offs against
  the target; at the second hand, when its side needs one trick more, DDS's second-hand
  quick trick (:func:`_second_hand_wins`: a ruff the third hand cannot overruff, or the
  highest card of the led suit that the third hand can neither beat nor ruff), and the
  same at the third hand (:func:`_third_hand_wins`: partner's lead that the fourth hand
  can neither beat nor ruff, or a card of its own that beats the second hand's and that
  the fourth hand cannot beat);
* **later tricks** at trick starts (:func:`_later_tricks`, DDS's ``LaterTricksMIN`` /
  ``LaterTricksMAX``): the tricks the side not on lead surely takes -- its top trump, its
  long trumps when the side on lead has none, a guarded second trump sitting over the top
  one; without trumps, the side on lead wins tricks only in the suits whose top card it
  holds -- as cut-offs when the side on lead cannot afford them;
* **move ordering** after DDS's weights: the leader's are DDS's (``WeightAllocTrump0`` /
  ``WeightAllocNT0`` of its ``Moves.cpp``, rewritten as :func:`_lead_weight`: suits with
  few opponents' cards, the side's sure tricks, setting up a suit, leading through an
  honour; the lower of equal cases first, as DDS's relative ranks do); the second hand's
  when it follows suit too (``WeightAllocTrumpNotvoid1`` / ``WeightAllocNTNotvoid1``:
  :func:`_second_weight`); the other followers' simplified (:func:`_weight`): a follower
  wins cheaply when its card holds against the hands still to play, else plays low,
  discarding neither trumps nor masters (DDS's preference for discards from long suits
  took more nodes here);
  equivalent-card merging
  (:meth:`.dd.DoubleDummy.actions`) as the generic solver has it; the leader's card that
  last cut off at the same depth first (DDS's ``bestMove``; a follower's, tried too, cost
  2-3 times the nodes);
* **small cards skipped** (DDS's ``MakeNext``): once a card of a suit has been searched
  without a cut-off and was below the lowest card of that suit that mattered so far at
  the node, the hand's other cards of the suit below that card are not tried -- by the
  partition argument they give the same result.

Departures from DDS: simpler quick tricks (partner's entry in
one suit only) and simpler weights for the third and fourth hands and for discards; the
leader's card that last cut off goes first (DDS adds a bonus to its weight instead); a
bucket is a list of entries (not
DDS's tree by suits), an entry that answers moves to its front, and a probe looks at
1,024 entries at most; one table of fixed size per process, emptied
(a new generation, O(1)) when full. The search is abortable: a node budget and a deadline
(checked every 4,096 nodes) end it; an aborted search stores nothing after the abort (every
entry stored before it is a finished subtree's), so that later searches may trust the
table. Without numba the same functions run as plain Python (slow; the tests compare the
two node for node on small endings).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ...errors import InvalidPositionError, SearchTimeout, UnsupportedGameError
from ..numba_support import NUMBA_ERROR, available, np
from ..numba_support import njit as _njit
from .compiled import (
    _gen_moves,
    _holders,
    _play,
    _popcount,
    _quick,
    _sort_by_keys,
    _suit_mask,
    _top_cards,
    _top_run,
    _unplay,
)
from .dd import DDState, tricks_left

__all__ = ["PartitionTable", "Solver", "available"]

#: entries in the process's table by default (each 40 bytes, the buckets 32 bytes a slot)
DEFAULT_ENTRIES = 1 << 20

# meta: the table's and the search's counters
_GEN, _USED_BUCKETS, _USED_ENTRIES, _NODES, _BUDGET, _ABORTED, _DEADLINE_CHECK = range(7)
_ABORT = -1
#: entries of a bucket looked at (the most recent first), so that a probe stays cheap
_CHAIN = 1024
_OK = 1 << 60


def _jit(fn: Any) -> Any:
    return _njit(cache=False)(fn) if _njit is not None else fn


if _njit is not None:
    from numba import objmode

    @_njit(cache=False)  # type: ignore[untyped-decorator]
    def _clock() -> float:
        with objmode(t="float64"):
            t = time.perf_counter()
        return t
else:  # pragma: no cover - without numba
    def _clock() -> float:
        return time.perf_counter()


@_jit
def _partner_quick(H: Any, leader: int, strain: int, own: int,
                   own_cards: int) -> tuple[int, int]:
    """Quick tricks through partner's entry: when the leader holds a card of a suit whose
    top cards partner holds (and no opponent ruffs it: partner's quick tricks in the suit
    counted after :func:`_quick`'s ruff limit), the leader's side makes partner's quick
    tricks -- a low card to partner's master, then partner cashes -- and, first, the
    leader's own (``own``, the cards ``own_cards``: :func:`.compiled._quick`'s) when
    partner follows to each of them (its length in each suit at least the leader's tricks
    there: it discards nothing), as DDS's quick tricks cash in both hands. ``(q,
    cards)``, 0 when there is no such entry."""
    pard = (leader + 2) % 4
    q, q_cards, _qo, _qo_cards = _quick(H, pard, strain)
    if q == 0:
        return 0, 0
    alive = H[0] | H[1] | H[2] | H[3]
    for s in range(4):
        if not H[leader] & _suit_mask(s):
            continue
        k = _top_run(H, pard, s)
        if k == 0:
            continue
        if strain != 4 and s != strain:
            for o in (1, 3):  # (partner's opponents: the leader's too)
                h = H[(pard + o) % 4]
                if h & _suit_mask(strain) and not h & _suit_mask(s):
                    k = 0
        if k > 0:
            cards = q_cards | _top_cards(alive, s, 1)
            for t in range(4):
                if _popcount(own_cards & _suit_mask(t)) > _popcount(H[pard] & _suit_mask(t)):
                    return q, cards
            both = q + own
            rem = _popcount(alive) // 4
            return (both if both < rem else rem), cards | own_cards
    return 0, 0


@_jit
def _length_tricks(H: Any, leader: int, strain: int) -> tuple[int, int]:
    """The leader's tricks from length on top of :func:`.compiled._quick`'s top runs: in a
    suit where the leader holds the top ``k`` cards, ``k`` at least each opponent's length
    and partner's length, and no opponent can ruff (no trumps, the trump suit, or no
    opponent holding a trump), the opponents and partner are out after ``k`` rounds, so
    that the leader's other cards of the suit win too, the lead staying in its hand.
    ``(extra, cards)``: the tricks and the cards read, the top ``k`` of each such suit.
    Those cards must be recorded even where :func:`._quick` counted fewer of the suit (it
    caps a side suit's run at the length of any other hand holding a trump, partner's
    too): the length tricks hold only while the leader's top cards stay on top (seed 88,
    diamonds by North, was a trick off without them)."""
    alive = H[0] | H[1] | H[2] | H[3]
    opp = H[(leader + 1) % 4] | H[(leader + 3) % 4]
    extra = 0
    cards = 0
    for s in range(4):
        suit = _suit_mask(s)
        if strain != 4 and s != strain and opp & _suit_mask(strain):
            continue
        n = _popcount(H[leader] & suit)
        k = _top_run(H, leader, s)
        if k == 0 or n <= k or _popcount(H[(leader + 2) % 4] & suit) > k:
            continue
        a = _popcount(H[(leader + 1) % 4] & suit)
        b = _popcount(H[(leader + 3) % 4] & suit)
        if k >= a and k >= b:
            extra += n - k
            cards |= _top_cards(alive, s, k)
    return extra, cards


@_jit
def _second_hand_wins(H: Any, T: Any, seat: int, strain: int) -> tuple[bool, int]:
    """DDS's ``QuickTricksSecondHand``, its first trick only: does the side of ``seat``,
    second to play to the trick led with ``T[0]``, surely win the trick? It does when one
    of its hands can ruff and the third hand cannot overruff (it follows suit or holds no
    trump), or when it holds the highest card of the led suit among the led card, its own
    and the third hand's, and the third hand cannot ruff. ``(wins, cards)``: the cards read
    (the led card and, by rank, that highest card; the voids are lengths)."""
    led = T[0] // 13
    suit = _suit_mask(led)
    pard = (seat + 2) % 4
    third = (seat + 1) % 4
    tmask = _suit_mask(strain) if strain != 4 else 0
    third_ruffs = (H[third] & suit) == 0 and (H[third] & tmask) != 0
    if strain != 4 and led != strain and (
            ((H[seat] & suit) == 0 and (H[seat] & tmask) != 0)
            or ((H[pard] & suit) == 0 and (H[pard] & tmask) != 0)):
        if third_ruffs:
            return False, 0
        return True, 0
    own = (H[seat] | H[pard]) & suit
    if own == 0:
        return False, 0
    top = 13 * led + 12
    while not (own >> top) & 1:
        top -= 1
    if top < T[0] or (H[third] & suit) >> top:
        return False, 0
    if led != strain and third_ruffs:
        return False, 0
    return True, 1 << top


@_jit
def _fewest_quick_cards(q_cards: int, want: int) -> int:
    """Of :func:`.compiled._quick`'s counted cards (the top cards of each suit it
    counts, one a trick), the top cards of as few suits as give ``want`` tricks, the
    longest runs first: the cards a cut-off by ``want`` quick tricks read."""
    out = 0
    used = 0
    while want > 0:
        best = -1
        best_n = 0
        for s in range(4):
            n = _popcount(q_cards & _suit_mask(s))
            if not (used >> s) & 1 and n > best_n:
                best = s
                best_n = n
        if best < 0:
            break
        used |= 1 << best
        take = best_n if best_n < want else want
        out |= _top_cards(q_cards, best, take)
        want -= take
    return out


@_jit
def _won_by_rank(T: Any, win: int) -> int:
    """``win`` (the card that won the complete trick ``T``) as a mask when another card
    of its suit was played to the trick (its rank decided the trick), else 0: when it
    beat no card of its suit, the trick goes the same way whatever its rank."""
    for j in range(4):
        if T[j] != win and T[j] // 13 == win // 13:
            return 1 << win
    return 0


@_jit
def _to_front(moves: Any, n: int, card: int) -> None:
    """Move ``card`` (when among the first ``n`` moves) to the front, the others' order
    kept."""
    for i in range(1, n):
        if moves[i] == card:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = card
            return


@_jit
def _lowest(cards: int, suit: int) -> int:
    """The lowest card of ``suit`` in ``cards``; one past the suit's ace when none."""
    m = cards & _suit_mask(suit)
    if not m:
        return 13 * suit + 13
    low = 13 * suit
    while not (m >> low) & 1:
        low += 1
    return low


@_jit
def _run_bottom(hand: int, live: int, card: int) -> int:
    """The lowest card of ``hand``'s run of equivalent cards headed by ``card``: its
    cards of the suit below ``card`` with no card of another hand in ``live`` (the cards
    in play and on the table) between (the cards :func:`.compiled._gen_moves` merges
    into ``card``)."""
    bottom = card
    base = 13 * (card // 13)
    r = card - 1
    while r >= base:
        bit = 1 << r
        if hand & bit:
            bottom = r
        elif live & bit:
            break
        r -= 1
    return bottom


@_jit
def _third_hand_wins(H: Any, T: Any, seat: int, strain: int) -> tuple[bool, int]:
    """The third hand's sure trick: does the side of ``seat``, third to play to the trick
    ``T[0], T[1]``, surely win it? It does when partner's card (the lead) wins so far and
    the fourth hand can neither beat it nor ruff it (whatever ``seat`` plays: a card that
    beats partner's wins too), or when the second hand's card wins so far and ``seat``'s
    highest card of the led suit (its highest trump when it is void in the suit) beats it
    and the fourth hand cannot beat that. ``(wins, cards)``: the card that wins when it
    beats, or beat, a card of its suit (as the search would read it: DDS's "won by
    rank"), else none (the voids are lengths)."""
    led = T[0] // 13
    fourth = (seat + 1) % 4
    if not _beats(T[1], T[0], strain):  # partner's lead wins so far
        if _can_beat(H[fourth], T[0], led, strain):
            return False, 0
        if T[1] // 13 == led or H[fourth] & _suit_mask(led):
            return True, 1 << T[0]  # (it beat, or beats, cards of its suit)
        return True, 0
    win = T[1]
    c = _high(H[seat], led)
    if c < 0 and strain != 4:
        c = _high(H[seat], strain)
    if c < 0 or not _beats(c, win, strain) or _can_beat(H[fourth], c, led, strain):
        return False, 0
    if c // 13 == led or win // 13 == c // 13 or (
            not H[fourth] & _suit_mask(led) and H[fourth] & _suit_mask(c // 13)):
        return True, 1 << c  # (it beats the second hand's card or the fourth's trumps)
    return True, 0  # (a ruff that no trump can meet: its rank reads nothing)


@_jit
def _ranked(H: Any, suit: int, n: int) -> tuple[int, int]:
    """The ``n``-th highest card still in play of ``suit`` (0: its top card) and its
    holder; ``(-1, -1)`` when the suit has fewer cards."""
    base = 13 * suit
    for r in range(12, -1, -1):
        bit = 1 << (base + r)
        for seat in range(4):
            if H[seat] & bit:
                if n == 0:
                    return base + r, seat
                n -= 1
                break
    return -1, -1


@_jit
def _later_tricks(H: Any, leader: int, strain: int, decl: int, need: int,
                  rem: int) -> tuple[bool, int]:
    """DDS's "later tricks" bounds at a trick start (Haglund's ``LaterTricksMIN`` /
    ``LaterTricksMAX``, rewritten): tricks the side *not* on lead surely takes, which decide
    the search when the side on lead cannot afford them. ``(decided, cards)``: when the
    declaring side leads, ``decided`` means it fails to take ``need`` of the ``rem``
    tricks; when a defender leads, that it takes them; ``cards`` are the cards the
    argument read (the suits' lengths are the table bucket's, so they need no card).

    * no trumps in play: the side on lead needs every trick (else no verdict); the other
      side holds the top card of some suits; the side on lead can win a trick only in a
      suit whose top card it holds, at most the longer of its two holdings there
      (``sum``); ``sum < need`` decides (the top cards of the other side's suits read);
    * the other side holds the top trump: if the side on lead has no trump, the other
      side's longer trump holding of ``k`` cards wins ``k`` tricks (each trick one of
      them is played to, no trump of the leader's side beats it); else the top trump
      wins one trick (decides when the side on lead needs them all), and with the second
      trump too (one of the two hands holding two or more), two;
    * the side on lead holds the top trump, the other side the second with a guard (two
      or more cards) sitting over the top trump, or the second and third: one trump
      trick for the other side (decides when the side on lead needs them all)."""
    max_leads = ((leader - decl) & 1) == 0
    # the leader's side needs ``want`` of the ``rem`` tricks
    want = need if max_leads else rem - need + 1
    trumps = 0 if strain == 4 else H[0] | H[1] | H[2] | H[3]
    if strain != 4:
        trumps &= _suit_mask(strain)
    if trumps == 0:
        if want < rem:
            return False, 0
        total = 0
        cards = 0
        for s in range(4):
            c, h = _ranked(H, s, 0)
            if c < 0:
                continue
            suit = _suit_mask(s)
            if ((h - leader) & 1) == 0:
                a = _popcount(H[h] & suit)
                b = _popcount(H[(h + 2) % 4] & suit)
                total += a if a > b else b
            elif (H[0] | H[1] | H[2] | H[3]) & ~H[h] & suit:
                cards |= 1 << c
        if total < want:
            return True, cards
        return False, 0
    tsuit = _suit_mask(strain)
    c1, h1 = _ranked(H, strain, 0)
    pard = (leader + 2) % 4
    if ((h1 - leader) & 1) == 1:  # the other side holds the top trump
        if not (H[leader] | H[pard]) & tsuit:
            a = _popcount(H[(leader + 1) % 4] & tsuit)
            b = _popcount(H[(leader + 3) % 4] & tsuit)
            if rem - (a if a > b else b) < want:
                return True, 0
            return False, 0
        if want == rem:
            return True, 1 << c1
        if want == rem - 1:
            c2, h2 = _ranked(H, strain, 1)
            if c2 >= 0 and ((h2 - leader) & 1) == 1 and (
                    _popcount(H[h2] & tsuit) > 1 or _popcount(H[(h2 + 2) % 4] & tsuit) > 1):
                return True, (1 << c1) | (1 << c2)
        return False, 0
    if want < rem:
        return False, 0
    c2, h2 = _ranked(H, strain, 1)
    if c2 < 0 or ((h2 - leader) & 1) == 0 or _popcount(H[h2] & tsuit) <= 1:
        return False, 0
    if h1 == (h2 + 3) % 4:  # the top trump sits before the guarded second
        return True, (1 << c1) | (1 << c2)
    c3, h3 = _ranked(H, strain, 2)
    if c3 >= 0 and ((h3 - leader) & 1) == 1:
        return True, (1 << c1) | (1 << c2) | (1 << c3)
    return False, 0


@_jit
def _layout(H: Any, codes: Any, lengths: Any) -> int:
    """Per suit the holders of its cards from the top (2 bits a card, ``codes``) and its
    length (``lengths``); returns the bucket key: the 16 hand-suit lengths, 4 bits each."""
    key = 0
    for s in range(4):
        code, n = _holders(H, s)
        codes[s] = code
        lengths[s] = n
        for seat in range(4):
            key = (key << 4) | _popcount(H[seat] & _suit_mask(s))
    return key


@_jit
def _pattern(alive: int, rel: int, codes: Any, lengths: Any) -> tuple[int, int]:
    """The entry pattern of the cards that mattered (``rel``): per suit, how many of its
    top cards (down to the lowest that mattered) and their holders, packed two suits an
    integer (``k << 26 | holders``, 31 bits a suit)."""
    p01 = 0
    p23 = 0
    for s in range(4):
        m = rel & _suit_mask(s)
        k = 0
        if m:
            low = 0
            while not (m >> low) & 1:
                low += 1
            k = _popcount(alive & _suit_mask(s) & ~((1 << low) - 1))
        v = (k << 26) | (codes[s] >> (2 * (lengths[s] - k)))
        if s < 2:
            p01 = (p01 << 31) | v
        else:
            p23 = (p23 << 31) | v
    return p01, p23


@_jit
def _matches(p01: int, p23: int, codes: Any, lengths: Any) -> bool:
    for s in range(4):
        v = (p01 >> (31 * (1 - s))) & 0x7FFFFFFF if s < 2 else (
            p23 >> (31 * (3 - s))) & 0x7FFFFFFF
        k = v >> 26
        if k and (codes[s] >> (2 * (lengths[s] - k))) != (v & 0x3FFFFFF):
            return False
    return True


@_jit
def _pattern_cards(p01: int, p23: int, alive: int) -> int:
    """The cards an entry's pattern names in the current position (its top cards)."""
    out = 0
    for s in range(4):
        v = (p01 >> (31 * (1 - s))) & 0x7FFFFFFF if s < 2 else (
            p23 >> (31 * (3 - s))) & 0x7FFFFFFF
        out |= _top_cards(alive, s, v >> 26)
    return out


@_jit
def _bucket(bkeys: Any, bgen: Any, meta: Any, key: int, tag: int, create: bool) -> Any:
    """The slot of bucket (``key``, ``tag``); -1 when absent and not ``create``."""
    mask = bkeys.shape[0] - 1
    h = (key * 0x1E3779B97F4A7C15) ^ (tag * 0x27D4EB2F165667C5)
    i = (h ^ (h >> 29)) & mask
    g = meta[_GEN]
    while bgen[i] == g:
        if bkeys[i, 0] == key and bkeys[i, 1] == tag:
            return i
        i = (i + 1) & mask
    if not create:
        return -1
    bgen[i] = g
    bkeys[i, 0] = key
    bkeys[i, 1] = tag
    bkeys[i, 2] = -1
    meta[_USED_BUCKETS] += 1
    return i


@_jit
def _store(bkeys: Any, bgen: Any, ent: Any, meta: Any, key: int, tag: int, p01: int,
           p23: int, lo: int, hi: int) -> None:
    """Tighten the entry of this pattern in the bucket, or add one (the table emptied
    first when full)."""
    if (meta[_USED_BUCKETS] * 2 >= bkeys.shape[0]
            or meta[_USED_ENTRIES] >= ent.shape[0]):
        meta[_GEN] += 1
        meta[_USED_BUCKETS] = 0
        meta[_USED_ENTRIES] = 0
    b = _bucket(bkeys, bgen, meta, key, tag, True)
    e = bkeys[b, 2]
    looked = 0
    while e >= 0 and looked < _CHAIN:
        looked += 1
        if ent[e, 1] == p01 and ent[e, 2] == p23:
            if lo > ent[e, 3]:
                ent[e, 3] = lo
            if hi < ent[e, 4]:
                ent[e, 4] = hi
            return
        e = ent[e, 0]
    e = meta[_USED_ENTRIES]
    meta[_USED_ENTRIES] += 1
    ent[e, 0] = bkeys[b, 2]
    ent[e, 1] = p01
    ent[e, 2] = p23
    ent[e, 3] = lo
    ent[e, 4] = hi
    bkeys[b, 2] = e


@_jit
def _high(hand: int, suit: int) -> Any:
    """The highest card of ``suit`` in ``hand`` (-1: none)."""
    m = hand & _suit_mask(suit)
    if not m:
        return -1
    c = 13 * suit + 12
    while not (m >> c) & 1:
        c -= 1
    return c


@_jit
def _beats(card: int, win_card: int, strain: int) -> bool:
    """Does ``card`` beat ``win_card`` (the trick's best so far)?"""
    return (card // 13 == win_card // 13 and card > win_card) or (
        card // 13 == strain and win_card // 13 != strain)


@_jit
def _can_beat(hand: int, win_card: int, led: int, strain: int) -> Any:
    """Can ``hand`` beat ``win_card`` on a trick led in ``led``?"""
    if hand & _suit_mask(led):
        h = _high(hand, led)
        return _beats(h, win_card, strain)
    if strain != 4 and hand & _suit_mask(strain):
        return _beats(_high(hand, strain), win_card, strain)
    return False


@_jit
def _top_three(H: Any, suit: int, out: Any) -> None:
    """The three highest cards of ``suit`` still in play and their holders: ``out[0:3]``
    the cards, ``out[3:6]`` the seats (-1 when the suit has fewer)."""
    for i in range(6):
        out[i] = -1
    k = 0
    base = 13 * suit
    for r in range(12, -1, -1):
        bit = 1 << (base + r)
        for seat in range(4):
            if H[seat] & bit:
                out[k] = base + r
                out[3 + k] = seat
                k += 1
                break
        if k == 3:
            return


@_jit
def _lead_weight(H: Any, leader: int, card: int, strain: int, tops: Any) -> Any:
    """The leader's move ordering after DDS's (Haglund's ``WeightAllocTrump0`` and
    ``WeightAllocNT0`` in its ``Moves.cpp``, rewritten; higher first). A suit is worth less
    the more cards the opponents can play to it (a void counts as many: discards and
    ruffs widen the tree); it is worth more when the leader's side wins the trick
    (the leader's or partner's top card that no opponent ruffs, or partner's ruff that no
    opponent overruffs) -- most when the second-best card is the side's too or sits over
    an opponent's singleton top card -- and, when the side does not win it, when the lead
    sets up the suit (the second and third cards the side's: lead towards them), leads
    through the left-hand opponent's top card to partner's second, or fells a singleton
    top card; it is worth less when the right-hand opponent holds the top or second
    card over partner. In a suit, a winning card of the side is cashed high, a card that
    cannot win is led from a sequence (the second-best card heading it first) or low.
    ``tops``: the suit's three highest cards and their holders (:func:`_top_three`)."""
    s = card // 13
    r = card % 13
    pard = (leader + 2) % 4
    lho = (leader + 1) % 4
    rho = (leader + 3) % 4
    alive = H[0] | H[1] | H[2] | H[3]
    suit = _suit_mask(s)
    len_me = _popcount(H[leader] & suit)
    len_l = _popcount(H[lho] & suit)
    len_r = _popcount(H[rho] & suit)
    len_p = _popcount(H[pard] & suit)
    rem = _popcount(alive) // 4
    top, second = tops[0], tops[1]
    w1, w2, w3 = tops[3], tops[4], tops[5]
    # the card's place from the top among the suit's cards left (DDS's relative rank: 1 for
    # the top card; the weights add it, so that of equal cases the lower card comes first)
    rel = 1 + _popcount(alive & suit & ~((2 << card) - 1))
    seq = _run_bottom(H[leader], alive, card) != card  # it heads equivalent cards
    count = 4 * (len_l if len_l else rem + 1) + 4 * (len_r if len_r else rem + 1)
    trumps = _suit_mask(strain) if strain != 4 else 0
    pard_over = _high(H[pard], s) > _high(H[lho] | H[rho], s)  # (no card: -1)
    if not alive & trumps:  # no trumps left: DDS's no-trump weights
        delta = -(count * 32) // 19
        if len_p == 0:
            delta -= 9
        if card == top or pard_over:
            if w2 == rho:
                if len_r != 1:
                    delta -= 1
            elif w2 == lho:
                delta += 22 if len_l != 1 else 16
            if (w2 != lho or len_l == 1) and (w2 != rho or len_r == 1):
                return delta + 45 + rel
            return delta + 18 + rel
        if w1 == rho or w2 == rho:
            if len_r != 1:
                delta -= 10
        elif w1 == lho and w2 == pard and len_p != 1:
            delta += 31
        if w2 == pard and w3 == pard:
            delta += 35
        elif len_p > 1 and ((w2 == leader and w3 == pard) or (w2 == pard and w3 == leader)):
            delta += 25
        if (len_l == 1 and w1 == lho) or (len_r == 1 and w1 == rho):
            return delta + 28 + rel
        if w1 == leader:
            return delta - 17 + rel
        if not seq:
            return delta + 12 + rel
        if card == second:
            return delta + 48
        return delta + 29 - rel
    side = s != strain
    l_ruffs = side and len_l == 0 and (H[lho] & trumps) != 0
    r_ruffs = side and len_r == 0 and (H[rho] & trumps) != 0
    p_ruffs = side and len_p == 0 and (H[pard] & trumps) != 0
    delta = -(count * 32) // 13
    if l_ruffs or r_ruffs:
        delta -= 12
    if p_ruffs and len_r > 0:
        delta += 17
    if w1 == rho or w2 == rho:
        if len_r != 1:
            delta -= 12
    elif w1 == lho and w2 == pard and len_p != 1:
        delta += 27
    if side and len_me == 1 and H[leader] & trumps and len_p > 1 and w1 == pard:
        delta += 19  # partner wins and returns the suit for the leader's ruff
    p_trump = _high(H[pard], strain) if strain != 4 else -1
    wins = False
    if card == top or pard_over:
        if card == top and p_ruffs:
            wins = (not l_ruffs or p_trump > _high(H[lho], strain)) and (
                not r_ruffs or p_trump > _high(H[rho], strain))
        else:
            wins = not l_ruffs and not r_ruffs
    elif p_ruffs:
        wins = (not l_ruffs or p_trump > _high(H[lho], strain)) and (
            not r_ruffs or p_trump > _high(H[rho], strain))
    if wins:
        if (len_l == 1 and w1 == lho) or (len_r == 1 and w1 == rho):
            return delta + 35 + rel
        if w1 == leader:
            if w2 == pard:
                return delta + 48 + rel
            if card == top:
                return delta + 31
            return delta - 3 + rel
        if w1 == pard:
            return delta + (42 if w2 == leader else 28) + rel
        if seq and card == second:
            return delta + 40
        if seq:
            return delta + 22 + rel
        return delta + 11 + rel
    if w2 == pard and w3 == pard:
        delta += 20
    elif len_p > 1 and ((w2 == leader and w3 == pard) or (w2 == pard and w3 == leader)):
        delta += 13
    if (len_l == 1 and w1 == lho) or (len_r == 1 and w1 == rho):
        return delta + 2 + rel
    if w1 == leader:
        if w2 == pard:
            return delta + 33 + rel
        if card == top:
            return delta + 38
        return delta - 14 + rel
    if w1 == pard:
        return delta + 34 + rel
    if seq and card == second:
        return delta + 35
    return delta + 15 - r


@_jit
def _weight(H: Any, T: Any, tlen: int, leader: int, card: int, strain: int) -> Any:
    """A follower's move ordering (higher first; the leader's is :func:`_lead_weight`): it
    wins as cheaply as it can when the opponents are winning and its card holds, else
    plays low, discarding neither trumps nor masters."""
    s = card // 13
    r = card % 13
    seat = (leader + tlen) % 4
    lho = (seat + 1) % 4
    alive = H[0] | H[1] | H[2] | H[3]
    win_i = 0
    win_card = T[0]
    for i in range(1, tlen):
        if _beats(T[i], win_card, strain):
            win_i = i
            win_card = T[i]
    led = T[0] // 13
    partner_wins = (((leader + win_i) % 4 - seat) & 1) == 0
    discard = s != led
    penalty = 0
    if discard:
        if s == strain:
            penalty = 13
        if card == _high(alive, s):
            penalty += 13
    if partner_wins:
        if (tlen == 2 and not discard and _can_beat(H[lho], win_card, led, strain)
                and _beats(card, win_card, strain) and not _can_beat(H[lho], card, led, strain)):
            return 50 - r
        return 40 - r - penalty
    if _beats(card, win_card, strain):
        if tlen == 3:
            return 60 - r
        if not _can_beat(H[lho], card, led, strain):
            return 55 - r
        return 10 - r
    return 40 - r - penalty


@_jit
def _second_weight(H: Any, T: Any, seat: int, card: int, strain: int) -> Any:
    """The second hand's ordering when it follows suit, after DDS's
    (``WeightAllocTrumpNotvoid1`` / ``WeightAllocNTNotvoid1``, rewritten; higher first).
    The trick is the side's (``wins``) when this card beats the lead and the third hand's
    cards (and the third hand cannot ruff, or partner overruffs it), when partner, the
    fourth hand, beats both, or when partner ruffs. A winning card is played as cheaply as
    it wins (a card under partner's top card first); else the card is played low, one
    that cannot matter (below every card of the third or fourth hand) lowest."""
    led = card // 13
    lead = T[0]
    third = (seat + 1) % 4
    pard = (seat + 2) % 4
    rank = card % 13 + 2  # (DDS's ranks: 2 to 14)
    alive = H[0] | H[1] | H[2] | H[3]
    suit = _suit_mask(led)
    rel = 1 + _popcount(alive & suit & ~((2 << card) - 1))
    max3 = _high(H[third], led)
    maxpd = _high(H[pard], led)
    low3 = _lowest(H[third], led)
    lowpd = _lowest(H[pard], led)
    has3 = max3 >= 0
    haspd = maxpd >= 0
    if not has3:
        low3 = -1
    if not haspd:
        lowpd = -1
    if strain == 4 or not alive & _suit_mask(strain):
        if maxpd > lead and maxpd > max3:
            return -rank  # partner wins the trick: play low
        if card > lead and card > max3:
            return 81 - rank
        if card < low3 or card < lowpd:
            return -3 + rel
        if card < lead:
            return -11 + rel
        if _run_bottom(H[seat], alive, card) != card:
            return 10 + rel
        return 13 - rank
    t3 = _high(H[third], strain)
    tpd = _high(H[pard], strain)
    wins = False
    if led == strain:
        wins = (maxpd > lead and maxpd > max3) or (card > lead and card > max3)
    elif card > lead and card > max3:
        wins = has3 or t3 < 0 or (not haspd and tpd > t3)
    elif maxpd > lead and maxpd > max3:
        wins = has3 or t3 < 0
    elif lead > maxpd and lead > max3:
        wins = not haspd and tpd >= 0 and (has3 or t3 < 0 or tpd > t3)
    elif not haspd and tpd >= 0:
        wins = True
    if wins:
        if low3 > card:
            return 40 + rel
        if maxpd > lead and _high(H[(seat + 3) % 4], led) > maxpd:
            return 41 + rel
        if card > lead:
            if card < maxpd:
                return 78 - rank
            if card > max3:
                return 73 - rank
            if _run_bottom(H[seat], alive, card) != card:
                return 62 - rank
            return 49 - rank
        if haspd:
            return 47 - rank
        return 40 - rank
    if card < low3 or card < lowpd:
        return -9 + rel
    if card < lead:
        return -16 + rel
    if _run_bottom(H[seat], alive, card) != card:
        return 22 - rank
    return 10 - rank


@_jit
def _order_dds(H: Any, T: Any, tlen: int, leader: int, moves: Any, n: int,
               strain: int) -> None:
    keys = np.empty(13, np.int64)
    if tlen == 0:
        tops = np.empty(6, np.int64)
        suit = -1
        for i in range(n):
            if moves[i] // 13 != suit:  # (the moves come suit by suit)
                suit = moves[i] // 13
                _top_three(H, suit, tops)
            keys[i] = -_lead_weight(H, leader, moves[i], strain, tops)
    elif tlen == 1 and moves[0] // 13 == T[0] // 13:
        for i in range(n):
            keys[i] = -_second_weight(H, T, (leader + 1) % 4, moves[i], strain)
    else:
        for i in range(n):
            keys[i] = -_weight(H, T, tlen, leader, moves[i], strain)  # highest weight first
    _sort_by_keys(keys, moves, n)


@_jit
def _search(H: Any, T: Any, st: Any, goal: int, strain: int, decl: int, bkeys: Any,
            bgen: Any, ent: Any, meta: Any, deadline: float, work: Any) -> Any:
    """Does the declaring side reach ``goal`` tricks (counted from the view's start, ``st``
    as :mod:`.compiled`: trick length, leader, tricks taken, lost)? ``_OK | cards`` when it
    does, ``cards`` when not (the cards that mattered), ``_ABORT`` when the budget or the
    deadline ran out."""
    meta[_NODES] += 1
    if meta[_NODES] > meta[_BUDGET]:
        meta[_ABORTED] = 1
        return _ABORT
    if meta[_NODES] >= meta[_DEADLINE_CHECK]:
        meta[_DEADLINE_CHECK] = meta[_NODES] + 4096
        if _clock() > deadline:
            meta[_ABORTED] = 1
            return _ABORT
    tlen = st[0]
    leader = st[1]
    alive = H[0] | H[1] | H[2] | H[3]
    rem = (_popcount(alive) + tlen) // 4
    need = goal - st[2]
    if need <= 0:
        return _OK
    if need > rem:
        return 0
    seat = (leader + tlen) % 4
    decl_moves = ((seat - decl) & 1) == 0
    depth = _popcount(alive)  # (one row of the work space a level: moves, layout)
    codes = work[depth, 13:17]
    lengths = work[depth, 17:21]
    key = 0
    tag = 0
    if tlen == 0:
        q, q_cards, qo, _qo_cards = _quick(H, leader, strain)
        want = need if decl_moves else rem - need + 1  # of the leader's side
        if q >= want:  # the top runs suffice: only the cards of ``want`` tricks matter
            q_cards = _fewest_quick_cards(q_cards, want)
        else:
            own = q
            extra, l_cards = _length_tricks(H, leader, strain)
            if extra:
                q += extra
                q_cards |= l_cards
            if q > rem:
                q = rem
            if q < want:
                q2, q2_cards = _partner_quick(H, leader, strain, own, q_cards)
                if q2 > q:
                    q = q2
                    q_cards = q2_cards
        if q >= want:
            return (_OK | q_cards) if decl_moves else q_cards
        if qo >= rem - want + 1:  # the other side's top trumps: the ones it needs matter
            qo_cards = _top_cards(alive, strain, rem - want + 1)
            return qo_cards if decl_moves else _OK | qo_cards
        decided, l_cards = _later_tricks(H, leader, strain, decl, need, rem)
        if decided:
            return l_cards if decl_moves else _OK | l_cards
        key = _layout(H, codes, lengths)
        tag = leader + 4 * strain
        b = _bucket(bkeys, bgen, meta, key, tag, False)
        if b >= 0:
            e = bkeys[b, 2]
            prev = -1
            looked = 0
            while e >= 0 and looked < _CHAIN:
                looked += 1
                if _matches(ent[e, 1], ent[e, 2], codes, lengths):
                    lo = ent[e, 3]
                    hi = ent[e, 4]
                    if not decl_moves:  # the entry is the leader's side's tricks to come
                        lo, hi = rem - hi, rem - lo
                    if lo >= need or hi < need:
                        if prev >= 0:  # an entry that answers moves to the front
                            ent[prev, 0] = ent[e, 0]
                            ent[e, 0] = bkeys[b, 2]
                            bkeys[b, 2] = e
                        cards = _pattern_cards(ent[e, 1], ent[e, 2], alive)
                        return (_OK | cards) if lo >= need else cards
                prev = e
                e = ent[e, 0]
    elif tlen == 1 and (need == 1 if decl_moves else need == rem):
        # the side to move needs one trick more: does it win this one?
        wins, w_cards = _second_hand_wins(H, T, seat, strain)
        if wins:
            return (_OK | w_cards) if decl_moves else w_cards
    elif tlen == 2 and (need == 1 if decl_moves else need == rem):
        wins, w_cards = _third_hand_wins(H, T, seat, strain)  # (the same, third hand)
        if wins:
            return (_OK | w_cards) if decl_moves else w_cards
    moves = work[depth, 0:13]
    n = _gen_moves(H, T, tlen, leader, moves)
    if n > 1:
        _order_dds(H, T, tlen, leader, moves, n, strain)
        # DDS's "best move": the leader's card that last cut off at this depth first
        # (followers keep the weights: their killers, tried too, cost 2-3x the nodes)
        if tlen == 0:
            _to_front(moves, n, work[depth, 21] - 1)
    t0, t1, t2 = T[0], T[1], T[2]
    live = alive  # the cards in play, those on the table included (what merging reads)
    for j in range(tlen):
        live |= 1 << T[j]
    cards = 0
    reached = not decl_moves  # what the side to move gets if no move does better
    low_win = work[depth, 22:26]  # per suit: its cards below this one are not tried
    for s in range(4):
        low_win[s] = -1
    for i in range(n):
        c = moves[i]
        suit = c // 13
        if low_win[suit] >= 0 and c < low_win[suit]:
            continue  # a small card like one already searched (DDS's "MakeNext")
        w = _play(H, T, st, seat, c, tlen, leader, strain, decl)
        won_by_rank = 0
        if w >= 0:  # the winning card matters when it beat a card of its suit (DDS's rule)
            won_by_rank = _won_by_rank(T, T[(w - leader) % 4])
        r = _search(H, T, st, goal, strain, decl, bkeys, bgen, ent, meta, deadline, work)
        _unplay(H, T, st, seat, c, tlen, leader, decl, t0, t1, t2)
        if r == _ABORT:
            return _ABORT
        ok = r >= _OK
        child_cards = (r & ~_OK) | won_by_rank
        if ok == decl_moves:  # the side to move has what it wants: a cut-off
            reached = ok
            if tlen == 0:
                work[depth, 21] = c + 1
            cards = child_cards
            break
        cards |= child_cards
        if (child_cards >> c) & 1:
            # ``c`` stands for the equivalent cards below it in the hand (merged moves):
            # when ``c`` itself mattered (it won a trick), each of them matters in its
            # own line, so the lowest does (without it, seed 327's wrong entry)
            cards |= 1 << _run_bottom(H[seat], live, c)
        if low_win[suit] < 0:
            # the lowest card of the suit that mattered so far: when ``c`` is below it,
            # every card of the suit below it gives the same result (partition search)
            low = _lowest(cards, suit)
            if c < low:
                low_win[suit] = low
    if tlen == 0:
        p01, p23 = _pattern(alive, cards, codes, lengths)
        # the bound, as the leader's side's tricks to come
        if reached == decl_moves:  # leader's side reaches its target
            lo = need if decl_moves else rem - need + 1
            hi = rem
        else:
            lo = 0
            hi = need - 1 if decl_moves else rem - need
        _store(bkeys, bgen, ent, meta, key, tag, p01, p23, lo, hi)
    return (_OK | cards) if reached else cards


class PartitionTable:
    """The transposition table of partition search: buckets (open addressing by the suit
    lengths, leader and strain) holding linked entries (pattern, bounds), allocated once
    (:func:`shared_table`) and emptied by a new generation."""

    def __init__(self, entries: int = DEFAULT_ENTRIES) -> None:
        if not available():
            raise UnsupportedGameError(f"the compiled double-dummy solver needs numba "
                                       f"(pip install 'gamesearch[fast]'): {NUMBA_ERROR}")
        cap = 1 << max(0, int(entries) - 1).bit_length()
        self.bkeys = np.zeros((2 * cap, 3), np.int64)
        self.bgen = np.zeros(2 * cap, np.int64)
        self.ent = np.zeros((cap, 5), np.int64)
        self.meta = np.array([1, 0, 0, 0, 0, 0, 0], np.int64)
        self.work = np.zeros((53, 26), np.int64)

    def clear(self) -> None:
        """Empty the table (O(1): a new generation) and forget the killer cards."""
        self.work[:, 21] = 0
        self.meta[_GEN] += 1
        self.meta[_USED_BUCKETS] = 0
        self.meta[_USED_ENTRIES] = 0

    @property
    def entries(self) -> int:
        return int(self.meta[_USED_ENTRIES])


_SHARED: PartitionTable | None = None


def shared_table() -> PartitionTable:
    """The process's one table (allocated on first use, about 72 MB)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = PartitionTable()
    return _SHARED


class Solver:
    """Double-dummy solves of one (strain, declarer) by partition search (the module
    docstring) on a table (default: the process's shared one). ``max_nodes`` and
    ``seconds`` bound each solve: past them :class:`~gamesearch.errors.SearchTimeout`."""

    def __init__(self, strain: int, declarer: int, table: PartitionTable | None = None,
                 max_nodes: int | None = None, seconds: float | None = None) -> None:
        if strain not in range(5) or declarer not in range(4):
            raise InvalidPositionError(f"double dummy: strain {strain!r} / declarer "
                                       f"{declarer!r} out of range")
        self.strain = strain
        self.declarer = declarer
        self.table = table if table is not None else shared_table()
        self.max_nodes = max_nodes
        self.seconds = seconds
        self.nodes = 0
        self._deadline = float("inf")

    def _arrays(self, state: DDState) -> tuple[Any, Any, Any]:
        H = np.array(state[:4], np.int64)
        T = np.zeros(4, np.int64)
        for i, c in enumerate(state[5]):
            T[i] = c
        st = np.array([len(state[5]), state[4], state[6], state[7]], np.int64)
        return H, T, st

    def reaches(self, state: DDState, goal: int) -> bool:
        """Does the declaring side take at least ``goal`` tricks in all (those of ``state``
        included: ``state[6]``) against best defence?"""
        H, T, st = self._arrays(state)
        return self._reaches(H, T, st, goal)

    def _reaches(self, H: Any, T: Any, st: Any, goal: int) -> bool:
        meta = self.table.meta
        meta[_NODES] = 0
        meta[_ABORTED] = 0
        meta[_DEADLINE_CHECK] = 4096
        left = -1 if self.max_nodes is None else self.max_nodes - self.nodes
        meta[_BUDGET] = (1 << 62) if left < 0 else left
        r = _search(H, T, st, goal, self.strain, self.declarer, self.table.bkeys,
                    self.table.bgen, self.table.ent, meta, self._deadline, self.table.work)
        self.nodes += int(meta[_NODES])
        if r == _ABORT:
            exc = SearchTimeout(f"double dummy: the solve was stopped after {self.nodes} "
                                "nodes (its node budget or time ran out)")
            exc.nodes = self.nodes  # (what PIMC counts)
            raise exc
        return bool(r >= _OK)

    def declarer_tricks(self, state: DDState, guess: int | None = None) -> int:
        """The declaring side's tricks from ``state`` on (not counting ``state[6]``):
        null-window searches moving the target from ``guess`` by ones (DDS's loop), or by
        halving without a guess."""
        n = tricks_left(state)
        lo, hi = 0, n
        base = state[6]
        H, T, st = self._arrays(state)
        stepping = guess is not None
        t = min(max(guess if guess is not None else (n + 1) // 2, 1), n) if n else 0
        while lo < hi:
            if self._reaches(H, T, st, base + t):
                lo = t
            else:
                hi = t - 1
            if lo >= hi:
                break
            if stepping:
                t = lo + 1 if t == lo else hi
            else:
                t = (lo + hi + 1) // 2
        return lo

    def start_clock(self) -> None:
        """Count ``seconds`` and ``max_nodes`` from now (each :meth:`solve` calls it)."""
        self.nodes = 0
        self._deadline = float("inf") if self.seconds is None else \
            time.perf_counter() + self.seconds

    def solve(self, state: DDState, best_moves: bool = False,
              guess: int | None = None) -> dict[str, Any]:
        """As :meth:`.compiled.CompiledSolver.solve`: ``{"score"`` (tricks of the side to
        move from here), ``"tricks"`` (the declaring side's from here), ``"moves"`` (the
        best cards; every one with ``best_moves``, else one), ``"nodes"}``."""
        from .dd import DoubleDummy

        game = DoubleDummy(self.strain, self.declarer)
        if game.is_terminal(state):
            raise InvalidPositionError("bridge: the play is over; nothing to solve")
        self.start_clock()
        tricks = self.declarer_tricks(state, guess)
        decl_moves = game.to_move(state) == 0
        n = tricks_left(state)
        moves: list[int] = []
        for a in game.actions(state):
            child = game.result(state, a)
            if game.is_terminal(child):
                best = child[6] - state[6] == tricks
            elif decl_moves:
                best = self.reaches(child, state[6] + tricks)
            else:
                best = not self.reaches(child, state[6] + tricks + 1)
            if best:
                moves.append(a)
                if not best_moves:
                    break
        return {"score": tricks if decl_moves else n - tricks, "tricks": tricks,
                "moves": moves, "nodes": self.nodes}


def solve_with_limits(strain: int, declarer: int, state: DDState, best_moves: bool,
                      max_nodes: int | None, seconds: float | None) -> dict[str, Any]:
    """One solve on the shared table with limits (:class:`Solver`)."""
    return Solver(strain, declarer, max_nodes=max_nodes, seconds=seconds).solve(
        state, best_moves)


def solve_table(hands: Sequence[int]) -> tuple[list[list[int]], int]:
    """``(table, nodes)``: ``table[strain][declarer]`` the declaring side's tricks (each
    declarer's left-hand opponent on lead), on the shared table; each declarer's search
    starts from the guess of the previous declarer of the strain (partner's result: 13
    less the opponents')."""
    from .dd import DoubleDummy

    table = [[0] * 4 for _ in range(5)]
    nodes = 0
    for strain in range(5):
        guess: int | None = None
        for declarer in (0, 1, 2, 3):
            solver = Solver(strain, declarer)
            solver.start_clock()
            state = DoubleDummy(strain, declarer).start(hands)
            t = solver.declarer_tricks(state, guess)
            table[strain][declarer] = t
            nodes += solver.nodes
            guess = tricks_left(state) - t  # the next declarer is an opponent
    return table, nodes
