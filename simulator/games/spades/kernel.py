"""The Spades kernels: deal, bid, exchange, play, score and game end.

Everything here is ``@njit`` and works on bitmask hands (see ``cards.py``).
``simulate_block`` is the one entry point the engine calls (compiled per
policy kind through ``kernel_for``); it plays a list of games and writes one
row per hand into caller-owned column arrays. It is
serial and releases the GIL: the engine runs several calls at once on Python
threads, one per core (see engine.py for why not ``prange``). Each game draws
only from its own counter-based streams (``rng.py``), so the output does not
depend on thread count, shard size or machine. Seat s's policies get seat s's
own stream (``streams[s]``) and no other.

``score_hand`` and ``game_end`` are thin Python wrappers over the same
compiled scoring code, for tests and tools.
"""
from __future__ import annotations

import threading
import warnings
import zlib

import numpy as np
from numba import njit, typeof, types
from numba.core import config
from numba.core.errors import NumbaIRAssumptionWarning
from numba.extending import overload

from tricksim.simulator.bits import lowest_bit
from tricksim.simulator.borrow import alive_until_here, borrowed
from tricksim.simulator.compiling import announced
from tricksim.simulator.games.spades import phases
from tricksim.simulator.games.spades.decks import deck_cards
from tricksim.simulator.games.spades.phases import game_end_of
from tricksim.simulator.games.spades.policy import (
    BID_FN,
    BLIND_NIL_FN,
    EXCHANGE_FN,
    PLAY_FN,
    V_BID,
    V_BLIND,
    V_PASSED,
    V_SEAT,
    VIEW_SIZE,
)
from tricksim.simulator.games.spades.rules import KernelRules, SpadesRules
from tricksim.simulator.games.spades.scoring import (  # noqa: F401 (END_* are the kernel's output codes)
    END_LIMIT,
    END_MERCY,
    END_NAMES,
    END_NONE,
    END_OVERFLOW,
    END_TARGET,
)

# policy faults reported back to the engine (errors[0])
ERR_BID, ERR_EXCHANGE, ERR_PLAY, ERR_DRAW = 1, 2, 3, 4  # 0 = no fault


def deck_template(rules: SpadesRules) -> np.ndarray:
    """Card ids of the deck in ascending order (52 cards in every deck, 51 with three players: decks.py)."""
    return np.array(deck_cards(rules.deck, rules.removed_twos(), rules.three_removed()), dtype=np.int64)


# ---------------------------------------------------------------- policy calls
# How the kernel calls the seat policies (argument ``policy_kind``). PER_SEAT: each seat's own
# functions, through their function pointers, with its own parameter row. Any other kind: one
# strategy at every seat with one parameter row, compiled into a kernel of its own (its Blind Nil,
# bid and play inlined into the loops; docs/performance.md P4). A strategy of the package asks for
# this with ``compile_in``; the kernel names none of them. A kind is a hash of the strategy's module
# name, so it is the same in every process and the compile cache (keyed by the kind, and kept per
# hash of the package sources) never serves one strategy's kernel for another.
PER_SEAT = 0
_COMPILED_IN: dict[int, tuple] = {}  # kind -> (blind_nil, bid, play, inline_at_lead)
_KIND_NAMES: dict[int, str] = {}  # kind -> the strategy compiled in (its module's last name), for messages


def compile_in(module: str, blind_nil, bid, play, *, at_lead: bool = True) -> int:
    """Give the strategy of ``module`` (a module of ``tricksim.strategies``) a kernel of its own for
    self-play; returns its kind. ``at_lead=False`` calls its play at the lead instead of inlining it
    there too (a large play function compiled twice costs compile time: docs/performance.md P5)."""
    if not module.startswith("tricksim.strategies."):
        raise ValueError(f"only the package's own strategies are compiled in (their sources key the cache): {module}")
    kind = 1 + zlib.crc32(module.encode()) % (1 << 30)
    known = _COMPILED_IN.get(kind)
    if known is not None and known[:3] != (blind_nil, bid, play):
        raise ValueError(f"kernel kind {kind} of {module} is taken by another strategy")
    _COMPILED_IN[kind] = (blind_nil, bid, play, at_lead)
    _KIND_NAMES[kind] = module.rsplit(".", 1)[-1]
    return kind


