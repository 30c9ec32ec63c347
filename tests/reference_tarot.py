"""A slow, plain-Python reference for French Tarot (4 players; 3 and 5 players by the FFT: docs/rules.md), used to check the engine's output.

Nothing here imports the simulator: the legality of every bid, discard, poignée and card, the trick
winners, the card counting with the Excuse bookkeeping, the target, petit au bout, the slam and the
settlement are all worked out again from ``RULES.md`` Part 2 (and the engine's fixed choices stated
in its specification, e.g. which trumps a poignée shows) with ordinary Python ints, sets and lists.
Clarity matters more than speed.

Entry points
------------
``replay_deal(row, rules, stats=None)``
    checks one row of the deals table (a dict of Python values, columns as in the output contract;
    ``plays`` a list of 72 card ids (75 with five players), or None/absent when plays were not recorded) and raises
    ``ReferenceMismatch`` naming the column at the first disagreement.
``replay_table(table_or_rows, rules, count=None, plays_required=False)``
    replays every row (a pyarrow Table or a list of row dicts) and returns a ``Counter`` of what it
    saw (void deals, contracts, poignées, slams, the Excuse's special cases, forced overtrumps, ...)
    so a test can prove a run did not pass vacuously.

``rules`` is a dict of the flags (missing keys take their default; ``seats`` 3, 4 or 5) or any object with
those attributes (a ``TarotRules``). Five players: the call is checked from the rules text (``call_problem``),
the partner is the seat dealt the called card, and the side (taker and partner) counts as one.

Card ids (the output contract): a suit card is ``suit * 14 + rank`` (suits ♣ ♦ ♥ ♠ = 0..3; rank 0 =
ace .. 9 = ten, 10 jack, 11 knight, 12 queen, 13 king); trump ``n`` (1..21) is ``55 + n``, so the
Petit is 56 and the Monde 76; the Excuse is 77. A card set in the data is two int64 columns
``X_lo``/``X_hi``: bit ``c`` of ``lo | hi << 64`` (``lo`` signed). Card points are counted in
half-points: oudlers and kings 9, queens 7, knights 5, jacks 3, every other card 1 (182 in all).
Sides: the taker alone against the three defenders (three players: two; five players: the taker and the
holder of the card it called, its partner, against the three others; a card of the taker's own or in the chien:
the taker alone against four). Tricks are numbered 0..17 here (RULES.md's
"last trick" is trick 17, its "17 previous tricks" are tricks 0..16).

Field names in ``ReferenceMismatch``: the column's name; for a card set, the name of its ``_lo``
column (``dealt_lo_2``, ``chien_lo``, ``discard_lo``, ``poignee_lo_1``); ``plays`` for any card played.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

# ============================================================ cards
N_CARDS = 78
N_SUIT_CARDS = 56
PETIT, MONDE, EXCUSE = 56, 76, 77
OUDLERS = frozenset({PETIT, MONDE, EXCUSE})
JACK, KNIGHT, QUEEN, KING = 10, 11, 12, 13
TRUMP = 4  # the "suit" of the 21 trumps; the Excuse has no suit
SUIT_LETTERS = "♣♦♥♠"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R")
MASK64 = (1 << 64) - 1
ALL_CARDS = frozenset(range(N_CARDS))


def suit_card(suit: int, rank: int) -> int:
    """Id of a plain card: suit 0..3 (♣ ♦ ♥ ♠), rank 0 = ace .. 13 = king."""
    return suit * 14 + rank


def trump(n: int) -> int:
    """Id of trump number n (1 = Petit .. 21 = Monde)."""
    assert 1 <= n <= 21
    return 55 + n


def is_trump(card: int) -> bool:
    """One of the 21 numbered trumps (the Excuse is not a trump)."""
    return PETIT <= card <= MONDE


def is_plain(card: int) -> bool:
    return 0 <= card < N_SUIT_CARDS


def is_king(card: int) -> bool:
    return is_plain(card) and card % 14 == KING


def suit_of(card: int):
    """0..3 for a plain card, TRUMP for a trump, None for the Excuse."""
    if card == EXCUSE:
        return None
    return TRUMP if is_trump(card) else card // 14


def half_points(card: int) -> int:
    """RULES.md 2.1 in half-points: oudlers and kings 9, queens 7, knights 5, jacks 3, others 1."""
    if card in OUDLERS:
        return 9
    if is_trump(card):
        return 1
    return {KING: 9, QUEEN: 7, KNIGHT: 5, JACK: 3}.get(card % 14, 1)


def name_of(card: int) -> str:
    if card == EXCUSE:
        return "Excuse"
    if is_trump(card):
        return f"T{card - 55}"
    return RANK_NAMES[card % 14] + SUIT_LETTERS[card // 14]


def show(cards) -> str:
    return " ".join(name_of(c) for c in sorted(cards)) or "-"


def cards_in(lo, hi) -> set[int]:
    """The card ids of a data card set (lo may be negative: it is an int64)."""
    x = (int(lo) & MASK64) | (int(hi) & MASK64) << 64
    return {c for c in range(128) if x >> c & 1}


def mask_from(cards) -> tuple[int, int]:
    """The data's (lo, hi) of a set of card ids, lo as a signed int64."""
    x = 0
    for c in cards:
        x |= 1 << int(c)
    lo, hi = x & MASK64, x >> 64
    return (lo - (1 << 64) if lo >= 1 << 63 else lo), hi


