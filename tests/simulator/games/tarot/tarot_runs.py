"""Runs of the Tarot batch kernel at any seat count, the deal law they share, and the poignée of a chosen deal
played through the step API: the helpers of the tests of Tarot for three and for five (``test_tarot_three.py``,
``test_tarot_five.py``)."""
from __future__ import annotations

from math import comb
from types import SimpleNamespace

import numpy as np

from tricksim.simulator.games.tarot import batch
from tricksim.simulator.games.tarot.cards import EXCUSE, FIRST_TRUMP, PETIT, cards_in
from tricksim.simulator.games.tarot.rules import TarotRules
from tricksim.simulator.games.tarot.state import POIGNEE_0, Phase
from tricksim.strategies.registry import parse_spec

OUDLERS = {PETIT, FIRST_TRUMP + 20, EXCUSE}


def run_deals(rules: TarotRules, strategy: str, n: int, seed: int, record_plays: bool):
    """The deals table of deals 0..n-1, every seat playing ``strategy``, in one worker."""
    spec = parse_spec(strategy, "tarot")
    cfg = SimpleNamespace(rules=rules, seats=[spec] * rules.seats, seed=seed, record_plays=record_plays)
    return batch.compute(cfg, np.arange(n, dtype=np.int64), workers=1)["deals"]


def seat0_oudlers_law(deals, hand_size: int):
    """Seat 0's oudlers, deal by deal, against their exact law: a hand of ``hand_size`` cards of the 78 holds k of
    the 3 oudlers with P(k) = C(3,k) C(75,hand_size-k) / C(78,hand_size). Returns (P, chi-square, 3 degrees of
    freedom)."""
    lo, hi = deals.column("dealt_lo_0").to_numpy(), deals.column("dealt_hi_0").to_numpy()
    oudlers = np.array([len(OUDLERS & set(cards_in(a, b))) for a, b in zip(lo, hi)])
    exact = np.array([comb(3, k) * comb(75, hand_size - k) / comb(78, hand_size) for k in range(4)])
    observed = np.bincount(oudlers, minlength=4)
    n = len(oudlers)
    return exact, float(((observed - n * exact) ** 2 / (n * exact)).sum())


def announce_triple_poignee(st) -> int:
    """From the Chelem question of the step API: no Chelem, then a triple poignée (all four poignée answers
    offered), its trumps shown one action each; returns how many were shown."""
    st.apply(84)  # no Chelem
    assert st.phase == Phase.POIGNEE and st.legal_actions() == [POIGNEE_0 + k for k in range(4)]
    st.apply(POIGNEE_0 + 3)
    shown = 0
    while st.phase == Phase.SHOW:
        st.apply(st.legal_actions()[0])
        shown += 1
    return shown