def policy_kind_of(functions, same_params: bool) -> int:
    """The kind of policy call for seats playing ``functions`` (per seat: blind_nil, bid, exchange, play)."""
    if same_params and all(f == functions[0] for f in functions):
        blind_nil, bid, _, play = functions[0]
        for kind, compiled in _COMPILED_IN.items():
            if compiled[:3] == (blind_nil, bid, play):
                return kind
    return PER_SEAT


def _inlined(policy: int, lead: bool = False):
    """A stub ``call(kind, args)`` that compiles into the compiled-in strategy's function number
    ``policy`` (0 blind_nil, 1 bid, 2 play) called on ``args``, inlined (for ``lead``: unless the
    strategy asked for a call there)."""
    def call(kind, args):
        # plain Python (NUMBA_DISABLE_JIT): the same call, uninlined; compiled code uses the overload
        if kind == PER_SEAT:
            return np.int64(-1)  # not reached, as in the overload
        return _COMPILED_IN[kind][policy](*args)

    @overload(call, prefer_literal=True, inline="always")
    def compiled(kind, args):
        if not (isinstance(kind, types.IntegerLiteral) and kind.literal_value != PER_SEAT):
            return lambda kind, args: np.int64(-1)  # not reached: PER_SEAT calls each seat's function
        entry = _COMPILED_IN[kind.literal_value]
        fn = entry[policy]
        if entry[3] or not lead:
            fn = njit(inline="always")(fn.py_func)
        # the policies take 4, 5 or 6 arguments (policy.py); spelled out, as with *args the
        # literal typing failed and the fallback above was compiled instead
        if len(args) == 4:
            return lambda kind, args: fn(args[0], args[1], args[2], args[3])
        if len(args) == 5:
            return lambda kind, args: fn(args[0], args[1], args[2], args[3], args[4])
        return lambda kind, args: fn(args[0], args[1], args[2], args[3], args[4], args[5])

    return call


_blind_nil_inlined, _bid_inlined, _play_inlined = _inlined(0), _inlined(1), _inlined(2)
_lead_inlined = _inlined(2, lead=True)


# ------------------------------------------------------------------ one hand
@njit(cache=True)
def _exchange(rules, giver, receiver, role, hands, view, exch_fns, params, streams, passed):
    """One side of the Blind Nil exchange; returns False if the policy broke the rules. ``passed[giver]``
    keeps the cards given (the giver's ``view[V_PASSED]`` from then on)."""
    phases.start_exchange(rules, view, giver, role)
    view[V_PASSED] = passed[giver]
    cards = exch_fns[giver](np.int64(giver), hands[giver], view, params[giver], streams[giver])
    ok = phases.apply_exchange(rules, view, hands, giver, receiver, cards)
    if ok:
        passed[giver] |= cards
    return ok


