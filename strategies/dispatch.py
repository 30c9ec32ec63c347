"""How the kernel calls the seat policies: built-ins directly, others by pointer.

The built-in strategies below are compiled into the kernel as direct calls,
which LLVM can inline: on ``simple`` that took the kernel from 2.5 to 2.0 us
of CPU per hand (a first-class function call costs about 15 ns, mostly for
passing three arrays). Any other strategy -- one registered at run time, or
a new module not listed here -- is called through the first-class function
tuples the kernel also receives (``KIND_PLUGIN``), so adding a strategy never
needs an edit here; listing it here only makes it faster.

A seat's kind is the index of its strategy in ``BUILTIN``. Editing any
strategy module changes the compile-cache folder (``simulator/__init__.py``),
so the kernel is recompiled with the new code.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from strategies import heuristic, simple
from strategies import random as random_

BUILTIN = (random_.STRATEGY, simple.STRATEGY, heuristic.STRATEGY)
KIND_RANDOM, KIND_SIMPLE, KIND_HEURISTIC = range(3)
KIND_PLUGIN = -1


def kind_of(strategy) -> int:
    """Kernel dispatch code of a registered strategy."""
    for kind, s in enumerate(BUILTIN):
        if strategy is s:
            return kind
    return KIND_PLUGIN


@njit(cache=True, inline="always")
def call_blind_nil(kind, fns, seat, view, params, rng):
    if kind == KIND_SIMPLE:
        return simple.blind_nil(seat, view, params, rng)
    if kind == KIND_HEURISTIC:
        return heuristic.blind_nil(seat, view, params, rng)
    if kind == KIND_RANDOM:
        return random_.blind_nil(seat, view, params, rng)
    return fns[seat](seat, view, params, rng)


@njit(cache=True, inline="always")
def call_bid(kind, fns, seat, hand, view, params, rng):
    if kind == KIND_SIMPLE:
        return simple.bid(seat, hand, view, params, rng)
    if kind == KIND_HEURISTIC:
        return heuristic.bid(seat, hand, view, params, rng)
    if kind == KIND_RANDOM:
        return random_.bid(seat, hand, view, params, rng)
    return fns[seat](seat, hand, view, params, rng)


@njit(cache=True, inline="always")
def call_exchange(kind, fns, seat, hand, view, params, rng):
    if kind == KIND_SIMPLE:
        return simple.exchange(seat, hand, view, params, rng)
    if kind == KIND_HEURISTIC:
        return heuristic.exchange(seat, hand, view, params, rng)
    if kind == KIND_RANDOM:
        return random_.exchange(seat, hand, view, params, rng)
    return fns[seat](seat, hand, view, params, rng)


@njit(cache=True, inline="always")
def call_play(kind, fns, seat, hand, legal, view, params, rng):
    if kind == KIND_SIMPLE:
        return simple.play(seat, hand, legal, view, params, rng)
    if kind == KIND_HEURISTIC:
        return heuristic.play(seat, hand, legal, view, params, rng)
    if kind == KIND_RANDOM:
        return random_.play(seat, hand, legal, view, params, rng)
    return fns[seat](seat, hand, legal, view, params, rng)


def kinds_array(strategies) -> np.ndarray:
    return np.array([kind_of(s) for s in strategies], dtype=np.int64)
