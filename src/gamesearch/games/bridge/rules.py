"""Contract bridge card play: four hands, a contract and a declarer, tricks, the duplicate
score (the Laws of Duplicate Bridge 2017, Law 77 scoring table, undoubled).

The rules played (the card play of the Laws, Laws 41-66, without claims and penalties):

* four seats N, E, S, W; N-S and E-W are partners. The contract is a strain (a trump suit,
  or no trump) and a level 1-7: the declaring side must take ``6 + level`` tricks;
* the declarer's left-hand opponent makes the opening lead; then dummy (the declarer's
  partner) is laid face up, and declarer plays dummy's cards as well as its own (``to_move``
  is the declarer when dummy's card is due; a seat's agent never plays for dummy);
* each player in turn plays one card, clockwise; a player must follow the suit led if it
  can (playing another suit while holding one of the suit led is a *revoke*, refused);
* the trick is won by the highest trump in it, else the highest card of the suit led; its
  winner leads the next trick; 13 tricks;
* the result is the declaring side's tricks, and the score the duplicate score of the
  contract for them (the defenders get its negative): made, the trick score (20 a trick
  in clubs and diamonds, 30 in hearts and spades, 40 + 30 in no trump) with 300 for a game
  (500 vulnerable) or 50 for a part score, 500 / 750 for a small slam and 1000 / 1500 for
  a grand slam, overtricks at the trick value; down, 50 a trick (100 vulnerable).

Which contract, without ``contract=``: the double-dummy table decides (:func:`par_rule`):
every (strain, declarer) is bid at the level its tricks make (if it makes at least one
level), and the one with the highest score for its side is played; ties go to the strain
order N S H D C, then declarer N E S W; when no contract makes, 1 of the strain with the
most tricks (same tie order). A simplification of par, said plainly: the side that would
be outbid or would sacrifice is not considered. ``strain=``/``declarer=`` alone fix those
and the rule picks the rest.

The deal is chance (the Laws' shuffle and deal): without ``deal=`` a game starts before
the deal, and chance deals the 52 cards one at a time, the k-th to seat ``k % 4`` (N E S W),
each undealt card equally likely -- so every new game is a new deal, drawn from the holder's
random source (``gamesearch play --seed`` reproduces one), and the :class:`Bridge` object
holds no secret: games with equal options are equal whatever is dealt. ``deal=N`` fixes a
board (the deal of seed ``N``, :func:`deal_from_seed`); its game starts dealt. Either way,
the game an agent is handed is the one of the public options (the observation's
``public_game``): ``deal=`` is the holder's, never a seat's.

The state (:class:`BridgeState`) holds the contract, chosen when the last card is dealt, so
a deal and its contract travel together (the arena's duplicate boards, a PBN position).

Notation: a card is ``SA``/``H7``/``DT`` (:mod:`.cards`); a position is a PBN deal, then
optionally the cards played so far from the opening lead on, separated by spaces:
``N:AKQ.xxx... ... ... ... SA S2 S3 S4``. A deal of fewer than 13 cards a hand (an
ending) is accepted; its tricks already played are not known, so its score counts only
the tricks played from it.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ...capabilities import Drawing, MatchHooks, Observation, PerfectView, TableOutcome
from ...errors import (
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
    UnsupportedGameError,
    echo,
)
from ...game import CHANCE, Game, GameType
from ...spec import GameOption
from ..cards import BRIDGE_DECK, DealSampler, NoConsistentDealError
from .cards import (
    NOTRUMP,
    RANKS,
    SEAT_NAMES,
    SEATS,
    STRAIN_NAMES,
    STRAINS,
    SUIT_SYMBOLS,
    SUITS,
    card_name,
    cards_of,
    format_deal,
    parse_card,
    parse_deal,
    parse_seat,
    parse_strain,
)
from .dd import DoubleDummy, legal_cards, trick_winner

VULNERABILITIES = ("none", "ns", "ew", "both")
#: the contract level of a state whose deal is in progress (a chance node)
DEALING = 0
_FULL_DECK = (1 << 52) - 1


class BridgeState(NamedTuple):
    """A position of the card play: the hands left (card masks by seat N E S W), the
    cards of the trick in progress (from its leader), the seat that led it, the tricks of
    the declaring side and of the defenders, every card played so far in order, the seat
    that made the opening lead, and the contract (strain 0-4, level 1-7, declarer seat).

    Level 0 marks the deal in progress (:data:`DEALING`): the hands hold the cards dealt so
    far, ``played`` the cards in the order dealt, chance is to move."""

    hands: tuple[int, int, int, int]
    # (BridgeView repeats the fields from here on, the public part, by the same names)
    trick: tuple[int, ...]
    leader: int
    declarer_tricks: int
    defender_tricks: int
    played: tuple[int, ...]
    first_leader: int
    strain: int
    level: int
    declarer: int


#: the state before the deal: no card dealt, chance to move (level 0: :data:`DEALING`)
BEFORE_THE_DEAL = BridgeState((0, 0, 0, 0), (), 0, 0, 0, (), 0, 0, DEALING, 0)


def contract_score(level: int, strain: int, tricks: int, vulnerable: bool) -> int:
    """The duplicate score for the declaring side of an undoubled contract that took
    ``tricks`` tricks (Law 77)."""
    need = 6 + level
    if tricks < need:
        return -(100 if vulnerable else 50) * (need - tricks)
    per = 20 if strain in (2, 3) else 30
    trick_score = per * level + (10 if strain == NOTRUMP else 0)
    score = trick_score + per * (tricks - need)
    score += (500 if vulnerable else 300) if trick_score >= 100 else 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    return score


#: The lower ends of the IMP scale's steps (WBF; Law 78B): a difference of 20-40 points is
#: 1 IMP, 50-80 is 2, ..., 4000 and more is 24.
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps(difference: float) -> int:
    """International Match Points for a difference of duplicate scores (signed): the
    number of steps of :data:`IMP_STEPS` the absolute difference reaches."""
    size = sum(abs(difference) >= step for step in IMP_STEPS)
    return size if difference >= 0 else -size


#: the two partnerships, in the order of ``MatchHooks.teams``
PARTNERSHIPS = ("N-S", "E-W")


def is_vulnerable(vul: str, declarer: int) -> bool:
    return vul == "both" or (vul == "ns" and declarer % 2 == 0) or (
        vul == "ew" and declarer % 2 == 1)


def par_rule(table: Sequence[Sequence[int]], vul: str = "none") -> tuple[int, int, int]:
    """``(strain, level, declarer)`` the documented rule picks from a double-dummy table
    (``table[strain][declarer]`` tricks; the module docstring)."""
    best: tuple[int, int, int, int] | None = None  # (score, strain, level, declarer)
    for strain in (4, 0, 1, 2, 3):
        for declarer in range(4):
            level = table[strain][declarer] - 6
            if level < 1:
                continue
            sc = contract_score(level, strain, table[strain][declarer],
                                is_vulnerable(vul, declarer))
            if best is None or sc > best[0]:
                best = (sc, strain, level, declarer)
    if best is not None:
        return best[1], best[2], best[3]
    most = max((table[s][d], -i, -d) for i, s in enumerate((4, 0, 1, 2, 3)) for d in range(4))
    return (4, 0, 1, 2, 3)[-most[1]], 1, -most[2]


def deal_from_seed(seed: int) -> tuple[int, int, int, int]:
    """The deal of ``seed``: the 52 cards shuffled by ``random.Random(seed)``, 13 a seat."""
    cards = list(range(52))
    random.Random(seed).shuffle(cards)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i // 13] |= 1 << c
    return hands[0], hands[1], hands[2], hands[3]


def _read_contract(key: str, text: str) -> str:
    t = text.strip().upper()
    if not t:
        return ""
    if len(t) >= 2 and t[0] in "1234567":
        try:
            parse_strain(t[1:])
        except InvalidPositionError:
            pass
        else:
            return t[0] + ("N" if t[1:] in ("N", "NT") else t[1:])
    raise InvalidLimitError(f"option {key}={echo(text)}: expected a level 1-7 and a strain "
                            "S H D C N, like 4S or 3N")


def _read_strain(key: str, text: str) -> str:
    try:
        return STRAINS[parse_strain(text)] if text.strip() else ""
    except InvalidPositionError:
        raise InvalidLimitError(f"option {key}={echo(text)}: unknown strain; expected S, H, "
                                "D, C or N (no trump)") from None


def _read_seat(key: str, text: str) -> str:
    try:
        return SEATS[parse_seat(text)] if text.strip() else ""
    except InvalidPositionError:
        raise InvalidLimitError(f"option {key}={echo(text)}: unknown seat; expected N, E, S "
                                "or W") from None


def _order(cards: list[int]) -> list[int]:
    """Cards in the order of :meth:`Bridge.actions`: suits S H D C, high to low."""
    return sorted(cards, key=lambda c: (c // 13, -c))


def _read_deal(key: str, text: str) -> int | None:
    t = text.strip().lower()
    if t in ("", "random"):
        return None
    if t.isascii() and t.isdigit() and len(t) <= 19 and int(t) < 1 << 62:
        return int(t)
    raise InvalidLimitError(f"option {key}={echo(text)}: expected the seed of a fixed deal, "
                            f"an integer 0 to {(1 << 62) - 1}, or random (the default: dealt "
                            "at random at the start, a chance outcome)")


def _write_deal(value: int | None) -> str:
    return "random" if value is None else str(value)


@dataclass(frozen=True)
class BridgeView:
    """What one seat sees (:meth:`Bridge.observe`): its own hand, dummy's once the opening
    lead is made (declarer's too, for dummy), every card played in order (so who played
    what, and which voids a failure to follow revealed), the trick, the tricks won, the
    contract. Hashable: the information set's key. ``seat`` ``None``: a spectator's view
    (the public part: dummy after the lead, the cards played). While the deal is in
    progress (``level`` 0) ``played`` is empty and the seat sees its own cards so far."""

    seat: int | None
    hands: tuple[int, int, int, int]  # the visible hands; 0 for the unseen
    seen: tuple[bool, bool, bool, bool]
    counts: tuple[int, int, int, int]  # cards left in each hand
    # BridgeState's public fields again, under the same names (a view's readers use the
    # state's words); a dataclass cannot inherit a NamedTuple's fields
    trick: tuple[int, ...]
    leader: int
    declarer_tricks: int
    defender_tricks: int
    played: tuple[int, ...]
    first_leader: int
    strain: int
    level: int
    declarer: int


class Bridge(Game[BridgeState, int]):
    """Bridge card play (see the module docstring): ``bridge:contract=4S,declarer=S``,
    ``deal=`` the seed of a fixed deal (default: dealt at random, by chance), ``vul=``
    none/ns/ew/both."""

    name = "bridge"
    num_players = 4
    game_type = GameType(num_players=4, perfect_information=False, zero_sum=True,
                         constant_sum=0.0, value_bounds=(-2220.0, 2220.0))
    #: the largest score (7NT vulnerable, 2220) stays below it, so no score is read as a
    #: distance-discounted win
    max_utility = 10000.0
    state_notation = ("a PBN deal N:<spades.hearts.diamonds.clubs> x4, then the cards played "
                      "so far, like N:AKQ.T98.J5.5432 ... ... ... SA S2 S3 S4")
    options = (
        GameOption("contract", str, "", "a level 1-7 and a strain, like 4S or 3N",
                   "the contract (empty: the rule of the double-dummy table)",
                   read=_read_contract, write=str),
        GameOption("strain", str, "", "S, H, D, C or N",
                   "the strain alone (the level: the rule)", read=_read_strain, write=str),
        GameOption("declarer", str, "", "N, E, S or W", "the declarer (empty: the rule)",
                   read=_read_seat, write=str),
        GameOption("deal", int, None, f"random, or a seed 0 to {(1 << 62) - 1}",
                   "the seed of a fixed deal (default: random, dealt by chance at the start)",
                   read=_read_deal, write=_write_deal),
        GameOption("vul", str, "none", VULNERABILITIES,
                   "who is vulnerable: none, ns, ew, both"),
    )

    def __init__(self, contract: str = "", strain: str = "", declarer: str = "",
                 deal: int | str | None = None, vul: str = "none") -> None:
        self.contract = _read_contract("contract", contract) if contract else ""
        self.strain = _read_strain("strain", strain) if strain else ""
        self.declarer = _read_seat("declarer", declarer) if declarer else ""
        if self.contract and self.strain and self.contract[1:] != self.strain:
            raise InvalidLimitError(f"bridge contract={self.contract} and strain="
                                    f"{self.strain} disagree")
        if isinstance(deal, str):
            deal = _read_deal("deal", deal)
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)
                                 or not 0 <= deal < 1 << 62):
            raise InvalidLimitError(f"bridge deal={echo(repr(deal))}: a seed, an integer 0 to "
                                    f"{(1 << 62) - 1}, or None (dealt at random)")
        self.deal: int | None = deal
        if vul not in VULNERABILITIES:
            raise InvalidLimitError(f"bridge vul={vul!r}; allowed: {', '.join(VULNERABILITIES)}")
        self.vul = vul
        self.description = "contract bridge card play, double-dummy solver"
        self._views: dict[tuple[int, int], DoubleDummy] = {}
        self._tables: dict[tuple[int, ...], list[list[int]]] = {}

    # ----- the contract ----------------------------------------------------------------
    def fixed_strain(self) -> int | None:
        if self.contract:
            return parse_strain(self.contract[1:])
        return parse_strain(self.strain) if self.strain else None

    def fixed_declarer(self) -> int | None:
        return parse_seat(self.declarer) if self.declarer else None

    def choose_contract(self, hands: Sequence[int]) -> tuple[int, int, int]:
        """``(strain, level, declarer)`` for a deal: the options, and the rule of the
        double-dummy table for what they leave open (the module docstring)."""
        strain, declarer = self.fixed_strain(), self.fixed_declarer()
        level = int(self.contract[0]) if self.contract else None
        if strain is not None and declarer is not None and level is not None:
            return strain, level, declarer
        table = self.dd_table(hands)
        if strain is None or declarer is None:
            vals = [[table[s][d] if (strain is None or s == strain) and (
                declarer is None or d == declarer) else 0 for d in range(4)] for s in range(5)]
            s, lv, d = par_rule(vals, self.vul)
            strain = s if strain is None else strain
            declarer = d if declarer is None else declarer
            if level is None:
                level = lv
        if level is None:
            level = max(1, min(7, table[strain][declarer] - 6))
        return strain, level, declarer

    def dd_table(self, hands: Sequence[int]) -> list[list[int]]:
        """The double-dummy table ``[strain][declarer]`` of ``hands`` (remembered): the
        stored table of the default deal, else DDS's (``endplay``, a fraction of a second)
        when it is installed, else our compiled solver's (seconds to minutes a deal)."""
        key = tuple(hands)
        if key not in self._tables and key in _stored_tables():
            self._tables[key] = _stored_tables()[key]
        if key not in self._tables:
            table = _dds_table(key)
            if table is not None:
                self._tables[key] = table
        if key not in self._tables:
            from . import compiled

            if not compiled.available():
                raise UnsupportedGameError(
                    "bridge: choosing the contract needs the double-dummy table, which needs "
                    "numba (pip install 'gamesearch[fast]'); or give contract= and declarer=")
            self._tables[key] = compiled.dd_table(key)
        return self._tables[key]

    def dd_view(self, strain: int, declarer: int) -> DoubleDummy:
        v = self._views.get((strain, declarer))
        if v is None:
            v = self._views[(strain, declarer)] = DoubleDummy(strain, declarer)
        return v

    def position(self, hands: Sequence[int], played: Sequence[int] = (),
                 contract: tuple[int, int, int] | None = None) -> BridgeState:
        """The state of ``hands`` with ``contract`` (level, strain, declarer; default: the
        options and the rule), then ``played`` played."""
        if contract is not None:
            level, strain, declarer = contract
            if (self.fixed_strain() not in (None, strain) or self.fixed_declarer() not in (
                    None, declarer) or (self.contract and int(self.contract[0]) != level)):
                raise InvalidPositionError(
                    f"bridge position: contract {level}{STRAINS[strain]} by "
                    f"{SEATS[declarer]} disagrees with the game's options ({self.spec})")
        else:
            strain, level, declarer = self.choose_contract(hands)
        h = tuple(hands)
        first = (declarer + 1) % 4
        state = BridgeState((h[0], h[1], h[2], h[3]), (), first, 0, 0, (), first,
                            strain, level, declarer)
        for c in played:
            self.check_card(state, c, card_name(c))
            state = self.result(state, c)
        return state

    # ----- the textbook's six functions ------------------------------------------------
    def initial_state(self) -> BridgeState:
        """Before the deal (chance deals it), or the fixed deal of ``deal=``."""
        if self.deal is not None:
            return self.position(deal_from_seed(self.deal))
        return BEFORE_THE_DEAL

    def seat_to_play(self, state: BridgeState) -> int:
        """The seat whose card is due (dummy's too)."""
        return (state.leader + len(state.trick)) % 4

    def to_move(self, state: BridgeState) -> int:
        if state.level == DEALING:
            return CHANCE
        seat = (state.leader + len(state.trick)) % 4
        return state.declarer if seat == (state.declarer + 2) % 4 else seat

    def chance_outcomes(self, state: BridgeState) -> list[tuple[int, float]]:
        """The next card dealt: every card not dealt yet, equally likely (it goes to seat
        ``cards dealt % 4``), in the order of :meth:`actions`."""
        h = state.hands
        left = _order(cards_of(_FULL_DECK & ~(h[0] | h[1] | h[2] | h[3])))
        return [(c, 1 / len(left)) for c in left]

    def actions(self, state: BridgeState) -> list[int]:
        """The legal cards of the seat to play, suits S H D C, high to low (while dealing:
        the cards chance may deal next)."""
        if state.level == DEALING:
            return [c for c, _ in self.chance_outcomes(state)]
        mask = legal_cards(state.hands[self.seat_to_play(state)], state.trick)
        return _order(cards_of(mask))

    def _deal_card(self, state: BridgeState, card: int) -> BridgeState:
        """Chance deals ``card`` to the next seat; the last card fixes the contract (the
        options and the rule) and hands the opening lead to declarer's left."""
        seat = len(state.played) % 4
        hands = list(state.hands)
        hands[seat] |= 1 << card
        if len(state.played) + 1 < 52:
            return state._replace(hands=(hands[0], hands[1], hands[2], hands[3]),
                                  played=(*state.played, card))
        return self.position(hands)

    def check_card(self, state: BridgeState, card: int, text: str) -> None:
        if state.level == DEALING:
            h = state.hands
            if (h[0] | h[1] | h[2] | h[3]) >> card & 1:
                raise IllegalMoveError(text, None, f"{card_name(card)} is dealt already")
            return
        seat = self.seat_to_play(state)
        hand = state.hands[seat]
        if self.is_terminal(state):
            raise IllegalMoveError(text, [], "the play is over")
        if not hand >> card & 1:
            raise IllegalMoveError(text, None, f"{card_name(card)} is not in "
                                   f"{SEAT_NAMES[seat]}'s hand")
        legal = legal_cards(hand, state.trick)
        if not legal >> card & 1:
            led = state.trick[0] // 13
            raise IllegalMoveError(
                text, None, f"revoke: {SEAT_NAMES[seat]} must follow {STRAIN_NAMES[led]} "
                f"(holds {' '.join(card_name(c) for c in cards_of(legal))})")

    def result(self, state: BridgeState, action: int) -> BridgeState:
        if state.level == DEALING:
            return self._deal_card(state, action)
        seat = (state.leader + len(state.trick)) % 4
        hands = list(state.hands)
        hands[seat] &= ~(1 << action)
        trick = (*state.trick, action)
        leader, dt, ft = state.leader, state.declarer_tricks, state.defender_tricks
        if len(trick) == 4:
            leader = trick_winner(trick, state.leader, state.strain)
            if (leader - state.declarer) & 1:
                ft += 1
            else:
                dt += 1
            trick = ()
        return state._replace(hands=(hands[0], hands[1], hands[2], hands[3]), trick=trick,
                              leader=leader, declarer_tricks=dt, defender_tricks=ft,
                              played=(*state.played, action))

    def is_terminal(self, state: BridgeState) -> bool:
        h = state.hands
        return not (h[0] | h[1] | h[2] | h[3]) and state.level != DEALING

    def score(self, state: BridgeState) -> int:
        """The declaring side's duplicate score of the tricks taken (module docstring)."""
        return contract_score(state.level, state.strain, state.declarer_tricks,
                              is_vulnerable(self.vul, state.declarer))

    def returns(self, state: BridgeState) -> tuple[float, ...]:
        sc = float(self.score(state))
        return tuple(sc if (seat - state.declarer) % 2 == 0 else -sc for seat in range(4))

    # ----- capabilities ----------------------------------------------------------------
    def perfect_view(self) -> PerfectView[BridgeState]:
        """Double dummy (:mod:`.dd`): the declaring side against the defenders, all hands
        seen; compiled when numba is installed (:mod:`.compiled`)."""
        from . import compiled

        return PerfectView(self.view, self.side, self.solve_positions, self.solve_result,
                           self.equivalents,
                           compiled.solve_state if compiled.available() else None)

    def solve_positions(self, text: str) -> list[tuple[str, BridgeState]]:
        """The states ``solve`` solves for ``text`` (a deal and the cards played): the
        strain and declarer of the options, or each of the 5 x 4 they leave open
        (labelled ``S/N``: strain / declarer), the contract level left at 1 (tricks do not
        depend on it)."""
        words = text.split()
        if len(words) < 4:
            return [("", self.parse_state(text))]
        hands = parse_deal(" ".join(words[:4]))
        played = [parse_card(w) for w in words[4:]]
        strain, declarer = self.fixed_strain(), self.fixed_declarer()
        out = []
        for st in [strain] if strain is not None else [0, 1, 2, 3, 4]:
            for de in [declarer] if declarer is not None else [0, 1, 2, 3]:
                first = (de + 1) % 4
                state = BridgeState(hands, (), first, 0, 0, (), first, st, 1, de)
                for c in played:
                    self.check_card(state, c, card_name(c))
                    state = self.result(state, c)
                out.append((f"{STRAINS[st]}/{SEATS[de]}", state))
        return out

    def solve_result(self, state: BridgeState, score: float) -> dict[str, Any]:
        """The declarer's tricks: those already won and those the solved ``score`` (the
        side to move's tricks from here) leaves it."""
        dd, view = self.view(state)
        left = (sum(h.bit_count() for h in state.hands) + len(state.trick)) // 4
        mine = int(score) if dd.to_move(view) == 0 else left - int(score)
        return {"tricks": state.declarer_tricks + mine, "strain": STRAINS[state.strain],
                "declarer": SEATS[state.declarer]}

    def equivalents(self, state: BridgeState, card: int) -> list[int]:
        """The cards of the run ``card`` heads in its hand (the view merged them)."""
        seat = self.seat_to_play(state)
        hand = state.hands[seat]
        live = state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
        for c in state.trick:
            live |= 1 << c
        out = [card]
        c = card - 1
        while c >= 13 * (card // 13):
            if hand >> c & 1:
                out.append(c)
            elif live >> c & 1:
                break
            c -= 1
        return out

    def view(self, state: BridgeState) -> tuple[DoubleDummy, Any]:
        dd = self.dd_view(state.strain, state.declarer)
        return dd, (*state.hands, state.leader, state.trick, 0, 0)

    def side(self, state: BridgeState, seat: int) -> int:
        return (seat - state.declarer) & 1

    def match_hooks(self) -> MatchHooks:
        """The seats a person does not take get PIMC, each world solved double dummy
        (``time`` bounds the sampling; one world's solve of a full deal may take longer:
        see docs/results/bridge.md); returns are duplicate points; North-South and
        East-West are partnerships, a duplicate board is a deal (chance's, drawn from the
        board's seed) and scores by IMPs."""
        return MatchHooks(default_opponent="pimc:worlds=10,time=2", points=True,
                          teams=((0, 2), (1, 3)), board_points=imps, team_names=PARTNERSHIPS,
                          table_outcome=self.contract_result)

    def observation(self) -> Observation[BridgeState, int]:
        """What a seat sees (:class:`BridgeView`), and worlds sampled from it."""
        return _BridgeObservation(self)

    def observe(self, state: BridgeState, seat: int | None) -> BridgeView:
        """What ``seat`` sees of ``state`` (``None``: a spectator, the public part)."""
        dummy = (state.declarer + 2) % 4
        dealing = state.level == DEALING
        lead_made = bool(state.played) and not dealing
        seen = tuple((seat is not None and s == seat)
                     or (lead_made and s == dummy)
                     or (lead_made and seat == dummy and s == state.declarer)
                     for s in range(4))
        return BridgeView(
            seat, tuple(state.hands[s] if seen[s] else 0 for s in range(4)),  # type: ignore[arg-type]
            seen, tuple(h.bit_count() for h in state.hands),  # type: ignore[arg-type]
            state.trick, state.leader, state.declarer_tricks, state.defender_tricks,
            () if dealing else state.played, state.first_leader, state.strain, state.level,
            state.declarer)

    def revealed_voids(self, view: BridgeView) -> tuple[int, int, int, int]:
        """Per seat, the mask of suits (bit s) it showed out of by not following."""
        voids = [0, 0, 0, 0]
        leader = view.first_leader
        trick: list[int] = []
        for c in view.played:
            seat = (leader + len(trick)) % 4
            if trick and c // 13 != trick[0] // 13:
                voids[seat] |= 1 << (trick[0] // 13)
            trick.append(c)
            if len(trick) == 4:
                leader = trick_winner(trick, leader, view.strain)
                trick = []
        return voids[0], voids[1], voids[2], voids[3]

    def sampler(self, view: BridgeView) -> tuple[DealSampler, list[int]]:
        """The deal sampler of ``view`` (built once per view: it counts the consistent
        deals) and the unseen seats it deals to."""
        unseen = [s for s in range(4) if not view.seen[s]]
        known = 0
        for s in range(4):
            known |= view.hands[s]
        for c in view.played:
            known |= 1 << c
        free = cards_of(((1 << 52) - 1) & ~known)
        voids = self.revealed_voids(view)
        try:
            deals = DealSampler(BRIDGE_DECK, free, [view.counts[s] for s in unseen],
                                [{x for x in range(4) if voids[s] >> x & 1} for s in unseen])
        except NoConsistentDealError as e:
            raise InvalidPositionError(f"bridge: no deal is consistent with this view ({e})"
                                       ) from None
        return deals, unseen

    def sample(self, view: BridgeView, rng: random.Random,
               sampler: tuple[DealSampler, list[int]] | DealSampler | None = None
               ) -> BridgeState:
        """A full state consistent with ``view``: the unseen cards dealt to the unseen
        hands, each to its count, no card to a seat in a suit it showed out of, exactly
        uniformly over the consistent deals (:class:`~gamesearch.games.cards.DealSampler`).
        ``sampler``: what :meth:`sampler` built, or its deal sampler alone (as PIMC and
        ISMCTS pass it, Oh Hell's convention)."""
        if isinstance(sampler, DealSampler):
            deals, unseen = sampler, [s for s in range(4) if not view.seen[s]]
        else:
            deals, unseen = sampler or self.sampler(view)
        hands = list(view.hands)
        for seat, cards in zip(unseen, deals.sample(rng), strict=True):
            for c in cards:
                hands[seat] |= 1 << c
        return BridgeState((hands[0], hands[1], hands[2], hands[3]), view.trick,
                           view.leader, view.declarer_tricks, view.defender_tricks,
                           view.played, view.first_leader, view.strain, view.level,
                           view.declarer)

    def view_actions(self, view: BridgeView) -> list[int]:
        if view.level == DEALING:
            return []
        seat = (view.leader + len(view.trick)) % 4
        if not view.seen[seat]:
            who = "a spectator" if view.seat is None else SEAT_NAMES[view.seat]
            raise IllegalMoveError("?", None, f"{SEAT_NAMES[seat]}'s cards are not seen by "
                                   f"{who}")
        mask = legal_cards(view.hands[seat], view.trick)
        return sorted(cards_of(mask), key=lambda c: (c // 13, -c))

    def drawing(self) -> Drawing[BridgeState]:
        """The table as SVG (:mod:`.svg`): four hands around the trick."""
        from .svg import render_svg

        return Drawing(lambda state, **options: render_svg(self, state, **options))

    # ----- notation --------------------------------------------------------------------
    def format_action(self, state: BridgeState, action: int) -> str:
        return card_name(action)

    def parse_action(self, state: BridgeState, text: str) -> int:
        card = parse_card(text)
        self.check_card(state, card, text)
        return card

    def split_position_line(self, line: str) -> tuple[str, str]:
        words = line.split()
        n = 5 if words and _CONTRACT.match(words[0]) else 4
        while n < len(words) and _is_card(words[n]):
            n += 1
        return " ".join(words[:n]), " ".join(words[n:])

    def parse_state(self, text: str) -> BridgeState:
        words = text.split()
        if words and words[0].lower() == "dealing":
            return self._parse_dealing(text, words[1:])
        contract = _CONTRACT.match(words[0]) if words else None
        if contract:
            words = words[1:]
        if len(words) < 4:
            raise InvalidPositionError(
                f"bridge position {echo(text)}: expected a PBN deal, N: and four hands, like "
                "N:AKQ.T98.J5.5432 ... ... ..., then the cards played, if any (a contract "
                "and declarer first, like 4S/S, if the options do not give them)")
        hands = parse_deal(" ".join(words[:4]))
        played = [parse_card(w) for w in words[4:]]
        if contract:
            fixed = (int(contract.group(1)), parse_strain(contract.group(2)),
                     parse_seat(contract.group(3)))
            return self.position(hands, played, fixed)
        return self.position(hands, played)

    def _parse_dealing(self, text: str, words: list[str]) -> BridgeState:
        """``dealing dealt=SA,H7,...``: the deal in progress (:meth:`format_state`)."""
        key, _, cards = (words[0] if len(words) == 1 else "").partition("=")
        if key.lower() != "dealt" and words:
            raise InvalidPositionError(f"bridge position {echo(text)}: expected 'dealing' or "
                                       "'dealing dealt=SA,H7,...' (the cards in the order "
                                       "dealt, fewer than 52)")
        state = BEFORE_THE_DEAL
        names = [c for c in cards.split(",") if c] if words else []
        if len(names) >= 52:
            raise InvalidPositionError(f"bridge position {echo(text)}: a deal in progress "
                                       "has fewer than 52 cards dealt (give the deal as PBN)")
        for name in names:
            card = parse_card(name)
            self.check_card(state, card, name)
            state = self._deal_card(state, card)
        return state

    def original_hands(self, state: BridgeState) -> tuple[int, ...]:
        if state.level == DEALING:
            return state.hands
        hands = list(state.hands)
        leader = state.first_leader
        trick: list[int] = []
        for c in state.played:
            hands[(leader + len(trick)) % 4] |= 1 << c
            trick.append(c)
            if len(trick) == 4:
                leader = trick_winner(trick, leader, state.strain)
                trick = []
        return tuple(hands)

    def format_state(self, state: BridgeState) -> str:
        """``4S/S N:<deal> <cards played>``: the contract and declarer, the deal as dealt,
        then the cards played (what :meth:`parse_state` reads back); while dealing,
        ``dealing dealt=SA,H7,...``, the cards in the order dealt."""
        if state.level == DEALING:
            return "dealing" + (" dealt=" + ",".join(card_name(c) for c in state.played)
                                if state.played else "")
        deal = format_deal(self.original_hands(state))
        contract = f"{state.level}{STRAINS[state.strain]}/{SEATS[state.declarer]}"
        return " ".join([contract, deal, *(card_name(c) for c in state.played)])

    def contract_name(self, state: BridgeState) -> str:
        return f"{state.level}{STRAINS[state.strain].replace('N', 'NT')} by " \
               f"{SEAT_NAMES[state.declarer]}"

    def contract_result(self, state: BridgeState) -> TableOutcome:
        """A finished table as scorers write it (duplicate's ``MatchHooks.table_outcome``):
        the contract, the declarer's tricks with the overtricks (``+1``), the undertricks
        (``-1``) or ``=``, and the score to the side that earned it, ``3NT by South, 10
        tricks (+1), N-S +430`` or ``4S by West, 9 tricks (-1), N-S +50``; its facts are
        ``contract`` (``3NT``), ``declarer`` (``S``), ``tricks`` (the declarer's) and
        ``score``, the declaring side's duplicate score (negative when the contract
        fails), read from :meth:`returns`."""
        over = state.declarer_tricks - 6 - state.level
        score = int(self.returns(state)[state.declarer])
        earned = PARTNERSHIPS[(state.declarer + (score < 0)) % 2]
        return TableOutcome(
            f"{self.contract_name(state)}, {state.declarer_tricks} tricks "
            f"({'=' if over == 0 else f'{over:+d}'}), {earned} +{abs(score)}",
            {"contract": f"{state.level}{STRAINS[state.strain].replace('N', 'NT')}",
             "declarer": SEATS[state.declarer], "tricks": state.declarer_tricks,
             "score": score})

    def render(self, state: BridgeState) -> str:
        """The hand diagram: North on top, West and East beside, South below; the contract,
        the trick on the table and the tricks won."""
        def lines(seat: int) -> list[str]:
            h = state.hands[seat]
            out = []
            for s in range(4):
                ranks = "".join(RANKS[r] for r in range(12, -1, -1) if h >> (13 * s + r) & 1)
                out.append(f"{SUIT_SYMBOLS[s]} {ranks or '-'}")
            return out

        if state.level == DEALING:
            return f"the deal in progress: {len(state.played)} of 52 cards dealt"
        pad = " " * 14
        rows = [f"{pad}{SEATS[0]}"] + [pad + x for x in lines(0)]
        west, east = lines(3), lines(1)
        rows.append(f"{'W':<28}E")
        for w, e in zip(west, east, strict=True):
            rows.append(f"{w:<28}{e}")
        rows += [f"{pad}{SEATS[2]}"] + [pad + x for x in lines(2)]
        trick = " ".join(f"{SEATS[(state.leader + i) % 4]}:{card_name(c)}"
                         for i, c in enumerate(state.trick))
        rows.append(f"contract {self.contract_name(state)}, vul {self.vul}; "
                    f"tricks declarer {state.declarer_tricks}, defenders "
                    f"{state.defender_tricks}")
        if not self.is_terminal(state):
            rows.append(f"trick: {trick or '(none yet)'}; {SEAT_NAMES[self.seat_to_play(state)]}"
                        " to play")
        return "\n".join(rows)


#: one DDS call at a time in this process (the web app reads tournaments in threads)
_DDS_LOCK = threading.Lock()


def _dds_table(hands: tuple[int, ...]) -> list[list[int]] | None:
    """DDS's double-dummy table ``[strain][declarer]`` of a full deal (``endplay``), or
    ``None`` when endplay is not installed or the hands are not 13 cards each."""
    if any(h.bit_count() != 13 for h in hands):
        return None
    try:
        from endplay.dds import calc_dd_table
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None
    with _DDS_LOCK:  # (DDS is not safe to call from two threads at once: it crashes)
        table = calc_dd_table(Deal(format_deal(hands)))
    denoms = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt)
    players = (Player.north, Player.east, Player.south, Player.west)
    return [[int(table[denom, player]) for player in players] for denom in denoms]


def _stored_tables() -> dict[tuple[int, ...], list[list[int]]]:
    """The double-dummy tables kept with the package (``tables.json``: the default deal's,
    so that ``bridge`` starts at once), by hands."""
    if not _STORED:
        data = json.loads((Path(__file__).parent / "tables.json").read_text())
        for item in data["tables"]:
            t = item["table"]
            _STORED[parse_deal(item["pbn"])] = [list(t[s]) for s in STRAINS]
    return _STORED


_STORED: dict[tuple[int, ...], list[list[int]]] = {}

#: a position's optional contract and declarer, ``4S/S``, ``3NT/N``
_CONTRACT = re.compile(r"^([1-7])(NT|[SHDCN])/([NESW])$", re.IGNORECASE)


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except InvalidPositionError:
        return False
    return True


class _BridgeObservation:
    """:class:`~gamesearch.capabilities.Observation` of bridge (:meth:`Bridge.observe`)."""

    def __init__(self, game: Bridge) -> None:
        self.game = game
        #: the game of the sampled full states (every hand in view)
        self.world: Any = game

    def observe(self, state: BridgeState, seat: int | None) -> Hashable:
        return self.game.observe(state, seat)

    def public_game(self) -> Bridge:
        """The rules without a fixed ``deal=`` (the holder's), a new object."""
        g = self.game
        return Bridge(g.contract, g.strain, g.declarer, None, g.vul)

    def actions(self, observation: Hashable) -> Sequence[int]:
        assert isinstance(observation, BridgeView)
        return self.game.view_actions(observation)

    def sampler(self, observation: Hashable) -> tuple[Any, Any]:
        assert isinstance(observation, BridgeView)
        return self.game.sampler(observation)

    def sample(self, observation: Hashable, rng: random.Random,
               sampler: Any = None) -> BridgeState:
        assert isinstance(observation, BridgeView)
        return self.game.sample(observation, rng, sampler)

    def describe(self, observation: Hashable) -> str:
        assert isinstance(observation, BridgeView)
        v = observation
        who = "a spectator" if v.seat is None else SEAT_NAMES[v.seat]
        if v.level == DEALING:
            lines = [f"{who} sees (the deal in progress, {sum(v.counts)} of 52 cards dealt):"]
            if v.seat is not None:
                hand = BRIDGE_DECK.format_hand(cards_of(v.hands[v.seat]))
                lines.append(f"  {SEAT_NAMES[v.seat]}: {hand}")
            return "\n".join(lines)
        contract = (f"{v.level}{STRAINS[v.strain].replace('N', 'NT')} by "
                    f"{SEAT_NAMES[v.declarer]}")
        lines = [f"{who} sees ({contract}):"]
        for s in range(4):
            if v.seen[s]:
                hand = BRIDGE_DECK.format_hand(cards_of(v.hands[s]))
                lines.append(f"  {SEAT_NAMES[s]}: {hand}")
        lines.append(f"  trick: {' '.join(card_name(c) for c in v.trick) or '-'}; tricks "
                     f"declarer {v.declarer_tricks}, defenders {v.defender_tricks}")
        return "\n".join(lines)


__all__ = [
    "SUITS",
    "Bridge",
    "BridgeState",
    "BridgeView",
    "contract_score",
    "deal_from_seed",
    "par_rule",
]