# ============================================================ rule flags
DEFAULT_FLAGS = {
    "petit_sec_redeal": True,
    "discard_trumps": "exact",
    "poignee_hand": "before_first_card",
    "poignee_excuse": "all_trumps_shown",
    "poignee_four_kings": "taker_after_discard",
    "chelem_defenders_slam": "both",
    "excuse_last_trick": "either_side",
    "excuse_last_trick_side": "opposite_owner",
    "target_oudlers": "counted",
    "excuse_lead": "allowed",
    "call_own": "allowed",             # five players: the taker may call a card of its own hand (alone)
    "call_four_kings": "lower_rank",   # five players: holding the four kings, a queen (and so on); or also a king
}
FLAG_VALUES = {
    "petit_sec_redeal": (True, False),
    "discard_trumps": ("exact", "free"),
    "poignee_hand": ("before_first_card", "as_dealt"),
    "poignee_excuse": ("all_trumps_shown", "always"),
    "poignee_four_kings": ("taker_after_discard", "never"),
    "chelem_defenders_slam": ("both", "announcement_only"),
    "excuse_last_trick": ("either_side", "announced_only"),
    "excuse_last_trick_side": ("opposite_owner", "trick_winner"),
    "target_oudlers": ("counted", "held"),
    "excuse_lead": ("allowed", "forbidden"),
    "call_own": ("allowed", "forbidden"),
    "call_four_kings": ("lower_rank", "lower_rank_or_king"),
}


# the games-mode flags shape a game, not a deal (docs/rules.md, "Tarot games"): a deal's replay ignores them
SESSION_FLAGS = {"deals_per_game", "game_target", "game_floor", "void_deals_count"}


def flags_of(rules) -> dict:
    """The ten flags as a dict: from a (possibly partial) dict, or an object with the attributes."""
    if rules is None:
        rules = {}
    if isinstance(rules, dict):
        unknown = set(rules) - set(DEFAULT_FLAGS) - {"seats"} - SESSION_FLAGS
        if unknown:
            raise ValueError(f"unknown Tarot flags {sorted(unknown)}")
        flags = {**DEFAULT_FLAGS, **{k: v for k, v in rules.items() if k not in SESSION_FLAGS}}
        seats = flags.pop("seats", 4)
    else:
        flags = {key: getattr(rules, key, DEFAULT_FLAGS[key]) for key in DEFAULT_FLAGS}
        seats = getattr(rules, "seats", 4)
    for key, value in flags.items():
        if value not in FLAG_VALUES[key]:
            raise ValueError(f"flag {key}={value!r}: allowed {FLAG_VALUES[key]}")
    flags["petit_sec_redeal"] = bool(flags["petit_sec_redeal"])
    # the number of players (not a flag): 4 (RULES.md Part 2), or 3 (the FFT's game for three: docs/rules.md)
    flags["seats"] = seats
    if flags["seats"] not in HAND_SIZE_BY_SEATS:
        raise ValueError(f"seats={flags['seats']!r}: allowed {sorted(HAND_SIZE_BY_SEATS)}")
    return flags


# ============================================================ the game's constants (RULES.md 2.3, 2.5, 2.8)
PASS, PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = 0, 1, 2, 3, 4
MULTIPLIER = {PRISE: 1, GARDE: 2, GARDE_SANS: 4, GARDE_CONTRE: 6}
TARGET_BY_OUDLERS = {0: 56, 1: 51, 2: 41, 3: 36}
POIGNEE_SIZE = {1: 10, 2: 13, 3: 15}          # single, double, triple
POIGNEE_VALUE = {1: 20, 2: 30, 3: 40}
LEVEL_OF_SIZE = {size: level for level, size in POIGNEE_SIZE.items()}
SLAM_NONE, SLAM_TAKER, SLAM_DEFENCE = 0, 1, 2
VOID_PLAYED, VOID_ALL_PASS, VOID_PETIT_SEC = 0, 1, 2
HAND_SIZE, CHIEN_SIZE, N_TRICKS = 18, 6, 18  # four players
LAST = N_TRICKS - 1  # index of the last trick (four players)
# three players (FFT): 24 cards each, a chien of 6, poignées of 13 / 15 / 18 trumps (same values)
# five players (FFT): 15 cards each, a chien of 3, poignées of 8 / 10 / 13 trumps
HAND_SIZE_BY_SEATS = {3: 24, 4: 18, 5: 15}
CHIEN_SIZE_BY_SEATS = {3: 6, 4: 6, 5: 3}
POIGNEE_SIZE_BY_SEATS = {3: {1: 13, 2: 15, 3: 18}, 4: POIGNEE_SIZE, 5: {1: 8, 2: 10, 3: 13}}


class ReferenceMismatch(AssertionError):
    """The engine's output disagrees with the reference; ``field`` is the column at fault."""

    def __init__(self, field: str, message: str, deal_id=None):
        super().__init__(field, message)
        self.field = field
        self.message = message
        self.deal_id = deal_id

    def __str__(self) -> str:
        where = "" if self.deal_id is None else f"deal {self.deal_id}: "
        return f"{where}{self.field}: {self.message}"


def expect(field: str, got, expected, why: str = "") -> None:
    """Raise ReferenceMismatch(field) unless the column's value equals the reference's."""
    if got != expected:
        raise ReferenceMismatch(field, f"got {got!r}, expected {expected!r}" + (f" ({why})" if why else ""))


# ============================================================ deal, bidding, discard
def is_petit_sec(hand) -> bool:
    """RULES.md 2.2: the Petit is the hand's only trump and the hand has no Excuse."""
    trumps = {c for c in hand if is_trump(c)}
    return trumps == {PETIT} and EXCUSE not in hand


def bidding_order(dealer: int, seats: int = 4) -> list[int]:
    """RULES.md 2.2-2.3: the player to the right of the dealer, (dealer + 1) % seats, speaks first."""
    return [(dealer + 1 + k) % seats for k in range(seats)]


def bid_problem(bids, dealer: int, seats: int = 4):
    """(seat, why) for the first illegal bid, or None: each bid is 0 (pass) or a contract 1..4 strictly
    above the highest bid before it, in bidding order (RULES.md 2.3)."""
    highest = PASS
    for seat in bidding_order(dealer, seats):
        bid = bids[seat]
        if bid not in (PASS, PRISE, GARDE, GARDE_SANS, GARDE_CONTRE):
            return seat, f"a bid is 0 (pass) or 1..4, got {bid!r}"
        if bid != PASS:
            if bid <= highest:
                return seat, f"bid {bid} is not above the highest bid so far ({highest})"
            highest = bid
    return None