@njit(cache=True)
def _draw(exch_fns, params, dealer, n_cards, deck, hands, view, streams, discards, error):
    """Two-handed Spades: the draw from the shuffled stock ``deck`` (``phases.shuffle_stock``), turn by turn, the
    non-dealer first; each turn the drawer's exchange policy is shown the top card (policy.EXCHANGE_DRAW) and keeps
    it or not. Returns the draw record (bit ``i``: turn ``i``'s drawer kept the card shown), or -1 (with ``error``
    filled) when a policy answered neither the card's bit nor 0."""
    drawn = np.int64(0)
    for i in range(n_cards // 2):  # 52 cards in every deck: 26 turns, 13 each
        s = phases.drawer(dealer, i)
        top = deck[2 * i]
        phases.start_draw(view, s, top)
        view[V_PASSED] = discards[s]
        keep = exch_fns[s](np.int64(s), hands[s], view, params[s], streams[s])
        if not phases.apply_draw(view, hands, discards, s, top, deck[2 * i + 1], keep):
            error[0] = ERR_DRAW
            error[2] = s
            error[3] = keep
            return np.int64(-1)
        if keep != 0:
            drawn |= np.int64(1) << i
    return drawn


@njit(inline="always")
def _next_card(play_fns, params, params0, policy_kind, s, h, legal, view, streams, error, lead, passed):
    """The card seat ``s`` plays: its policy's choice, or the only legal card without asking;
    -1 (with ``error`` filled) when the policy chose a card it may not play."""
    view[V_SEAT] = s
    c = lowest_bit(legal)
    if legal & (legal - 1):
        view[V_PASSED] = passed[s]
        if policy_kind == PER_SEAT:
            c = play_fns[s](np.int64(s), h, legal, view, params[s], streams[s])
        elif lead:
            c = _lead_inlined(policy_kind, (np.int64(s), h, legal, view, params0, streams[s]))
        else:
            c = _play_inlined(policy_kind, (np.int64(s), h, legal, view, params0, streams[s]))
        if c < 0 or c > 53 or ((legal >> c) & 1) == 0:
            error[0] = ERR_PLAY
            error[2] = s
            error[3] = c
            c = -1
    return c


@njit(inline="always")  # inlined into simulate_block: a literal policy_kind reaches the trick loop
def play_hand(rules, blind_fns, bid_fns, exch_fns, play_fns, params, policy_kind, n_seats, seed, game_id, hand_no,
              totals, bags, deck_tpl, deck_mask, deck, hands, tricks, points, view, streams, row, ids, cards,
              counts, scores, plays, record_plays, error, passed):
    """Deal, bid, exchange, play and score hand ``hand_no`` of game ``game_id`` into output row ``row``: the
    phases (phases.py) with the seat policies asked at each decision.

    Updates ``totals`` and ``bags`` in place. Returns False (with ``error``
    filled) when a policy returned an illegal bid, exchange or card. ``passed[s]``: seat s's
    ``view[V_PASSED]`` (the cards it passed), stored in the view before each of its calls.
    ``policy_kind``: how to call the seat policies (see ``policy_kind_of``). ``streams[s]``: seat s's policy
    stream, the only one its policies are given; ``streams[phases.DEAL_STREAM]``: the deal's. (The deal's
    stream shares the seats' array because CPython passes more than 30 arguments as ``*args``, which
    Numba cannot inline; so the dealer is worked out here, not passed.) ``n_seats``: the players (4, or 3 in
    cutthroat3), a compile-time constant; each deals ``52 // n_seats`` cards and plays as many tricks.
    """
    n_tricks = 13 if n_seats == 2 else 52 // n_seats  # two players discard half the deck in the draw
    dealer = phases.seat_mod(game_id + hand_no, n_seats)  # the first hand's dealer is game_id's seat, then clockwise
    if n_seats == 2:  # two-handed: no deal, each hand drawn from the stock; passed[s]: seat s's discards
        phases.shuffle_stock(seed, game_id, hand_no, deck_tpl, deck, hands, streams)
        phases.start_view(rules, view, dealer, hand_no, totals, bags, deck_mask)
        for s in range(4):
            passed[s] = 0
        drawn = _draw(exch_fns, params, dealer, deck_tpl.shape[0], deck, hands, view, streams, passed, error)
        if drawn < 0:
            return False
        cards[0, row] = hands[0]
        cards[1, row] = hands[1]
        cards[2, row] = drawn  # the draw record, in the unused dealt slot of seat 2 (batch.Blocks)
    else:
        phases.deal(seed, game_id, hand_no, dealer, deck_tpl, deck, hands, streams, n_seats)
        for s in range(4):  # with three seats, slot 3 holds no cards (0): the unused rows are never read
            cards[s, row] = hands[s]
        phases.start_view(rules, view, dealer, hand_no, totals, bags, deck_mask)
        for s in range(4):
            passed[s] = 0

    # ---- bidding, left of the dealer first
    params0 = params[0]  # every seat's parameters when a built-in strategy is inlined
    for k in range(n_seats):
        s = phases.bidder(dealer, k, n_seats)
        min_bid, offered = phases.start_bid(rules, view, totals, s)
        view[V_PASSED] = passed[s] if n_seats == 2 else 0  # no cards passed yet (two-handed: the seat's discards)
        blind = 0
        if offered:
            if policy_kind == PER_SEAT:
                wants = blind_fns[s](np.int64(s), view, params[s], streams[s])
            else:
                wants = _blind_nil_inlined(policy_kind, (np.int64(s), view, params0, streams[s]))
            if wants != 0:
                blind = 1
        if blind:
            b = np.int64(0)
        else:
            if policy_kind == PER_SEAT:
                b = bid_fns[s](np.int64(s), hands[s], view, params[s], streams[s])
            else:
                b = _bid_inlined(policy_kind, (np.int64(s), hands[s], view, params0, streams[s]))
            if not phases.bid_is_legal(view, hands[s], b):
                error[0] = ERR_BID
                error[2] = s
                error[3] = b
                return False
        phases.record_bid(view, s, b, blind, n_seats)
    phases.end_bidding(view)

    # ---- Blind Nil exchange (a team with exactly one Blind Nil bidder)
    if rules.blind_nil_exchange > 0:
        n_steps, steps = phases.exchange_steps(rules, view, dealer)
        for i in range(n_steps):
            giver, receiver, role = phases.exchange_step(steps, i)
            if not _exchange(rules, giver, receiver, role, hands, view, exch_fns, params, streams, passed):
                error[0] = ERR_EXCHANGE
                error[2] = view[V_SEAT]
                return False
    for s in range(4):  # two-handed: slots 2, 3 hold no cards (0)
        cards[4 + s, row] = hands[s]

    # ---- play 13 tricks (17 with three players)
    leader = phases.first_leader(rules, dealer, hands, n_seats)
    first_leader = leader
    broken = 0
    for s in range(4):
        tricks[s] = 0
    for t in range(n_tricks):
        phases.start_trick(view, t, leader)
        # the lead, then the cards that follow it: the lead apart, with no test of k in the
        # loop, is faster than one loop over four cards (docs/performance.md P19)
        s = leader
        h = hands[s]
        c = _next_card(play_fns, params, params0, policy_kind, s, h, phases.legal_leads(rules, t, h, broken), view,
                       streams, error, True, passed)
        if c < 0:
            return False
        led, broken = phases.apply_lead(rules, view, hands, t, s, c, broken, n_seats)
        win_seat = s
        win_card = c
        if record_plays:
            plays[row, n_seats * t] = c
        for k in range(1, n_seats):
            s = phases.seat_mod(leader + k, n_seats)
            h = hands[s]
            c = _next_card(play_fns, params, params0, policy_kind, s, h, phases.legal_follows(rules, h, led), view,
                           streams, error, False, passed)
            if c < 0:
                return False
            win_seat, win_card, broken = phases.apply_follow(rules, view, hands, t, k, s, c, led, win_seat, win_card, broken,
                                                             n_seats)
            if record_plays:
                plays[row, n_seats * t + k] = c
        leader = phases.end_trick(view, tricks, win_seat)

    # ---- score
    phases.score(rules, view, tricks, totals, bags, points)
    for side in range(4):  # rows of the sides there are not (2, 3 with partnerships) are never read
        scores[side, row] = points[side]
        scores[4 + side, row] = bags[side]
        scores[8 + side, row] = totals[side]
    ids[0, row] = game_id
    ids[1, row] = hand_no
    ids[2, row] = dealer
    ids[3, row] = first_leader
    for s in range(4):
        counts[s, row] = view[V_BID + s]
        counts[4 + s, row] = view[V_BLIND + s]
        counts[8 + s, row] = tricks[s]
    return True


# ----------------------------------------------------------------- the kernel
_KR = typeof(KernelRules(*([0] * len(KernelRules._fields))))
_I64_2D = types.int64[:, ::1]


def kernel_signature(policy_kind: int, n_seats: int = 4):
    """simulate_block's signature: the policy kind is a compile-time constant, so each inlined
    built-in gets a kernel of its own; PER_SEAT has the generic one. So is the seat count (``rules.seats``):
    a kernel for four players and one for three, each with its seat arithmetic and trick count folded."""
    kind = types.int64 if policy_kind == PER_SEAT else types.IntegerLiteral(policy_kind)
    return types.void(
        _KR,
        types.UniTuple(BLIND_NIL_FN, 4), types.UniTuple(BID_FN, 4),
        types.UniTuple(EXCHANGE_FN, 4), types.UniTuple(PLAY_FN, 4),
        types.float64[:, ::1],           # params (4, N_PARAMS)
        kind,                            # policy_kind (see policy_kind_of)
        types.IntegerLiteral(n_seats),   # n_seats (rules.seats)
        types.int64[::1],                # deck template
        types.int64, types.int64[::1],   # seed, game ids
        types.int64, types.int64,        # first, hand_limit
        types.boolean, types.boolean,    # games_mode, record_plays
        _I64_2D, _I64_2D, types.int8[:, ::1], types.int32[:, ::1], types.int8[:, ::1],  # ids, cards, counts, scores, plays
        _I64_2D, _I64_2D,                # games (7, n_games), errors (4, n_games)
    )


_ENTRY_POINTS: dict = {}
_COMPILE_LOCK = threading.Lock()


def kernel_for(policy_kind: int, n_seats: int = 4):
    """The compiled simulate_block for ``policy_kind`` and ``n_seats`` players: loaded from Numba's cache, else
    compiled once. Only explicit signatures are ever compiled, so every process finds them in the cache.
    Under NUMBA_DISABLE_JIT: the plain Python simulate_block, for every kind."""
    if config.DISABLE_JIT:
        return getattr(simulate_block, "py_func", simulate_block)
    key = (policy_kind, n_seats)
    if key not in _ENTRY_POINTS:
        with _COMPILE_LOCK:  # the run's worker threads ask at once: one compiles, the others then find it
            if key not in _ENTRY_POINTS:
                _compile_kind(policy_kind, n_seats)
    return _ENTRY_POINTS[key]


def _compile_kind(policy_kind: int, n_seats: int) -> None:
    """Compile (or load from the cache) the kernel of ``policy_kind`` and ``n_seats``, saying so when it takes long."""
    name = _KIND_NAMES.get(policy_kind)
    what = f"the spades kernel for {name}" if name else "the spades kernel for mixed seats"
    if n_seats != 4:
        what += f" ({n_seats} players)"
    with warnings.catch_warnings(), announced(what):
        # Numba's pedantic SSA check misfires when one overload is inlined at two call sites (the
        # lead and the follow of the trick loop) on Python 3.11 (numba issue #9489); the kernel
        # still agrees with the reference engine hand for hand (tests/simulator/games/spades/test_reference_replay.py)
        warnings.simplefilter("ignore", NumbaIRAssumptionWarning)
        _ENTRY_POINTS[(policy_kind, n_seats)] = simulate_block.compile(kernel_signature(policy_kind, n_seats))


# error_model="numpy": no zero-division test and exception path at the divisions of the inlined phases and
# policies, whose divisors (the seat count, constants) are never 0; fewer instructions a hand (P83)
@njit(cache=True, nogil=True, error_model="numpy")
def simulate_block(rules, blind_fns, bid_fns, exch_fns, play_fns, params, policy_kind, n_seats, deck_tpl, seed, game_ids,
                   first, hand_limit, games_mode, record_plays, ids, cards, counts, scores, plays, games, errors):
    """Play the games ``game_ids`` (any ids, in any order); call it through ``kernel_for``.

    The hands go to consecutive rows of the column arrays from row ``first``, game
    after game, and game i's record to ``games[:, first + i]`` (threads sharing
    the arrays each write their own part: batch.play_blocks; ``errors`` is the
    call's own). In hands mode every game is one hand from a fresh score
    (hand_limit = 1). ``games[:, first + i]`` gets (hands, winner, end code, total of
    each side: 2 teams, or each player in cutthroat; ``scores`` likewise has 4
    rows each of points, bags and totals). ``n_seats`` (``rules.seats``) is a
    compile-time constant (``kernel_signature``). When the rows run out during a game,
    that game and all after it get END_OVERFLOW (and hands 0): the caller plays
    them again with new rows.
    """
    n_games = game_ids.shape[0]
    capacity = ids.shape[1]
    scratch = (np.empty(64, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64),
               np.empty(VIEW_SIZE, dtype=np.int64), np.empty((5, 1), dtype=np.uint64), np.empty(4, dtype=np.int64),
               np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64),
               np.empty(4, dtype=np.int64))
    # every array of the loop is borrowed (simulator/borrow.py): no reference counting per hand and per
    # policy call (docs/performance.md P6); the arguments are held by the caller, `scratch` below
    deck, hands, tricks = borrowed(scratch[0]), borrowed(scratch[1]), borrowed(scratch[2])
    view, streams, totals = borrowed(scratch[3]), borrowed(scratch[4]), borrowed(scratch[5])
    bags, error, points = borrowed(scratch[6]), borrowed(scratch[7]), borrowed(scratch[8])
    passed = borrowed(scratch[9])
    params, deck_tpl, game_ids = borrowed(params), borrowed(deck_tpl), borrowed(game_ids)
    ids, cards, counts, scores = borrowed(ids), borrowed(cards), borrowed(counts), borrowed(scores)
    plays, games, errors = borrowed(plays), borrowed(games), borrowed(errors)
    deck_mask = np.int64(0)  # the cards of this deck, for the view
    for c in deck_tpl:
        deck_mask |= np.int64(1) << c
    n_sides = phases.sides(rules)  # totals and bags: one entry a side (2 teams, or each player alone)
    points[2] = points[3] = 0  # never written with partnerships: the kernel's unused score rows stay 0
    first_row = first  # of the game being played
    for i in range(n_games):
        game_id = game_ids[i]
        for k in range(4):
            totals[k] = 0
            bags[k] = 0
        for e in range(4):
            error[e] = 0
        winner = -1
        end = END_LIMIT if games_mode else END_NONE
        n_hands = 0
        for h in range(hand_limit):
            row = first_row + h
            if row >= capacity:
                end = END_OVERFLOW
                break
            ok = play_hand(rules, blind_fns, bid_fns, exch_fns, play_fns, params, policy_kind, n_seats, seed, game_id, h,
                           totals, bags, deck_tpl, deck_mask, deck, hands, tricks, points, view, streams, row, ids,
                           cards, counts, scores, plays, record_plays, error, passed)
            if not ok:
                error[1] = h
                break
            n_hands += 1
            if games_mode:
                w, e = game_end_of(rules, totals, n_sides)
                if e != END_NONE:
                    winner = w
                    end = e
                    break
        if end == END_OVERFLOW:
            for j in range(first + i, first + n_games):
                games[0, j] = 0
                games[2, j] = END_OVERFLOW
            break
        if games_mode and end == END_LIMIT:
            winner = phases.leader(totals, n_sides)
        column = first + i
        games[0, column] = n_hands
        games[1, column] = winner
        games[2, column] = end
        for k in range(n_sides):
            games[3 + k, column] = totals[k]
        for e in range(4):
            errors[e, i] = error[e]
        first_row += n_hands
    alive_until_here(scratch)


