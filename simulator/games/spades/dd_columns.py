"""Double-dummy columns for the hands of a run (``tricksim dd``): the solver (``dd.py``) over many deals.

For each hand, from its first lead with the cards as held after any Blind Nil exchange:

* ``dd_tricks_0``: team 0's tricks when both teams play perfectly for tricks;
* ``dd_nil_s`` for each seat ``s`` that bid Nil (Blind Nil included): 1 when its side can keep it at zero
  tricks against best defence, 0 when not; -1 for a seat that did not bid Nil.

Without partnerships (``alone_columns``): ``dd_tricks_s`` for each seat, its own tricks against the others
together, and ``dd_nil_s`` as above with the seat alone against the others. At four and three seats the solver
above with sides set per question (``dd.alone_tricks_nb`` / ``alone_nil_nb``: the seat against the other three,
or two); at two seats ``dd_alone.py``.

The deals are split into chunks, one thread each; the compiled loop releases the GIL and every thread
has its own transposition tables, so the figures do not depend on the number of threads. A thread's trick solves
use a table of 2**``tt_bits`` slots (``TT_BITS``) and its Nil questions a table of their own, 2**``nil_tt_bits``
slots (``NIL_TT_BITS``): a made-Nil proof keeps many more entries than a trick solve, and the lookup's cost
follows the table's fill (docs/performance.md P119, P121). Slots are 48 bytes: 12 MiB and 48 MiB a thread at the
defaults (the Nil table only when a hand of the call has a Nil bid; pages are touched only as used). With
``progress`` the deals go in batches of a few hands a thread, and ``progress(done)`` is called after each; the
threads' solvers are kept from one batch to the next, each hand's trick solve and each Nil question starting a new
generation of its table (an empty table without clearing it).
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from tricksim.simulator.bits import popcount
from tricksim.simulator.compiling import announced
from tricksim.simulator.games.spades.cards import ranked_mask, renames
from tricksim.simulator.games.spades.dd import (
    P_FIRST,
    P_HANDS,
    P_LEADER,
    P_SIZE,
    P_TRIO,
    Solver,
    alone_nil_nb,
    alone_tricks_nb,
    new_generation_nb,
    nil_setup_nb,
    set_rules_nb,
    table_value_nb,
    tricks_nb,
)
from tricksim.simulator.games.spades.phases import FIRST_LEAD_TWO_OF_CLUBS

_LOADED: list = []  # the solver has been called once in this process
TT_BITS = 18  # log2 of the slots of a thread's table for the trick solves
NIL_TT_BITS = 20  # log2 of the slots of a thread's table of its own for the Nil questions


@njit(cache=True, nogil=True)
def _solve_hands(tt, ws, ntt, nws, held, leaders, first, nil_bid, tricks, nil, deck):
    """Rows of ``held`` (n x 4 masks of the deck with code ``deck``): team 0's double-dummy tricks (the table
    ``tt``, workspace ``ws``), and the Nil question for Nil seats (``ntt``, ``nws``: the same arrays for one
    table)."""
    pos = np.zeros(P_SIZE, np.int64)
    ranked = renames(deck)  # the solver plays the rank space: a deuce deck's cards renamed
    for i in range(held.shape[0]):
        for s in range(4):
            pos[P_HANDS + s] = ranked_mask(held[i, s], deck) if ranked else held[i, s]
        pos[P_LEADER] = leaders[i]
        pos[P_FIRST] = first
        # each hand's trick solve from an empty table: kept from hand to hand, the other deals' entries (rarely
        # of use to this one) fill the table, and the lookup's cost follows the fill
        new_generation_nb(tt, ws)
        tricks[i] = tricks_nb(tt, ws, pos)
        for s in range(4):
            if nil_bid[i, s] == 0:
                nil[i, s] = -1
                continue
            nil_setup_nb(nws, popcount(held[i, leaders[i]]), s)
            v = table_value_nb(ntt, nws, pos)
            nil[i, s] = 1 if (v == 1) == (s % 2 == 0) else 0


@njit(cache=True, nogil=True)
def _solve_alone(tt, ws, held, leaders, first, nil_bid, tricks, nil, deck):
    """Rows of ``held`` (n x seats masks of the deck with code ``deck``, 4 or 3 seats), each seat alone: its tricks
    against the others, and the Nil question for Nil seats (1 made, 0 not, -1 no Nil bid)."""
    pos = np.zeros(P_SIZE, np.int64)
    seats = held.shape[1]
    pos[P_TRIO] = 1 if seats == 3 else 0
    ranked = renames(deck)  # the solver plays the rank space: a deuce deck's cards renamed
    for i in range(held.shape[0]):
        for s in range(seats):
            pos[P_HANDS + s] = ranked_mask(held[i, s], deck) if ranked else held[i, s]
        pos[P_LEADER] = leaders[i]
        pos[P_FIRST] = first if (held[i, leaders[i]] & 1) != 0 else 0
        for s in range(seats):
            tricks[i, s] = alone_tricks_nb(tt, ws, pos, s)
            nil[i, s] = alone_nil_nb(tt, ws, pos, s) if nil_bid[i, s] != 0 else -1


def load_solver(rules, alone: bool = False) -> None:
    """Compile the solver (or load it from the cache) once in this process, saying so when it takes long: it
    compiles on its first call, here on no hands. ``alone``: without partnerships (two seats: the search of
    ``dd_alone.py``, not cached)."""
    seats = getattr(rules, "seats", 4)
    if alone and seats == 2:
        with announced("the double-dummy search without partnerships"):
            alone_columns(np.zeros((1, 2), np.int64) + np.array([1, 2]), np.zeros(1, np.int64),
                          np.zeros((1, 2), np.int64), rules)
        return
    if ("alone" if alone else "teams") not in _LOADED:
        empty = np.zeros((0, seats if alone else 4), np.int64)
        with announced("the double-dummy solver"):
            _columns(empty, np.zeros(0, np.int64), empty, rules, [_solvers(rules, 8, None)], alone)
        _LOADED.append("alone" if alone else "teams")


def dd_columns(held: np.ndarray, leaders: np.ndarray, nil_bid: np.ndarray, rules, *, threads: int = 1,
               tt_bits: int = TT_BITS, nil_tt_bits: int | None = NIL_TT_BITS,
               progress: Callable[[int], None] | None = None, batch: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """(``dd_tricks_0`` (n,), ``dd_nil`` (n, 4)) for ``held`` (n x 4 int64 masks of full hands), the first
    leaders and the Nil bids (n x 4, nonzero where seat s bid Nil), under ``rules`` (``SpadesRules``).
    Each thread solves the tricks on a table of 2**``tt_bits`` slots and the Nil questions on one of
    2**``nil_tt_bits`` (48 bytes a slot: 12 MiB and 48 MiB at the defaults; the second only when a hand has a Nil
    bid); ``nil_tt_bits`` None asks the Nil questions on the trick solves' table.
    ``progress(done)``: called with the hands solved so far after each ``batch`` hands a thread."""
    return _in_batches(held, leaders, nil_bid, rules, threads, tt_bits, progress, batch, False,
                       nil_tt_bits if np.any(nil_bid) else None)


def _solvers(rules, tt_bits, nil_tt_bits):
    """A thread's (trick solver, Nil solver: the same one without ``nil_tt_bits``), the play rules set on both."""
    k = rules.to_kernel() if hasattr(rules, "to_kernel") else rules
    pair = [Solver(tt_bits=tt_bits)]
    pair.append(pair[0] if nil_tt_bits is None else Solver(tt_bits=nil_tt_bits))
    for solver in pair:
        set_rules_nb(solver.ws, int(k.breaking), int(k.forced_spade_lead_breaks))
    return pair