def call_problem(hand, called, call_own: str = "allowed", call_four_kings: str = "lower_rank"):
    """Why the five-player taker holding ``hand`` (its 15 cards, before the chien) may not call ``called`` (a
    string), or None (FFT rules for five, docs/rules.md). The taker calls a king; holding the four kings, a queen;
    the four kings and the four queens, a knight; and so on down the ranks. Under call_own=forbidden not a card of
    its own hand; under call_four_kings=lower_rank_or_king a taker called down to a lower rank may instead call one
    of its own kings (when call_own allows its own cards)."""
    if not (isinstance(called, int) and is_plain(called)):
        return f"a call is a suit card, got {called!r}"
    rank = KING
    while rank > 0 and all(suit_card(u, rank) in hand for u in range(4)):
        rank -= 1
    allowed = {suit_card(u, rank) for u in range(4)}
    if call_own == "forbidden":
        allowed -= set(hand)
    elif rank != KING and call_four_kings == "lower_rank_or_king":
        allowed |= {suit_card(u, KING) for u in range(4)}
    if called not in allowed:
        return f"{name_of(called)} is not among the calls allowed: {show(allowed)}"
    return None


def discard_problem(pool, discard, discard_trumps: str = "exact", size: int = CHIEN_SIZE):
    """Why a Prise/Garde discard is illegal (a string), or None (RULES.md 2.4 and 2.9).

    ``pool``: the taker's 24 cards (dealt hand + chien). Six cards of the pool; never a king or an
    oudler. Under ``exact``, with ``n`` plain non-king cards in the pool: if n >= 6 the six are such
    cards; otherwise all n of them plus exactly 6 - n trumps. Under ``free`` any such six cards.
    """
    pool, discard = set(pool), set(discard)
    if len(discard) != size:
        return f"a discard is {size} cards, got {len(discard)} ({show(discard)})"
    if not discard <= pool:
        return f"{show(discard - pool)} not among the taker's hand + chien"
    forbidden = {c for c in discard if is_king(c) or c in OUDLERS}
    if forbidden:
        return f"kings and oudlers may never be discarded: {show(forbidden)}"
    if discard_trumps == "free":
        return None
    plain_ok = {c for c in pool if is_plain(c) and not is_king(c)}
    trumps = {c for c in discard if is_trump(c)}
    if len(plain_ok) >= size:
        if trumps:
            return (f"discard_trumps=exact: {len(plain_ok)} discardable plain cards, so no trump may be discarded "
                    f"(discarded {show(trumps)})")
        return None
    if not plain_ok <= discard:
        return (f"discard_trumps=exact: only {len(plain_ok)} discardable plain cards, all must be discarded; "
                f"missing {show(plain_ok - discard)}")
    return None  # six cards, all the plain ones, the rest non-oudler trumps: exactly 6 - n trumps


# ============================================================ poignée
def poignee_problem(shown, base_trumps, holds_excuse: bool, poignee_excuse: str = "all_trumps_shown",
                    exception_trumps=None, seats: int = 4):
    """Why showing the cards ``shown`` is not a legal poignée (None when it is), RULES.md 2.5, 2.8, 2.9.

    The player chooses which cards to show (2.8): exactly 10, 13 or 15 cards, all trumps of ``base_trumps`` (the
    hand the poignée is judged on), or the Excuse in place of one trump when the hand judged holds it
    (``holds_excuse``) and -- under poignee_excuse=all_trumps_shown -- every trump of that hand is shown
    (poignee_excuse=always: any N - 1 of them). The four-kings exception, for a triple only:
    ``exception_trumps`` (the base trumps + the discarded trumps, given only when the exception is open to this
    seat) may supply the 15 trumps, never with the Excuse. Three players: 13, 15 or 18 cards (the triple 18).
    """
    shown = set(shown)
    sizes = POIGNEE_SIZE_BY_SEATS[seats]
    if len(shown) not in sizes.values():
        return f"a poignée is {sizes[1]}, {sizes[2]} or {sizes[3]} cards, got {len(shown)}"
    base = set(base_trumps)
    shown_trumps = shown - {EXCUSE}
    if EXCUSE in shown:
        if not holds_excuse:
            return "the Excuse shown is not in the hand judged"
        if not shown_trumps <= base:
            return f"{show(shown_trumps - base)} not in the hand judged (no discarded trump with the Excuse)"
        if poignee_excuse == "all_trumps_shown" and shown_trumps != base:
            return f"the Excuse stands in only when every trump is shown; {show(base - shown_trumps)} hidden"
        return None
    if shown_trumps <= base:
        return None
    if len(shown) == sizes[3] and exception_trumps is not None and shown_trumps <= set(exception_trumps):
        return None
    return f"{show(shown_trumps - base)} not in the hand judged"


def poignee_possible(level: int, base_trumps, holds_excuse: bool, poignee_excuse: str = "all_trumps_shown",
                     exception_trumps=None, seats: int = 4) -> bool:
    """Some set of cards makes a legal poignée of ``level`` (1..3) (``poignee_problem``)."""
    size = POIGNEE_SIZE_BY_SEATS[seats][level]
    triple = POIGNEE_SIZE_BY_SEATS[seats][3]
    base = sorted(base_trumps)
    if len(base) >= size:
        return True
    if holds_excuse and len(base) == size - 1:
        return True
    return size == triple and exception_trumps is not None and len(set(exception_trumps)) >= triple


def suit_to_follow(trick):
    """The suit of the first card of the trick that is not the Excuse (None if there is none yet)."""
    for card in trick:
        if card != EXCUSE:
            return suit_of(card)
    return None


