"""A slow, plain-Python reference for Spades, used to check the engine's output.

Nothing here imports the simulator's kernels or its random-number code: the
deal, the legality of every bid and card, the trick winners, the scores and
the end of each game are all worked out again from ``RULES.md`` Part 1 with
ordinary Python ints, sets and lists. Clarity matters more than speed.

Entry points
------------
``score_hand(rules, bids, blind, tricks, bags_before=None)``
    -> ``((score_0, score_1), (bags_0, bags_1))``: one hand's points per team
    (bag penalties included) and the running bags after it; in cutthroat
    (``partnerships`` false) four of each, one per player.
``game_end(rules, total_0, total_1)`` (cutthroat: four totals)
    -> ``(ended, winner, end)`` with end 'target', 'mercy' or '' (not ended).
``replay(rules, seed, mode, hand_limit, hands, games, count=None)``
    re-derives every row of an engine run and raises ``ReplayError`` (an
    ``AssertionError``) naming the game, hand and field at the first
    disagreement. Returns a ``Counter`` of what the run exercised (Nil bids,
    sets, bag penalties, ...), so a test can check it did not pass vacuously.

``rules`` is any object with the flags as attributes: a ``SpadesRules``, or a
run manifest's ``rules`` dict as a namespace (one written before the
``breaking`` flag existed lacks it: that means ``breaking=true``).

Card ids (as ``simulator/cards.py``): ``suit * 13 + rank``, suits clubs,
diamonds, hearts, spades = 0..3, rank 0 = '2' ... 12 = 'A'; little joker 52
and big joker 53 are spades above the ace. Teams: seats 0+2 = team 0, seats
1+3 = team 1; in cutthroat (``partnerships`` false, a manifest without the flag has partnerships) each
seat is a side of its own, and every per-side value (score, bags, total, winner) is per seat. Three players
(``seats`` 3, preset cutthroat3; a manifest without the field has four): seats 0..2, one card out of the
deck (``three_removes``), 17 cards and 17 tricks a hand, bids up to 17, the rotation modulo 3. Two
players (``seats`` 2, preset twohanded): no deal; the shuffled deck is the stock, and the row's draw record ``drawn``
(bit i: the drawer of turn i kept the top card shown) gives both hands and both players' discards (``draw_hands``);
13 tricks, the rotation modulo 2.
"""
from __future__ import annotations

from collections import Counter, defaultdict

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
TWO_OF_CLUBS = 0
LITTLE_JOKER, BIG_JOKER = 52, 53
SUIT_LETTERS = "CDHS"
RANK_LETTERS = "23456789TJQKA"


class ReplayError(AssertionError):
    """The engine's output disagrees with the reference."""


# ============================================================ cards
TWO_OF_DIAMONDS, TWO_OF_SPADES = 13, 39
#: each deck's spades from the lowest to the highest (docs/rules.md "Decks")
SPADES_LOW_TO_HIGH = {
    "standard": list(range(39, 52)),
    "joker_ace": list(range(39, 52)) + [LITTLE_JOKER, BIG_JOKER],
    "joker_deuce_ace": list(range(40, 52)) + [TWO_OF_SPADES, LITTLE_JOKER, BIG_JOKER],
    "joker_deuce_deuce": list(range(40, 52)) + [TWO_OF_DIAMONDS, TWO_OF_SPADES, LITTLE_JOKER, BIG_JOKER],
}


def n_seats(rules) -> int:
    """The players: 4, 3 (cutthroat3) or 2 (twohanded); a manifest from before the field has four."""
    return int(getattr(rules, "seats", 4))


def tricks_a_hand(rules) -> int:
    """Tricks (and cards) a hand: 13 with four players, 17 with three (51 cards: docs/rules.md), 13 with two (who
    discard 26 cards in the draw)."""
    return {4: 13, 3: 17, 2: 13}[n_seats(rules)]


def deck_of(rules) -> str:
    """The ``deck`` flag; ``jokers=true`` is ``joker_ace`` (a manifest from before the deck flag lacks it)."""
    deck = getattr(rules, "deck", "standard")
    return "joker_ace" if deck == "standard" and rules.jokers else deck


def suit_of(card: int, deck: str = "standard") -> int:
    if card >= 52:  # both jokers are spades
        return SPADES
    if card == TWO_OF_DIAMONDS and deck == "joker_deuce_deuce":
        return SPADES
    return card // 13


def name_of(card: int) -> str:
    if card == LITTLE_JOKER:
        return "LJ"
    if card == BIG_JOKER:
        return "BJ"
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def cards_in(mask: int) -> set[int]:
    """The set of card ids whose bit is set in ``mask``."""
    mask = int(mask)
    return {c for c in range(64) if (mask >> c) & 1}