def _in_batches(held, leaders, nil_bid, rules, threads, tt_bits, progress, batch, alone, nil_tt_bits=None):
    load_solver(rules, alone)
    threads = max(1, min(int(threads), held.shape[0]))
    solvers = [_solvers(rules, tt_bits, nil_tt_bits) for _ in range(threads)]  # kept from batch to batch
    if progress is None:
        return _columns(held, leaders, nil_bid, rules, solvers, alone)
    n = held.shape[0]
    step = max(1, batch * threads)
    width = held.shape[1] if alone else 4
    tricks = np.zeros((n, width) if alone else n, np.int64)
    nil = np.full((n, width), -1, np.int64)
    for a in range(0, n, step):
        b = min(n, a + step)
        tricks[a:b], nil[a:b] = _columns(held[a:b], leaders[a:b], nil_bid[a:b], rules, solvers, alone)
        progress(b)
    return tricks, nil


def _columns(held, leaders, nil_bid, rules, solvers, alone):
    """Teams (``alone`` False): team 0's tricks (n,) and the Nil question (n, 4); each seat alone at four or three
    seats: each seat's tricks (n, seats) and its Nil (n, seats). ``solvers``: a (trick, Nil) pair a thread."""
    k = rules.to_kernel() if hasattr(rules, "to_kernel") else rules
    held = np.ascontiguousarray(held, dtype=np.int64)
    leaders = np.ascontiguousarray(leaders, dtype=np.int64)
    nil_bid = np.ascontiguousarray(nil_bid, dtype=np.int64)
    n, width = held.shape[0], held.shape[1] if alone else 4
    tricks = np.zeros((n, width) if alone else n, np.int64)
    nil = np.full((n, width), -1, np.int64)
    first = 1 if k.first_lead == FIRST_LEAD_TWO_OF_CLUBS else 0
    threads = max(1, min(len(solvers), n))
    bounds = np.linspace(0, n, threads + 1).astype(np.int64)

    def chunk(j: int) -> None:
        a, b = bounds[j], bounds[j + 1]
        solver, nil_solver = solvers[j]
        t, m = np.zeros((b - a, width) if alone else b - a, np.int64), np.zeros((b - a, width), np.int64)
        args = (held[a:b].copy(), leaders[a:b].copy(), first, nil_bid[a:b].copy(), t, m, np.int64(k.deck))
        if alone:
            _solve_alone(solver.tt, solver.ws, *args)
        else:
            _solve_hands(solver.tt, solver.ws, nil_solver.tt, nil_solver.ws, *args)
        tricks[a:b], nil[a:b] = t, m

    if threads == 1:
        chunk(0)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(chunk, range(threads)))
    return tricks, nil