# ------------------------------------------------------- Python-facing helpers
def score_hand(rules: SpadesRules, bids, blind, tricks, bags_before=None):
    """Score one hand: ``(scores, bags_after)`` per side: per team (team 0 = seats 0+2), or in cutthroat
    per seat (``bags_before`` likewise; default none); ``bids``, ``blind``, ``tricks`` one a player (3 or 4)."""
    compiled_rules = rules.to_kernel()
    view = np.zeros(VIEW_SIZE, np.int64)
    for s in range(rules.seats):
        view[V_BID + s] = int(bids[s])
        view[V_BLIND + s] = int(bool(blind[s]))
    n = rules.sides
    totals, points = np.zeros(4, np.int64), np.zeros(4, np.int64)
    bags = np.zeros(4, np.int64)
    bags[:n] = bags_before if bags_before is not None else [0] * n
    taken = np.zeros(4, np.int64)
    taken[:rules.seats] = tricks
    phases.score(compiled_rules, view, taken, totals, bags, points)
    return tuple(int(x) for x in points[:n]), tuple(int(x) for x in bags[:n])


def game_end(rules: SpadesRules, *totals: int):
    """``(ended, winner, end)`` after a hand with these running totals: 2 (the teams') or, in cutthroat, one a
    player (4, or 3 in cutthroat3)."""
    if len(totals) != rules.sides:
        raise ValueError(f"{len(totals)} totals given: the rules have {rules.sides} sides")
    w, e = game_end_of(rules.to_kernel(), np.array(totals, np.int64), len(totals))
    return e != END_NONE, int(w), END_NAMES[e] if e != END_OVERFLOW else ""