def legal_cards(hand, trick, excuse_lead: str = "allowed") -> set[int]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards already in it, in order). RULES.md 2.6:

    - leading: any card; under excuse_lead=forbidden not the Excuse unless it is the last card held;
    - only the Excuse played so far: as if leading, any card (the next card sets the suit);
    - plain suit to follow: a card of that suit if held; else a trump if held; else any card;
    - trump to follow: a trump if held, else any card;
    - playing a trump: above the highest trump in the trick if the hand has one, else any trump;
    - the Excuse may always be played when following.
    """
    hand = set(hand)
    if not trick:
        if excuse_lead == "forbidden" and EXCUSE in hand and len(hand) > 1:
            return hand - {EXCUSE}
        return hand
    led = suit_to_follow(trick)
    if led is None:
        return hand
    excuse = hand & {EXCUSE}
    if led != TRUMP:
        same_suit = {c for c in hand if suit_of(c) == led}
        if same_suit:
            return same_suit | excuse
    trumps = {c for c in hand if is_trump(c)}
    if not trumps:
        return hand
    in_trick = [c for c in trick if is_trump(c)]
    if in_trick:
        higher = {c for c in trumps if c > max(in_trick)}
        if higher:
            return higher | excuse
    return trumps | excuse


def trick_winner(cards) -> int:
    """Index (0..3, in play order) of the card winning a trick, RULES.md 2.6: the highest trump; if none, the
    highest card of the suit to follow. The Excuse never wins (its last-trick exception is not judged here)."""
    trumps = [c for c in cards if is_trump(c)]
    if trumps:
        return cards.index(max(trumps))
    led = suit_to_follow(cards)
    return cards.index(max(c for c in cards if suit_of(c) == led))


@dataclass
class PlayResult:
    """What 18 tricks give (tricks numbered 0..17)."""

    winners: list           # seat winning each trick
    tricks: list            # the four cards of each trick, in play order
    taker_half: int         # half-points counted for the taker in tricks (the Excuse rule applied)
    defence_half: int       # the same for the defence
    excuse_exception: bool  # the last-trick Excuse exception applied
    excuse_to_taker: bool   # the Excuse (if played) is counted for the taker
    excuse_changed_side: bool = False  # an Excuse in the last trick went from its owner's side to the other


def excuse_exception_applies(excuse_last_trick: str, owner: int, taker: int, chelem: int, owner_side_won_all: bool,
                             partner=None):
    """RULES.md 2.7 + flag: the Excuse led to the last trick by a side that won tricks 0..16 wins it -- for
    either side, or (announced_only) only for the taker after announcing Chelem."""
    if not owner_side_won_all:
        return False
    if excuse_last_trick == "either_side":
        return True
    return chelem == 1 and owner in (taker, partner)  # five players: the taker's partner is on its side


def play_deal(held, first_leader: int, plays, taker: int, chelem: int, flags: dict, stats: Counter,
              partner=None) -> PlayResult:
    """Check every card of ``plays`` (72 ids, trick by trick from each leader) against the hands ``held`` at the
    first trick, find each trick's winner and count the card points by side with the Excuse rules of RULES.md 2.7.
    Raises ReferenceMismatch('plays') at the first card that is not legal. A trick is one card a seat
    (``flags["seats"]``), a deal one trick per card of a hand: 18 tricks of 4 cards, or 24 of 3."""
    n = flags["seats"]
    n_tricks = HAND_SIZE_BY_SEATS[n]
    last = n_tricks - 1
    if plays is None or len(plays) != n * n_tricks:
        raise ReferenceMismatch("plays", f"expected {n * n_tricks} cards, got {None if plays is None else len(plays)}")
    hands = [set(h) for h in held]
    leader = first_leader
    winners, tricks = [], []
    half = {"taker": 0, "defence": 0}
    excuse_exception = False
    excuse_to_taker = False

    def side(seat):  # five players: the partner is on the taker's side
        return "taker" if seat == taker or seat == partner else "defence"

    for t in range(n_tricks):
        cards = [int(c) for c in plays[n * t: n * t + n]]
        seats = [(leader + i) % n for i in range(n)]
        for i, (seat, card) in enumerate(zip(seats, cards)):
            legal = legal_cards(hands[seat], cards[:i], flags["excuse_lead"])
            if card not in legal:
                if card not in hands[seat]:
                    why = f"seat {seat} does not hold it (holds {show(hands[seat])})"
                else:
                    why = f"legal were {show(legal)} (hand {show(hands[seat])}, excuse_lead={flags['excuse_lead']})"
                raise ReferenceMismatch("plays", f"trick {t}, card {i} ({name_of(card)} by seat {seat}) is illegal: "
                                                 f"{why}")
            _count_play(stats, hands[seat], cards[:i], card)
            hands[seat].discard(card)
        winner = seats[trick_winner(cards)]
        if t == last and cards[0] == EXCUSE:
            owner = seats[0]
            won_all = all(side(w) == side(owner) for w in winners)
            stats["excuse_led_to_last_trick"] += 1
            if excuse_exception_applies(flags["excuse_last_trick"], owner, taker, chelem, won_all, partner):
                winner = owner
                excuse_exception = True
                stats["excuse_last_trick_exception"] += 1
            elif won_all:
                stats["excuse_last_trick_exception_refused"] += 1
        winners.append(winner)
        tricks.append(cards)
        seats_last = seats

        # card points (RULES.md 2.7): before the last trick the Excuse stays with its owner's side; if the other
        # side won the trick, the owner's side counts it as 8 and the winners the other three cards + 1. In the
        # last trick (outside the slam exception) the Excuse, 9 half-points, goes in full to the side opposite
        # its owner, whoever wins the trick (RULES.md 2.9; flag excuse_last_trick_side=trick_winner: to the
        # trick's winners, with the trick)
        points = sum(half_points(c) for c in cards)
        if EXCUSE in cards:
            owner = seats[cards.index(EXCUSE)]
            other = "defence" if side(owner) == "taker" else "taker"
            if t < last and side(owner) != side(winner):
                half[side(owner)] += 8
                half[side(winner)] += points - 9 + 1
                stats["excuse_compensation"] += 1
                excuse_side = side(owner)
            elif t < last or excuse_exception:
                half[side(winner)] += points
                excuse_side = side(owner)
            elif flags["excuse_last_trick_side"] == "opposite_owner":
                half[side(winner)] += points - 9
                half[other] += 9
                excuse_side = other
                if side(winner) == side(owner):
                    stats["excuse_last_trick_changes_side"] += 1
            else:
                half[side(winner)] += points
                excuse_side = side(winner)
            excuse_to_taker = excuse_side == "taker"
            if t == last:
                stats["excuse_in_last_trick"] += 1
        else:
            half[side(winner)] += points
        leader = winner
    changed = (EXCUSE in tricks[last] and not excuse_exception
               and excuse_to_taker != (side(seats_last[tricks[last].index(EXCUSE)]) == "taker"))
    return PlayResult(winners, tricks, half["taker"], half["defence"], excuse_exception, excuse_to_taker, changed)


def _count_play(stats: Counter, hand, trick, card) -> None:
    """Tally the situations a card exercised (for the coverage asserts)."""
    if not trick:
        if card == EXCUSE:
            stats["excuse_led"] += 1
            if len(hand) == 1:
                stats["excuse_led_as_last_card"] += 1
        return
    led = suit_to_follow(trick)
    if led is None:
        stats["played_after_excuse_lead"] += 1
        return
    if is_trump(card):
        if led != TRUMP:
            stats["trumped"] += 1
        in_trick = [c for c in trick if is_trump(c)]
        if in_trick:
            lower = {c for c in hand if is_trump(c) and c < max(in_trick)}
            if card > max(in_trick) and lower:
                stats["overtrump_forced"] += 1
            elif card < max(in_trick):
                stats["undertrump"] += 1
    elif card != EXCUSE and suit_of(card) != led:
        stats["discarded_off_suit"] += 1


# ============================================================ counting and settlement
def target_for(oudlers: int) -> int:
    """RULES.md 2.8: 0 oudlers -> 56, 1 -> 51, 2 -> 41, 3 -> 36."""
    return TARGET_BY_OUDLERS[oudlers]


def settle(contract: int, taker_points: float, target: int, petit_au_bout: int, poignee: int, chelem: int, slam: int,
           chelem_defenders_slam: str = "both") -> int:
    """The per-defender amount t, signed from the taker's side (RULES.md 2.8): each defender scores -t, the taker 3t.

    base (25 + |points - target|) x multiplier, won or lost by the taker (points may end in .5: compared with the
    target as they are, |points - target| rounded up to a whole point, RULES.md 2.9); petit au bout 10 x multiplier to the side
    that won it; every poignée to the side that won the contract, not multiplied; Chelem, not multiplied: announced
    and made +400, announced and failed -200 (and a further -200 when the defenders took every trick, unless
    chelem_defenders_slam=announcement_only); unannounced +200 to the side that took every trick.
    """
    mult = MULTIPLIER[contract]
    sign = 1 if taker_points >= target else -1
    t = sign * (25 + math.ceil(abs(taker_points - target))) * mult
    t += petit_au_bout * 10 * mult
    t += sign * poignee
    if chelem:
        if slam == SLAM_TAKER:
            t += 400
        else:
            t -= 200
            if slam == SLAM_DEFENCE and chelem_defenders_slam == "both":
                t -= 200
    elif slam == SLAM_TAKER:
        t += 200
    elif slam == SLAM_DEFENCE:
        t -= 200
    return t


def scores_for(taker: int, t: int, seats: int = 4, partner=None) -> list[int]:
    """Each defender scores -t, the taker (seats - 1) t: 3t against three defenders, 2t against two (the FFT's
    game for three), 4t alone against four (five players); five players with a partner: the taker 2t, the
    partner t, each of the three defenders -t. The scores sum to zero."""
    if partner is not None:
        return [2 * t if seat == taker else t if seat == partner else -t for seat in range(seats)]
    return [(seats - 1) * t if seat == taker else -t for seat in range(seats)]


# ============================================================ replay
def _set(row, prefix: str, suffix: str = "") -> set[int]:
    return cards_in(row[f"{prefix}_lo{suffix}"], row[f"{prefix}_hi{suffix}"])


def replay_deal(row: dict, rules, stats: Counter | None = None) -> None:
    """Check one row of the deals table; raise ReferenceMismatch naming the column at the first problem."""
    if stats is None:
        stats = Counter()
    try:
        _replay_deal(row, flags_of(rules), stats)
    except ReferenceMismatch as problem:
        problem.deal_id = row.get("deal_id")
        raise


def _replay_deal(row: dict, flags: dict, stats: Counter) -> None:
    deal_id = row["deal_id"]
    n = flags["seats"]
    dealer = deal_id % n
    expect("dealer", row["dealer"], dealer, f"dealer = deal_id % {n}")
    stats["deals"] += 1
    if f"score_{n}" in row:
        raise ReferenceMismatch(f"score_{n}", f"a column of seat {n} in a deal for {n} players")
    if (n == 5) != ("called" in row):
        raise ReferenceMismatch("called", f"the call's columns belong to five-player deals alone ({n} players)")

    # ------------------------------------------- the deal: 18 x 4 + 6 (or 24 x 3 + 6) = the 78 cards
    dealt = [_set(row, "dealt", f"_{s}") for s in range(n)]
    chien = _set(row, "chien")
    seen: set[int] = set()
    for field, cards, size in [(f"dealt_lo_{s}", dealt[s], HAND_SIZE_BY_SEATS[n]) for s in range(n)] + [
            ("chien_lo", chien, CHIEN_SIZE_BY_SEATS[n])]:
        if not cards <= ALL_CARDS:
            raise ReferenceMismatch(field, f"card ids beyond 77: {sorted(cards - ALL_CARDS)}")
        if len(cards) != size:
            raise ReferenceMismatch(field, f"{len(cards)} cards, expected {size}: {show(cards)}")
        if cards & seen:
            raise ReferenceMismatch(field, f"{show(cards & seen)} also dealt to an earlier hand")
        seen |= cards

    # ---------------------------------------------------------------- void deals and bidding (RULES.md 2.2-2.3)
    bids = [row[f"bid_{s}"] for s in range(n)]
    petit_sec = [s for s in range(n) if is_petit_sec(dealt[s])]
    if petit_sec and flags["petit_sec_redeal"]:
        expect("void", row["void"], VOID_PETIT_SEC, f"seat {petit_sec[0]} has the Petit sec")
        for s in range(n):
            expect(f"bid_{s}", bids[s], PASS, "no bidding on a Petit-sec deal")
        _expect_void(row, stats, "void_petit_sec", n)
        return
    if petit_sec:
        stats["petit_sec_played_on"] += 1
    problem = bid_problem(bids, dealer, n)
    if problem:
        seat, why = problem
        raise ReferenceMismatch(f"bid_{seat}", f"bid_{seat}={bids[seat]} is illegal: {why} (bids {bids})")
    contract = max(bids)
    if contract == PASS:
        expect("void", row["void"], VOID_ALL_PASS, "everyone passed")
        _expect_void(row, stats, "void_all_pass", n)
        return
    expect("void", row["void"], VOID_PLAYED, "someone bid and nobody has the Petit sec")
    taker = bids.index(contract)
    expect("taker", row["taker"], taker, "the highest bidder")
    expect("contract", row["contract"], contract, "the highest bid")
    stats["played"] += 1
    stats[f"contract_{contract}"] += 1

    # ---------------------------------------------------------------- five players: the call (before the chien)
    partner = None
    if n == 5:
        called = row["called"]
        problem = call_problem(dealt[taker], called, flags["call_own"], flags["call_four_kings"])
        if problem:
            raise ReferenceMismatch("called", f"{problem} (taker {taker} holds {show(dealt[taker])})")
        holder = [s for s in range(n) if called in dealt[s]]
        partner = holder[0] if holder and holder[0] != taker else None
        expect("partner", row["partner"], -1 if partner is None else partner,
               f"the holder of {name_of(called)}" if partner is not None else "the called card is the taker's own "
               "or in the chien: alone")
        stats["called_" + ("partner" if partner is not None else "own" if holder else "chien")] += 1
        if called % 14 != KING:
            stats["called_below_king"] += 1

    # ---------------------------------------------------------------- chien and discard (RULES.md 2.4)
    discard = _set(row, "discard")
    held = [set(h) for h in dealt]
    if contract in (PRISE, GARDE):
        problem = discard_problem(dealt[taker] | chien, discard, flags["discard_trumps"], CHIEN_SIZE_BY_SEATS[n])
        if problem:
            raise ReferenceMismatch("discard_lo", f"{problem} (hand {show(dealt[taker])}, chien {show(chien)})")
        held[taker] = (dealt[taker] | chien) - discard
        if any(is_trump(c) for c in discard):
            stats["trump_discard"] += 1
    elif discard:
        raise ReferenceMismatch("discard_lo", f"no discard under contract {contract}, got {show(discard)}")
    discarded_trumps = {c for c in discard if is_trump(c)}

    # ---------------------------------------------------------------- Chelem and the first leader (RULES.md 2.5)
    chelem = row["chelem"]
    if chelem not in (0, 1):
        raise ReferenceMismatch("chelem", f"0 or 1, got {chelem!r}")
    expect("first_leader", row["first_leader"], taker if chelem else (dealer + 1) % n,
           "the taker after announcing Chelem, else the player to the right of the dealer")
    if chelem:
        stats["chelem"] += 1

    # ---------------------------------------------------------------- poignées (RULES.md 2.5, 2.8, 2.9)
    poignee_total = 0
    level_of_size = {size: level for level, size in POIGNEE_SIZE_BY_SEATS[n].items()}
    for seat in range(n):
        shown = _set(row, "poignee", f"_{seat}")
        if not shown:
            continue
        field = f"poignee_lo_{seat}"
        if len(shown) not in level_of_size:
            sizes = POIGNEE_SIZE_BY_SEATS[n]
            raise ReferenceMismatch(field, f"a poignée is {sizes[1]}, {sizes[2]} or {sizes[3]} cards, "
                                           f"got {len(shown)}: {show(shown)}")
        level = level_of_size[len(shown)]
        base, holds_excuse, exception_trumps = poignee_basis(seat, taker, contract, dealt, held, discarded_trumps,
                                                             flags)
        if not poignee_possible(level, base, holds_excuse, flags["poignee_excuse"], exception_trumps, n):
            raise ReferenceMismatch(field, f"seat {seat} may not show a level-{level} poignée ({len(shown)} cards) "
                                           f"holding {show(held[seat])}; shown {show(shown)}")
        problem = poignee_problem(shown, base, holds_excuse, flags["poignee_excuse"], exception_trumps, n)
        if problem:
            raise ReferenceMismatch(field, f"level {level}: shown {show(shown)} is not a legal choice: {problem}")
        by_exception = not shown <= base | {EXCUSE}
        poignee_total += POIGNEE_VALUE[level]
        stats["poignee"] += 1
        stats[f"poignee_{level}"] += 1
        if EXCUSE in shown:
            stats["poignee_with_excuse"] += 1
        if by_exception:
            stats["poignee_four_kings"] += 1
        if not shown <= held[seat]:
            stats["poignee_not_held"] += 1  # as dealt, or discarded trumps under the four-kings exception
    expect("poignee", row["poignee"], poignee_total, "the value of every poignée shown")

    # ---------------------------------------------------------------- play, or what can be checked without it
    plays = row.get("plays")
    if plays is not None and len(plays) > 0:
        stats["with_plays"] += 1
        _check_played(row, flags, stats, taker, contract, chien, discard, held, chelem, plays, poignee_total, partner)
    else:
        if n == 5 and row["partner_revealed"] not in range(-1, 15):
            raise ReferenceMismatch("partner_revealed", f"-1 or a trick 0..14, got {row['partner_revealed']!r}")
        _check_without_plays(row, flags, stats, taker, contract, chien, held, chelem, poignee_total, partner)


def poignee_basis(seat, taker, contract, dealt, held, discarded_trumps, flags):
    """(the trumps a poignée by ``seat`` is judged on, that hand holds the Excuse, the four-kings exception's
    trumps or None), RULES.md 2.5, 2.9.

    The base trumps: those held just before the seat's first card (the taker's after the discard); under
    poignee_hand=as_dealt the taker of a Prise/Garde is judged on its 18 dealt cards instead. The Excuse
    counts when the hand judged holds it (under as_dealt: dealt to the taker, not found in the chien). The
    four-kings exception (poignee_four_kings=taker_after_discard): the taker of a Prise/Garde holding the four
    kings after the discard may count the discarded trumps in a triple.
    """
    after_discard = seat == taker and contract in (PRISE, GARDE)
    basis = dealt[seat] if after_discard and flags["poignee_hand"] == "as_dealt" else held[seat]
    base = {c for c in basis if is_trump(c)}
    exception_trumps = None
    if (after_discard and flags["poignee_four_kings"] == "taker_after_discard"
            and sum(is_king(c) for c in held[seat]) == 4):
        exception_trumps = base | discarded_trumps
    return base, EXCUSE in basis, exception_trumps


def _expect_void(row: dict, stats: Counter, kind: str, seats: int = 4) -> None:
    """RULES.md 2.2 / output contract: a void deal has no taker, no play and every derived column 0."""
    stats[kind] += 1
    expect("taker", row["taker"], -1, "void deal")
    expect("first_leader", row["first_leader"], -1, "void deal")
    for column in ("contract", "chelem", "taker_points", "oudlers", "target", "petit_au_bout", "poignee", "slam"):
        expect(column, row[column], 0, "void deal")
    expect("won", int(row["won"]), 0, "void deal")
    if seats == 5:
        for column in ("called", "partner", "partner_revealed"):
            expect(column, row[column], -1, "void deal: no call")
    for s in range(seats):
        expect(f"score_{s}", row[f"score_{s}"], 0, "void deal")
        if _set(row, "poignee", f"_{s}"):
            raise ReferenceMismatch(f"poignee_lo_{s}", "no poignée on a void deal")
    if _set(row, "discard"):
        raise ReferenceMismatch("discard_lo", "no discard on a void deal")
    plays = row.get("plays")
    if plays is not None and len(plays) > 0:
        raise ReferenceMismatch("plays", f"a void deal has no plays, got {len(plays)} cards")


def _check_played(row, flags, stats, taker, contract, chien, discard, held, chelem, plays, poignee_total,
                  partner=None):
    """Every card, every trick, then the counted points and the settlement worked out from the play."""
    result = play_deal(held, row["first_leader"], plays, taker, chelem, flags, stats, partner)
    camp = {taker} if partner is None else {taker, partner}
    if flags["seats"] == 5:
        called = row["called"]
        revealed = next((t for t, cards in enumerate(result.tricks) if called in cards), -1)
        expect("partner_revealed", row["partner_revealed"], revealed, f"the trick {name_of(called)} was played in")
        stats["partner_revealed" if revealed >= 0 else "called_never_played"] += 1

    # card points (RULES.md 2.8): the taker's tricks, plus the discard (Prise/Garde) or the chien (Garde sans)
    taker_half = result.taker_half
    defence_half = result.defence_half
    if contract in (PRISE, GARDE):
        taker_half += sum(half_points(c) for c in discard)
    elif contract == GARDE_SANS:
        taker_half += sum(half_points(c) for c in chien)
    else:
        defence_half += sum(half_points(c) for c in chien)
    assert taker_half + defence_half == 182, (taker_half, defence_half)  # the reference's own bookkeeping
    if taker_half % 2:
        # four players (RULES.md 2.8): a trick is four odd half-point values, so only an Excuse that changed sides
        # in the last trick leaves a half point; three players: a trick of three odd values is odd, so any total
        if flags["seats"] == 4:
            assert result.excuse_changed_side, taker_half
        stats["taker_points_half"] += 1
    points = taker_half // 2 if taker_half % 2 == 0 else taker_half / 2
    expect("taker_points", row["taker_points"], points, "the taker's card points")

    # oudlers setting the target (RULES.md 2.9, flag target_oudlers)
    if flags["target_oudlers"] == "held":
        oudlers = len(held[taker] & OUDLERS)
        why = "oudlers in the taker's hand at the first trick"
    else:
        counted = set()
        for t, cards in enumerate(result.tricks):
            if result.winners[t] in camp:
                counted |= {c for c in cards if c in (PETIT, MONDE)}
        if result.excuse_to_taker:
            counted.add(EXCUSE)
        if contract == GARDE_SANS:
            counted |= chien & OUDLERS
        oudlers = len(counted)
        why = f"oudlers counted for the taker: {show(counted)}"
    expect("oudlers", row["oudlers"], oudlers, why)
    target = target_for(oudlers)
    expect("target", row["target"], target)
    won = points >= target
    expect("won", int(row["won"]), int(won), f"{points} points against {target}")

    # petit au bout: the Petit in the last trick (trick 16 when the Excuse exception won the last)
    last = HAND_SIZE_BY_SEATS[flags["seats"]] - 1
    judged = last - 1 if result.excuse_exception else last
    petit_au_bout = 0
    if PETIT in result.tricks[judged]:
        petit_au_bout = 1 if result.winners[judged] in camp else -1
        stats["petit_au_bout"] += 1
        stats["petit_au_bout_" + ("taker" if petit_au_bout == 1 else "defence")] += 1
        if result.excuse_exception:
            stats["petit_au_bout_on_trick_16"] += 1
    expect("petit_au_bout", row["petit_au_bout"], petit_au_bout,
           f"Petit in trick {judged} ({show(result.tricks[judged])}) won by seat {result.winners[judged]}")

    taker_tricks = sum(w in camp for w in result.winners)
    slam = SLAM_TAKER if taker_tricks == last + 1 else SLAM_DEFENCE if taker_tricks == 0 else SLAM_NONE
    expect("slam", row["slam"], slam, f"the taker won {taker_tricks} tricks")
    if slam:
        stats["slam"] += 1
        stats["slam_taker" if slam == SLAM_TAKER else "slam_defence"] += 1
    if chelem and slam == SLAM_TAKER:
        stats["chelem_made"] += 1

    _check_scores(row, flags, stats, taker, contract, points, target, petit_au_bout, poignee_total, chelem,
                  slam, partner)


def _check_without_plays(row, flags, stats, taker, contract, chien, held, chelem, poignee_total, partner=None):
    """Without plays: the derived columns' ranges and consistency, and the settlement from the columns."""
    stats["without_plays"] += 1
    points = row["taker_points"]
    if not 0 <= points <= 91 or (2 * points) % 1:
        raise ReferenceMismatch("taker_points", f"{points} is outside 0..91 or not in half points")
    oudlers = row["oudlers"]
    if oudlers not in TARGET_BY_OUDLERS:
        raise ReferenceMismatch("oudlers", f"0..3, got {oudlers!r}")
    if flags["target_oudlers"] == "held":
        expect("oudlers", oudlers, len(held[taker] & OUDLERS), "oudlers in the taker's hand at the first trick")
    else:
        in_chien = len(chien & OUDLERS)
        if contract == GARDE_SANS and oudlers < in_chien:
            raise ReferenceMismatch("oudlers", f"{oudlers}, but the chien counted for the taker holds {in_chien}")
        if contract == GARDE_CONTRE and oudlers > 3 - in_chien:
            raise ReferenceMismatch("oudlers", f"{oudlers}, but the defenders' chien holds {in_chien}")
    target = target_for(oudlers)
    expect("target", row["target"], target)
    expect("won", int(row["won"]), int(points >= target), f"{points} points against {target}")
    petit_au_bout = row["petit_au_bout"]
    slam = row["slam"]
    if petit_au_bout not in (-1, 0, 1):
        raise ReferenceMismatch("petit_au_bout", f"-1, 0 or 1, got {petit_au_bout!r}")
    if slam not in (SLAM_NONE, SLAM_TAKER, SLAM_DEFENCE):
        raise ReferenceMismatch("slam", f"0, 1 or 2, got {slam!r}")
    if (slam == SLAM_TAKER and petit_au_bout == -1) or (slam == SLAM_DEFENCE and petit_au_bout == 1):
        raise ReferenceMismatch("petit_au_bout", f"{petit_au_bout} although one side took every trick (slam {slam})")
    if slam:
        stats["slam"] += 1
    if petit_au_bout:
        stats["petit_au_bout"] += 1
    _check_scores(row, flags, stats, taker, contract, points, target, petit_au_bout, poignee_total, chelem, slam,
                  partner)