def alone_columns(held: np.ndarray, leaders: np.ndarray, nil_bid: np.ndarray, rules, *,
                  progress: Callable[[int], None] | None = None, batch: int = 64, threads: int = 1,
                  tt_bits: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """Without partnerships: (``dd_tricks`` (n, seats), ``dd_nil`` (n, seats)) for ``held`` (n x seats masks of
    full hands), each seat alone against the others together. Four or three seats: the team solver with a seat
    against the others as sides, ``threads`` as ``dd_columns`` (a table of 2**``tt_bits`` slots a thread, 48 MiB at
    20: a seat alone searches millions of nodes a question), ``progress(done)`` after each ``batch`` hands a
    thread; two seats: ``dd_alone.py``, one thread (its search holds the GIL), ``progress(done)`` after each
    ``batch`` hands."""
    if held.shape[1] in (3, 4):
        return _in_batches(held, leaders, nil_bid, rules, threads, tt_bits, progress, batch, True)
    from tricksim.simulator.games.spades.dd_alone import AloneSolver

    solver = AloneSolver(rules, tt_bits=14)  # emptied at each question: small, for two 13-card hands
    n, seats = held.shape
    tricks = np.zeros((n, seats), np.int64)
    nil = np.full((n, seats), -1, np.int64)
    opens = solver.k.first_lead == FIRST_LEAD_TWO_OF_CLUBS
    for i in range(n):
        hands = [int(x) for x in held[i]]
        leader = int(leaders[i])
        first = opens and hands[leader] & 1 != 0
        for s in range(seats):
            tricks[i, s] = solver.tricks(hands, leader, s, first=first)
            if nil_bid[i, s]:
                nil[i, s] = int(solver.nil(hands, leader, s, first=first))
        if progress is not None and ((i + 1) % batch == 0 or i + 1 == n):
            progress(i + 1)
    return tricks, nil