def mask_from(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def show(cards) -> str:
    return " ".join(name_of(c) for c in sorted(cards))


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


# ============================================================ random numbers
# SplitMix64 written out again with Python ints, every step reduced mod 2**64.
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
STREAM_DEAL = 0


def mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, game_id: int, hand_no: int, stream: int) -> int:
    k = mix64(seed + GOLDEN)
    k = mix64(k ^ game_id)
    k = mix64(k ^ ((hand_no << 8) & MASK64) ^ stream)
    return k


class Stream:
    """One counter-based random stream."""

    def __init__(self, state: int):
        self.state = state

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n): the top 32 bits scaled by n."""
        x = self.next_u64() >> 32
        return (x * n) >> 32


# ============================================================ the deal
def deck_for(rules) -> list[int]:
    """The deck, ascending: 52 cards, or with jokers two 2s out and both jokers in."""
    deck = deck_of(rules)
    if deck == "standard":
        return _three_player_deck(rules, list(range(52)), deck)
    removed_by_choice = {
        "2h2d": {2 * 13 + 0, 1 * 13 + 0},  # 2♥ = 26, 2♦ = 13
        "2c2d": {0 * 13 + 0, 1 * 13 + 0},  # 2♣ = 0, 2♦ = 13
        "2c2h": {0 * 13 + 0, 2 * 13 + 0},  # 2♣ = 0, 2♥ = 26
    }
    choice = rules.joker_removes
    if choice == "auto":  # the 2♦ is a spade of joker_deuce_deuce: the 2♣ and 2♥ go
        choice = "2c2h" if deck == "joker_deuce_deuce" else "2h2d"
    removed = removed_by_choice[choice]
    if any(c in SPADES_LOW_TO_HIGH[deck] for c in removed):
        raise ReplayError(f"joker_removes={choice} removes a spade of deck={deck}")
    return _three_player_deck(rules, [c for c in range(52) if c not in removed] + [LITTLE_JOKER, BIG_JOKER], deck)


#: three_removes -> the card that leaves a three-player deck; auto: the first of these still in the deck, no spade
THIRD_CARDS = {"2c": 0, "2h": 26, "2d": 13, "3c": 1}


def _three_player_deck(rules, cards: list[int], deck: str) -> list[int]:
    """Four or two players: ``cards``. Three: less the card of ``three_removes`` (51 cards, 17 each)."""
    if n_seats(rules) != 3:
        return cards
    choice = getattr(rules, "three_removes", "auto")
    candidates = list(THIRD_CARDS.values()) if choice == "auto" else [THIRD_CARDS[choice]]
    for card in candidates:
        if card in cards and card not in SPADES_LOW_TO_HIGH[deck]:
            return [c for c in cards if c != card]
    raise ReplayError(f"three_removes={choice}: no such card in deck={deck} that is no spade")


def shuffle(rng: Stream, deck: list[int]) -> None:
    """Fisher-Yates in place, as simulator/rng.py ``shuffle``: two swap indices per 64-bit draw.

    For i = n-1, n-2, ..., 1: each draw x serves two steps; the first uses the
    top 32 bits of x, j = (hi(x) * (i + 1)) >> 32, the second the low 32 bits,
    j = (lo(x) * (i + 1)) >> 32 with the already decremented i. Swap deck[i], deck[j].
    """
    i = len(deck) - 1
    while i > 0:
        x = rng.next_u64()
        halves = [x >> 32, x & 0xFFFFFFFF]
        for half in halves:
            if i == 0:
                break
            j = (half * (i + 1)) >> 32
            deck[i], deck[j] = deck[j], deck[i]
            i -= 1


def deal(rules, seed: int, game_id: int, hand_no: int, dealer: int) -> list[set[int]]:
    """The hands (sets of card ids, one a player) of one deal: shuffle, then deal from the left of the dealer."""
    deck = deck_for(rules)
    rng = Stream(stream_key(seed, game_id, hand_no, STREAM_DEAL))
    shuffle(rng, deck)
    n = n_seats(rules)
    hands = [set() for _ in range(n)]
    for position, card in enumerate(deck):
        hands[(dealer + 1 + position) % n].add(card)
    return hands


def stock(rules, seed: int, game_id: int, hand_no: int) -> list[int]:
    """Two players: the stock, top card first: the deck shuffled exactly as for a deal."""
    deck = deck_for(rules)
    shuffle(Stream(stream_key(seed, game_id, hand_no, STREAM_DEAL)), deck)
    return deck


def draw_hands(rules, seed: int, game_id: int, hand_no: int, dealer: int, drawn: int):
    """Two players (docs/rules.md "Two-handed Spades"): (hands, discards), a set of cards each, from the stock and
    the draw record ``drawn``. Turn i (0..25) is the non-dealer's when i is even: the drawer looks at the next card
    of the stock and keeps it (bit i set; the card after it is looked at and discarded) or discards it (bit i clear;
    the card after it is kept). Refuses a record with any bit beyond the 26 turns."""
    cards = stock(rules, seed, game_id, hand_no)
    turns = len(cards) // 2
    if not 0 <= drawn < 1 << turns:
        raise ReplayError(f"draw record {drawn:#x} has bits beyond the {turns} turns of the draw")
    hands = [set(), set()]
    discards = [set(), set()]
    for i in range(turns):
        seat = (dealer + 1 + i) % 2
        top, second = cards[2 * i], cards[2 * i + 1]
        kept, thrown = (top, second) if (drawn >> i) & 1 else (second, top)
        hands[seat].add(kept)
        discards[seat].add(thrown)
    return hands, discards


# ============================================================ bidding
def bidding_order(dealer: int, n: int = 4) -> list[int]:
    """Seats in the order they bid: left of the dealer first, clockwise, of ``n`` players."""
    return [(dealer + 1 + i) % n for i in range(n)]


def blind_nil_eligible(rules, seat: int, totals_before) -> bool:
    if not rules.blind_nil:
        return False
    if rules.blind_nil_eligibility == "always":
        return True
    # 'trailing': the opponents lead this seat's team by at least blind_nil_deficit
    own = totals_before[team_of(seat)]
    opponents = totals_before[1 - team_of(seat)]
    return opponents - own >= rules.blind_nil_deficit


def bid_rule(rules) -> str:
    """The bidding variant (a manifest written before the flag existed lacks it: free)."""
    return getattr(rules, "bid_rule", "free")


def zero_is_nil(rules) -> bool:
    """True when a bid of 0 is Nil (zero_bid=nil, the default); False when it is an ordinary zero-trick bid."""
    return getattr(rules, "zero_bid", "nil") == "nil"


def bid_problem(rules, seat, bid, blind, bids_so_far, totals_before, hand=None):
    """Why this bid is illegal (a string), or None when it is legal.

    ``bids_so_far`` maps the seats that already bid to their bids; ``hand`` is the bidder's dealt cards
    (the Whiz and Mirror bids are counted from it).
    """
    partner = partner_of(seat)
    variant = bid_rule(rules)
    most = tricks_a_hand(rules)  # a bid names at most every trick of the hand
    if blind:
        if bid != 0:
            return f"a Blind Nil must be a bid of 0, got {bid}"
        if not rules.blind_nil:
            return "Blind Nil is not allowed (blind_nil=false)"
        if not blind_nil_eligible(rules, seat, totals_before):
            return (f"seat {seat} may not bid Blind Nil: eligibility={rules.blind_nil_eligibility}, "
                    f"totals before the hand {tuple(totals_before)}, deficit needed {rules.blind_nil_deficit}")
        if variant == "suicide" and bids_so_far.get(partner) == 0:
            return f"Suicide: partner (seat {partner}) bid Nil, so this seat may not"
        return None
    if variant in ("whiz", "mirror"):
        spades = sum(1 for c in hand if suit_of(c, deck_of(rules)) == SPADES)  # jokers are spades
        if bid == spades:
            return None
        if variant == "whiz" and bid == 0 and zero_is_nil(rules):
            return None
        allowed = f"{spades}" if variant == "mirror" or not zero_is_nil(rules) else f"Nil or {spades}"
        return f"{variant}: the hand holds {spades} spades, so the bid must be {allowed}, got {bid}"
    if variant == "suicide" and partner in bids_so_far:
        # the team's second bidder: exactly one of the two bids Nil
        if bids_so_far[partner] == 0 and bid == 0:
            return f"Suicide: partner (seat {partner}) bid Nil, so this seat may not"
        if bids_so_far[partner] != 0 and bid != 0:
            return f"Suicide: partner (seat {partner}) bid {bids_so_far[partner]}, so this seat must bid Nil"
    if not zero_is_nil(rules):
        # zero_bid=zero: 0 is an ordinary bid (allowed with nil=true), the team minimum applies to it
        lowest = 0 if rules.nil else 1
        if not lowest <= bid <= most:
            return f"a bid must be {lowest}..{most}, got {bid}"
        if rules.min_team_bid > 0 and partner in bids_so_far:
            lowest = max(lowest, rules.min_team_bid - bids_so_far[partner])
            if bid < lowest:
                return (f"min_team_bid={rules.min_team_bid}: partner (seat {partner}) bid {bids_so_far[partner]}, "
                        f"so this bid must be at least {lowest}, got {bid}")
        return None
    if bid == 0:
        if not rules.nil:
            return "Nil is not allowed (nil=false)"
        return None
    if not 1 <= bid <= most:
        return f"a bid must be Nil or 1..{most}, got {bid}"
    if rules.min_team_bid > 0 and partner in bids_so_far:
        # this seat is its team's second bidder
        partner_bid = bids_so_far[partner]
        if partner_bid != 0:  # a team with a Nil bidder is exempt
            lowest = max(1, rules.min_team_bid - partner_bid)
            if bid < lowest:
                return (f"min_team_bid={rules.min_team_bid}: partner (seat {partner}) bid {partner_bid}, "
                        f"so this bid must be at least {lowest}, got {bid}")
    return None


# ============================================================ play
def first_leader(rules, dealer: int, held: list[set[int]]) -> int:
    if rules.first_lead == "two_of_clubs":
        for seat in range(len(held)):
            if TWO_OF_CLUBS in held[seat]:
                return seat
        raise ReplayError("first_lead=two_of_clubs but nobody holds the 2♣")
    return (dealer + 1) % len(held)


def breaking(rules) -> bool:
    """The ``breaking`` flag: spades may not be led until broken. Rules from before the flag existed (a
    manifest's rules without the key, read as an object of attributes) mean true."""
    return bool(getattr(rules, "breaking", True))


def legal_cards(rules, hand: set[int], led_suit, spades_broken: bool, first_trick: bool) -> set[int]:
    """The cards of ``hand`` that may be played now (``led_suit`` None when leading)."""
    if led_suit is None:
        if first_trick and rules.first_lead == "two_of_clubs":
            return {TWO_OF_CLUBS} & hand
        if not breaking(rules):  # spades may be led at any time
            return set(hand)
        non_spades = {c for c in hand if suit_of(c, deck_of(rules)) != SPADES}
        if not spades_broken and non_spades:
            return non_spades
        return set(hand)
    following = {c for c in hand if suit_of(c, deck_of(rules)) == led_suit}
    if following:
        return following
    return set(hand)


def trick_winner(leader: int, cards: list[int], deck: str = "standard") -> int:
    """Seat winning a trick; ``cards[i]`` was played by seat ``(leader + i) % len(cards)`` (one card a player)."""
    led_suit = suit_of(cards[0], deck)
    spades = [c for c in cards if suit_of(c, deck) == SPADES]
    if spades:
        best = max(spades, key=SPADES_LOW_TO_HIGH[deck].index)  # the deck's order of the spades
    else:
        best = max(c for c in cards if suit_of(c, deck) == led_suit)  # ids grow with rank in a side suit
    return (leader + cards.index(best)) % len(cards)


# ============================================================ scoring
def score_team(rules, bids2, blind2, tricks2, bags_before: int):
    """One team's (points, running bags after) for a hand; ``*2`` are the two partners' values."""
    points, bags, _ = score_team_detail(rules, bids2, blind2, tricks2, bags_before)
    return points, bags


def score_team_detail(rules, bids2, blind2, tricks2, bags_before: int):
    """(points, running bags after, number of bag penalties) -- RULES.md 1.4, every flag."""
    contract = 0        # c: sum of the numeric bids
    contract_tricks = 0  # k: tricks of the non-Nil bidder(s)
    nil_tricks = 0      # n: tricks of the Nil bidder(s)
    nil_points = 0      # ±nil_value / ±blind_nil_value per Nil bidder
    for bid, blind, tricks in zip(bids2, blind2, tricks2):
        if bid == 0 and zero_is_nil(rules):
            nil_tricks += tricks
            value = rules.blind_nil_value if blind else rules.nil_value
            nil_points += value if tricks == 0 else -value
        else:
            contract += bid
            contract_tricks += tricks

    # ten for two hundred: a contract of big_bid_threshold or more is worth big_bid_value when made, and
    # when set loses 10 a trick bid (big_bid_set=tens) or big_bid_value (value)
    threshold = getattr(rules, "big_bid_threshold", 0)
    big = threshold > 0 and contract >= threshold
    made_value = rules.big_bid_value if big else 10 * contract
    set_value = rules.big_bid_value if big and rules.big_bid_set == "value" else 10 * contract

    if rules.nil_tricks == "contract":
        # Nil bidders' tricks count toward the contract like anyone's
        counted = contract_tricks + nil_tricks
        if counted >= contract:
            overtricks = counted - contract
            points = made_value + rules.bag_points * overtricks
            new_bags = overtricks
        else:
            points = -set_value
            new_bags = 0
    else:
        # 'bags': Nil bidders' tricks never help the contract; they are bags
        if contract_tricks >= contract:
            overtricks = contract_tricks - contract
            points = made_value + rules.bag_points * overtricks + rules.nil_trick_points * nil_tricks
            new_bags = overtricks + nil_tricks
        else:
            points = -set_value
            if rules.nil_bags_when_set:
                points += rules.nil_trick_points * nil_tricks
                new_bags = nil_tricks
            else:
                # not bags, so they score nothing either ("each bag +1")
                new_bags = 0

    points += nil_points

    bags = bags_before + new_bags
    penalties = 0
    if rules.bag_overflow == "carry":
        while bags >= rules.bag_limit:  # ten bags removed, the excess carries over
            points -= rules.bag_penalty
            bags -= rules.bag_limit
            penalties += 1
    else:  # 'reset': one penalty, bags back to 0
        if bags >= rules.bag_limit:
            points -= rules.bag_penalty
            bags = 0
            penalties += 1
    return points, bags, penalties


def sides_of(rules) -> list[tuple[int, ...]]:
    """The seats of each scoring side: the two teams, or in cutthroat each player alone."""
    if getattr(rules, "partnerships", True):
        return [(0, 2), (1, 3)]
    return [(s,) for s in range(n_seats(rules))]


def score_hand(rules, bids, blind, tricks, bags_before=None):
    """((score_0, score_1), (bags_0, bags_1)) for one hand (cutthroat: four of each); per-seat
    bids/blind/tricks. A player alone is scored as a team of one: its contract is its own bid."""
    scores = []
    bags_after = []
    sides = sides_of(rules)
    if bags_before is None:
        bags_before = (0,) * len(sides)
    for side, seats in enumerate(sides):
        points, bags = score_team(
            rules,
            [bids[s] for s in seats],
            [bool(blind[s]) for s in seats],
            [tricks[s] for s in seats],
            bags_before[side],
        )
        scores.append(points)
        bags_after.append(bags)
    return tuple(scores), tuple(bags_after)


def game_end(rules, *totals: int):
    """(ended, winner, end) after a hand; end is 'target', 'mercy' or ''. Two totals: the teams'; four: the
    players' in cutthroat."""
    if len(totals) != 2 or not getattr(rules, "partnerships", True):
        return _game_end_alone(rules, totals)
    total0, total1 = totals

    def by_target():
        if max(total0, total1) >= rules.target and total0 != total1:
            return True, (0 if total0 > total1 else 1), "target"
        return None

    def by_mercy():
        if rules.mercy is None:
            return None
        low0 = total0 <= rules.mercy
        low1 = total1 <= rules.mercy
        if low0 and low1:
            if total0 == total1:
                return None  # equal: play on
            return True, (0 if total0 > total1 else 1), "mercy"
        if low0:
            return True, 1, "mercy"
        if low1:
            return True, 0, "mercy"
        return None

    checks = (by_target, by_mercy) if rules.mercy_check == "after_target" else (by_mercy, by_target)
    for check in checks:
        result = check()
        if result is not None:
            return result
    return False, -1, ""


def sole_leader(totals) -> int:
    """The seat whose total is higher than every other, or -1 when the highest is shared."""
    best = max(totals)
    leaders = [k for k, t in enumerate(totals) if t == best]
    return leaders[0] if len(leaders) == 1 else -1


def _game_end_alone(rules, totals):
    """Cutthroat (docs/rules.md "Cutthroat"): once a player reaches the target, or (mercy) falls to it or below,
    the game ends if one player alone leads, and that player wins; a tie for the lead plays on."""
    def by_target():
        if max(totals) >= rules.target and sole_leader(totals) >= 0:
            return True, sole_leader(totals), "target"
        return None

    def by_mercy():
        if rules.mercy is not None and min(totals) <= rules.mercy and sole_leader(totals) >= 0:
            return True, sole_leader(totals), "mercy"
        return None

    checks = (by_target, by_mercy) if rules.mercy_check == "after_target" else (by_mercy, by_target)
    for check in checks:
        result = check()
        if result is not None:
            return result
    return False, -1, ""


# ============================================================ replay
def _rows(table) -> list[dict]:
    if table is None:
        return []
    if isinstance(table, list):
        return table
    return table.to_pylist()


def replay(rules, seed, mode, hand_limit, hands, games=None, count=None) -> Counter:
    """Check every row of a run (see the module docstring). Returns what was exercised."""
    rows = _rows(hands)
    stats = Counter()
    if mode == "hands":
        if games is not None:
            raise ReplayError(f"mode=hands must give no games table, got {games!r}")
        ids = sorted(r["game_id"] for r in rows)
        if ids != list(range(len(rows))):
            raise ReplayError(f"mode=hands: game_id must be 0..{len(rows) - 1} once each")
        if count is not None and len(rows) != count:
            raise ReplayError(f"mode=hands: expected {count} hand rows, got {len(rows)}")
        for row in sorted(rows, key=lambda r: r["game_id"]):
            where = f"hand {row['game_id']} (hands mode)"
            _expect(where, "hand_no", row["hand_no"], 0)
            zeros = (0,) * len(sides_of(rules))
            replay_hand(rules, seed, row, row["game_id"] % n_seats(rules), zeros, zeros, stats, where)
            stats["hands"] += 1
        return stats

    if mode != "games":
        raise ReplayError(f"unknown mode {mode!r}")
    game_rows = _rows(games)
    by_game = defaultdict(list)
    for r in rows:
        by_game[r["game_id"]].append(r)
    game_ids = sorted(g["game_id"] for g in game_rows)
    if game_ids != list(range(len(game_rows))):
        raise ReplayError(f"games table: game_id must be 0..{len(game_rows) - 1} once each, got {game_ids[:10]}...")
    if count is not None and len(game_rows) != count:
        raise ReplayError(f"mode=games: expected {count} games, got {len(game_rows)}")
    if set(by_game) != set(game_ids):
        raise ReplayError(f"hands table games {sorted(set(by_game) - set(game_ids))[:5]} not in the games table, "
                          f"or games {sorted(set(game_ids) - set(by_game))[:5]} without hands")
    for game in sorted(game_rows, key=lambda g: g["game_id"]):
        g = game["game_id"]
        game_hands = sorted(by_game[g], key=lambda r: r["hand_no"])
        numbers = [r["hand_no"] for r in game_hands]
        if numbers != list(range(len(game_hands))):
            raise ReplayError(f"game {g}: hand_no must run 0..{len(game_hands) - 1}, got {numbers[:20]}")
        n_sides = len(sides_of(rules))
        totals = (0,) * n_sides
        bags = (0,) * n_sides
        outcome = None
        for row in game_hands:
            h = row["hand_no"]
            where = f"game {g} hand {h}"
            if outcome is not None:
                raise ReplayError(f"{where}: the game had already ended after hand {h - 1} ({outcome})")
            totals, bags = replay_hand(rules, seed, row, (g + h) % n_seats(rules), totals, bags, stats, where)
            stats["hands"] += 1
            ended, winner, end = game_end(rules, *totals)
            if ended:
                outcome = (winner, end)
            elif h + 1 == hand_limit:
                outcome = (sole_leader(totals), "limit")
            if not ended and max(totals) >= rules.target:
                stats["tie_at_target_continued"] += 1
        where = f"game {g} (games table)"
        if outcome is None:
            raise ReplayError(f"{where}: stops after {len(game_hands)} hands at totals {totals}, "
                              f"but the game has not ended (hand_limit={hand_limit})")
        _expect(where, "hands", game["hands"], len(game_hands))
        for side in range(n_sides):
            _expect(where, f"total_{side}", game[f"total_{side}"], totals[side])
        _expect(where, "winner", game["winner"], outcome[0])
        _expect(where, "end", game["end"], outcome[1])
        stats["games"] += 1
        stats["end_" + outcome[1]] += 1
        if outcome[1] == "limit" and outcome[0] == -1:
            stats["limit_tied"] += 1
    return stats


def _expect(where, field, got, expected):
    if got != expected:
        raise ReplayError(f"{where}: {field} = {got!r}, expected {expected!r}")


def replay_hand(rules, seed, row, dealer, totals_before, bags_before, stats, where):
    """Check one hand row; return (totals after, bags after)."""
    deck = deck_of(rules)
    n = n_seats(rules)
    _expect(where, "dealer", row["dealer"], dealer)
    for prefix in ("dealt", "held", "bid", "blind", "tricks", "strategy"):
        if f"{prefix}_{n}" in row:  # three players: no column of a fourth seat
            raise ReplayError(f"{where}: column {prefix}_{n} in a row of {n} players")

    # ---------------------------------------------------------------- deal (two players: the draw)
    if n == 2:
        if "drawn" not in row:
            raise ReplayError(f"{where}: a two-player row without its draw record (column drawn)")
        dealt, discards = draw_hands(rules, seed, row["game_id"], row["hand_no"], dealer, row["drawn"])
        stats["draw_turns"] += 26
        stats["draw_kept_top"] += row["drawn"].bit_count()
        stats["draw_spades_kept"] += sum(1 for h in dealt for c in h if suit_of(c, deck) == SPADES)
        stats["draw_spades_discarded"] += sum(1 for d in discards for c in d if suit_of(c, deck) == SPADES)
    else:
        if "drawn" in row:
            raise ReplayError(f"{where}: a draw record (column drawn) in a row of {n} players")
        dealt = deal(rules, seed, row["game_id"], row["hand_no"], dealer)
    for s in range(n):
        got = cards_in(row[f"dealt_{s}"])
        if got != dealt[s]:
            raise ReplayError(f"{where}: dealt_{s} = {show(got)}, expected {show(dealt[s])}")

    # ---------------------------------------------------------------- bidding
    bids = [row[f"bid_{s}"] for s in range(n)]
    blind = [bool(row[f"blind_{s}"]) for s in range(n)]
    bids_so_far = {}
    for seat in bidding_order(dealer, n):
        problem = bid_problem(rules, seat, bids[seat], blind[seat], bids_so_far, totals_before, dealt[seat])
        if problem:
            raise ReplayError(f"{where}: bid_{seat}={bids[seat]} blind_{seat}={blind[seat]} is illegal: {problem}")
        bids_so_far[seat] = bids[seat]
        if bid_rule(rules) != "free":
            stats[f"{bid_rule(rules)}_bids"] += 1
            if bids[seat] == sum(1 for c in dealt[seat] if suit_of(c, deck) == SPADES):
                stats["bids_of_spade_count"] += 1
        if bids[seat] == 0 and not zero_is_nil(rules):
            stats["zero_bids"] += 1
        elif bids[seat] == 0:
            stats["blind_nil_bids" if blind[seat] else "nil_bids"] += 1
            if blind[seat] and rules.blind_nil_eligibility == "trailing":
                stats["trailing_blind_nil_bids"] += 1
    for team in (0, 1) if n == 4 else ():  # min_team_bid needs partnerships (three players have none)
        a, b = team, team + 2
        if rules.min_team_bid > 0 and bids[a] != 0 and bids[b] != 0:
            stats["team_bids_checked_for_minimum"] += 1
            if bids[a] + bids[b] == rules.min_team_bid:
                stats["team_bids_at_minimum"] += 1

    # ---------------------------------------------------------------- blind nil exchange
    held = [cards_in(row[f"held_{s}"]) for s in range(n)]
    n_exchange = rules.blind_nil_exchange
    exchanging = set()
    for team in (0, 1) if n == 4 else ():
        a, b = team, team + 2
        if n_exchange > 0 and blind[a] != blind[b]:  # exactly one Blind Nil bidder
            exchanging |= {a, b}
            bidder, partner = (a, b) if blind[a] else (b, a)
            if held[bidder] | held[partner] != dealt[bidder] | dealt[partner] or held[bidder] & held[partner]:
                raise ReplayError(f"{where}: exchange between seats {bidder} and {partner} does not keep their cards: "
                                  f"dealt {show(dealt[bidder])} / {show(dealt[partner])}, "
                                  f"held {show(held[bidder])} / {show(held[partner])}")
            for s in (bidder, partner):
                if len(held[s]) != len(dealt[s]):
                    raise ReplayError(f"{where}: held_{s} has {len(held[s])} cards after the exchange, "
                                      f"expected {len(dealt[s])}")
            to_partner = dealt[bidder] & held[partner]
            to_bidder = dealt[partner] & held[bidder]
            if len(to_partner) > n_exchange or len(to_bidder) > n_exchange:
                raise ReplayError(f"{where}: blind_nil_exchange={n_exchange} but {len(to_bidder)} cards moved to the "
                                  f"Blind Nil bidder (seat {bidder}) and {len(to_partner)} back to seat {partner}")
            stats["exchanges"] += 1
            stats["cards_exchanged"] += len(to_bidder) + len(to_partner)
    for s in range(n):
        if s not in exchanging and held[s] != dealt[s]:
            raise ReplayError(f"{where}: held_{s} = {show(held[s])} differs from dealt_{s} = {show(dealt[s])} "
                              f"without a Blind Nil exchange")

    # ---------------------------------------------------------------- play
    plays = list(row["plays"])
    deck_size = len(deck_for(rules))
    played = n * tricks_a_hand(rules)  # the deck, less the 26 cards discarded in a two-player draw
    if len(plays) != played:
        raise ReplayError(f"{where}: plays has {len(plays)} cards, expected {played}")
    leader = first_leader(rules, dealer, held)
    _expect(where, "first_leader", row["first_leader"], leader)
    in_hand = [set(h) for h in held]
    tricks = [0] * n
    broken = False
    n_tricks = tricks_a_hand(rules)
    if n != 2 and deck_size != n * n_tricks:
        raise ReplayError(f"{where}: a deck of {deck_size} cards for {n} players, expected {n * tricks_a_hand(rules)}")
    for t in range(n_tricks):
        cards = plays[n * t: n * t + n]
        led_suit = None
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            legal = legal_cards(rules, in_hand[seat], led_suit, broken, first_trick=(t == 0))
            if card not in legal:
                if card not in in_hand[seat]:
                    why = f"seat {seat} does not hold it (holds {show(in_hand[seat])})"
                else:
                    why = f"legal were {show(legal)} (spades broken: {broken})"
                raise ReplayError(f"{where}: trick {t}, card {i} ({name_of(card)} by seat {seat}) is illegal: {why}")
            if led_suit is None:
                if suit_of(card, deck) == SPADES and not broken:
                    if all(suit_of(c, deck) == SPADES for c in in_hand[seat]):
                        # a forced spade lead: the leader holds nothing but spades
                        stats["forced_spade_leads"] += 1
                        if rules.forced_spade_lead_breaks:
                            broken = True
                    else:
                        # a spade led by choice before spades are broken: legal only with breaking=false
                        # (legal_cards saw to that); it breaks nothing
                        stats["spade_leads_before_broken"] += 1
                led_suit = suit_of(card, deck)
            elif suit_of(card, deck) == SPADES and led_suit != SPADES:
                # played a spade while void in the led suit (legal_cards saw to that)
                stats["trumps"] += 1
                broken = True
            in_hand[seat].discard(card)
            if card >= 52:
                stats["jokers_played"] += 1
            if card == TWO_OF_DIAMONDS and deck == "joker_deuce_deuce":
                stats["two_of_diamonds_as_spade"] += 1
        winner = trick_winner(leader, cards, deck)
        if deck != "standard" and suit_of(cards[(winner - leader) % n], deck) == SPADES:
            stats[f"tricks_won_by_{name_of(cards[(winner - leader) % n])}"] += 1
        tricks[winner] += 1
        leader = winner
    if rules.first_lead == "two_of_clubs":
        stats["two_of_clubs_leads"] += 1
    for s in range(n):
        _expect(where, f"tricks_{s}", row[f"tricks_{s}"], tricks[s])

    # ---------------------------------------------------------------- scores
    scores, bags_after = score_hand(rules, bids, blind, tricks, bags_before)
    sides = sides_of(rules)
    for side in range(len(sides)):
        _expect(where, f"score_{side}", row[f"score_{side}"], scores[side])
        _expect(where, f"bags_{side}", row[f"bags_{side}"], bags_after[side])
    totals_after = tuple(t + p for t, p in zip(totals_before, scores))
    for side in range(len(sides)):
        _expect(where, f"total_{side}", row[f"total_{side}"], totals_after[side])
    if len(sides) != 2:
        for side in ("score", "bags", "total"):  # a cutthroat row has a side a player, a partnership row no third
            if f"{side}_{len(sides)}" in row:
                raise ReplayError(f"{where}: column {side}_{len(sides)} in a row of {len(sides)} players")
    elif "score_2" in row:
        raise ReplayError(f"{where}: a partnership row with per-player column score_2")

    # what this hand exercised
    for team, seats in enumerate(sides):
        contract = sum(bids[s] for s in seats if bids[s] != 0)
        nil = [bids[s] == 0 and zero_is_nil(rules) for s in seats]
        if rules.nil_tricks == "contract":
            taken = sum(tricks[s] for s in seats)
        else:
            taken = sum(tricks[s] for s, n in zip(seats, nil) if not n)
        if taken < contract:
            stats["sets"] += 1
        threshold = getattr(rules, "big_bid_threshold", 0)
        if threshold > 0 and contract >= threshold:
            stats["big_bids_made" if taken >= contract else "big_bids_set"] += 1
        if bid_rule(rules) == "suicide" and sum(nil) == 1:
            stats["suicide_teams_one_nil"] += 1
        for s, n in zip(seats, nil):
            if n:
                kind = "blind_nil" if blind[s] else "nil"
                stats[f"{kind}_{'made' if tricks[s] == 0 else 'failed'}"] += 1
        if len(seats) == 2 and all(nil):
            stats["both_nil_teams"] += 1
        penalties = score_team_detail(rules, [bids[s] for s in seats], [blind[s] for s in seats],
                                      [tricks[s] for s in seats], bags_before[team])[2]
        if len(seats) == 1:
            stats["players_alone"] += 1
        stats["bag_penalties"] += penalties
        if penalties > 1:
            stats["multiple_penalty_hands"] += 1
    return totals_after, bags_after