def _check_scores(row, flags, stats, taker, contract, points, target, petit_au_bout, poignee_total, chelem, slam,
                  partner=None):
    t = settle(contract, points, target, petit_au_bout, poignee_total, chelem, slam, flags["chelem_defenders_slam"])
    n = flags["seats"]
    expected = scores_for(taker, t, n, partner)
    for s in range(n):
        expect(f"score_{s}", row[f"score_{s}"], expected[s],
               f"t = {t} (contract {contract}, {points} points against {target}, petit au bout {petit_au_bout}, "
               f"poignée {poignee_total}, chelem {chelem}, slam {slam}); the taker (seat {taker}) scores "
               f"{n - 1 if partner is None else 2}t" + ("" if partner is None else f", its partner (seat {partner}) t"))
    stats["won" if points >= target else "lost"] += 1


def _rows(table_or_rows) -> list[dict]:
    if isinstance(table_or_rows, list):
        return table_or_rows
    return table_or_rows.to_pylist()


def replay_table(table_or_rows, rules, count: int | None = None, plays_required: bool = False) -> Counter:
    """Replay every row of a deals table (see the module docstring); return what was exercised.

    ``count``: the deal ids must then be exactly 0..count-1. ``plays_required``: every played deal must carry
    its 72 plays (a run with --record-plays), so a missing ``plays`` cannot hide a wrong result.
    """
    flags = flags_of(rules)
    rows = _rows(table_or_rows)
    ids = [row["deal_id"] for row in rows]
    if len(set(ids)) != len(ids):
        raise ReferenceMismatch("deal_id", "a deal_id appears more than once")
    if count is not None and sorted(ids) != list(range(count)):
        raise ReferenceMismatch("deal_id", f"expected the deal ids 0..{count - 1}, got {len(ids)} rows")
    stats = Counter()
    for row in sorted(rows, key=lambda r: r["deal_id"]):
        replay_deal(row, flags, stats)
        if plays_required and row["void"] == VOID_PLAYED and not row.get("plays"):
            raise ReferenceMismatch("plays", "a played deal without its plays", row["deal_id"])
    return stats
