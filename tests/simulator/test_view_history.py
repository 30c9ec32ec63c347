"""What a policy receives besides its hand (issue #25): the rules record and the public history of the view.

The history (``V_BID_ORDER``, ``V_PLAY_CARD``, ``V_PLAY_SEAT``, policy.py of each game) must be what the table
saw: here every view a seat is given in runs of each game is checked against the run's recorded data
(``record_plays``: the plays column in play order, the bids), the seat of each card worked out from the
first leader and the trick winners by the plain-Python referees. The step API asks the strategies exactly as
the kernel does (tests/simulator/games/spades/test_state.py, tests/simulator/games/tarot/test_tarot_state.py prove the same hands come out); inside the
batch kernel an auditing policy checks each view it is given against the view's other public fields.
The rules record (``V_RULES``) reads back as the run's rules in both games, from inside the kernels.
"""
import numpy as np
import pytest
import reference_spades as ref
import reference_tarot as tref
from numba import njit

from tricksim.simulator import engine
from tricksim.simulator.bits import lowest_bit
from tricksim.simulator.games.spades import phases
from tricksim.simulator.games.spades.policy import (
    PLAY_SIG,
    V_BID,
    V_BID_ORDER,
    V_DEALER,
    V_LEADER,
    V_NPLAYED,
    V_PLAY_CARD,
    V_PLAY_SEAT,
    V_PLAYED,
    V_TRICK,
    V_TRICK_NO,
    rules_of,
)
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.simulator.games.spades.state import Phase, SpadesState
from tricksim.simulator.games.tarot import policy as tarot_policy
from tricksim.simulator.games.tarot.cards import FIRST_TRUMP
from tricksim.simulator.games.tarot.rules import build_rules as tarot_rules
from tricksim.simulator.games.tarot.state import Phase as TarotPhase
from tricksim.simulator.games.tarot.state import TarotState
from tricksim.strategies.registry import SeatStrategy, Strategy, parse_spec


class Recorder:
    """A seat policy that records the view it is given at each call (with the phase), then decides as ``spec``."""

    def __init__(self, spec: str, game: str, log: list, state_phase):
        inner = parse_spec(spec, game)
        self.params = inner.params

        def wrap(fn):
            def call(*args):
                log.append((state_phase(), int(args[0]), args[-3].copy()))
                return fn(*args)
            return call

        self.functions = tuple(wrap(f) for f in inner.functions)


def seats_of_plays(plays, first_leader, winner_of, n_seats=4):
    """The seat that played each card of ``plays`` (in play order): each trick from its leader round the table,
    the next led by the trick's winner (``winner_of(leader, cards)``)."""
    seats, leader = [], first_leader
    for t in range(len(plays) // n_seats):
        trick = plays[n_seats * t:n_seats * (t + 1)]
        seats += [(leader + k) % n_seats for k in range(n_seats)]
        leader = winner_of(leader, trick)
    return seats


# ------------------------------------------------------------------ Spades
SPADES_SEATS = ("heuristic", "random:nil_prob=0.2,blind_nil_prob=0.4", "simple", "heuristic:blind_nil_margin=0")


@pytest.mark.parametrize("preset, overrides", [("classic", ()), ("cardems", ("first_lead=two_of_clubs",))])
def test_spades_history_is_the_recorded_hand(preset, overrides):
    """Each view a seat is given in 12 recorded hands: the bids made so far in speaking order (the bid of the
    seat that spoke k-th at entry k, -1 for the seats still to speak), the cards played so far in play order
    (the run's plays column) with the seat that played each, -1 after; the rules record is the run's."""
    rules = build_rules(preset, list(overrides))
    cfg = engine.RunConfig(rules=rules, seats=tuple(parse_spec(s) for s in SPADES_SEATS), seed=9, count=12,
                           record_plays=True)
    rows = engine.run_to_tables(cfg)["hands"].to_pylist()
    asked = {Phase.BLIND_NIL: 0, Phase.BID: 0, Phase.EXCHANGE: 0, Phase.PLAY: 0}
    for i, row in enumerate(rows):
        st = SpadesState(rules, seed=9, game_id=i)
        log: list = []
        seats = [Recorder(s, "spades", log, lambda: st.phase) for s in SPADES_SEATS]
        while not st.is_terminal():
            decision = st.policy_action(seats[st.current_player()])
            for action in decision if isinstance(decision, list) else [decision]:
                st.apply(action)
        plays = list(row["plays"])
        assert len(plays) == 52 and st.plays == plays
        order = [phases.bidder(row["dealer"], k) for k in range(4)]
        bids = [row[f"bid_{s}"] for s in order]
        played_by = seats_of_plays(plays, row["first_leader"],
                                   lambda leader, cards: ref.trick_winner(leader, list(cards)))
        for phase, seat, view in log:
            asked[phase] += 1
            assert rules_of(view) == rules.to_kernel()
            spoken = 4 if phase in (Phase.EXCHANGE, Phase.PLAY) else order.index(seat)
            assert list(view[V_BID_ORDER:V_BID_ORDER + 4]) == bids[:spoken] + [-1] * (4 - spoken)
            n = 4 * int(view[V_TRICK_NO]) + int(view[V_NPLAYED]) if phase == Phase.PLAY else 0
            assert list(view[V_PLAY_CARD:V_PLAY_CARD + 52]) == plays[:n] + [-1] * (52 - n)
            assert list(view[V_PLAY_SEAT:V_PLAY_SEAT + 52]) == played_by[:n] + [-1] * (52 - n)
    assert all(asked.values()) or preset == "cardems"


@njit(PLAY_SIG)
def _audited_play(seat, hand, legal, view, params, rng):
    """Plays the lowest legal card after checking the history against the view's other public fields; -1 (an
    illegal card, which stops the run) when they disagree."""
    t = view[V_TRICK_NO]
    k = view[V_NPLAYED]
    n = 4 * t + k
    seen = np.zeros(4, np.int64)
    for i in range(52):
        c = view[V_PLAY_CARD + i]
        s = view[V_PLAY_SEAT + i]
        if i >= n:
            if c != -1 or s != -1:
                return np.int64(-1)
            continue
        if c < 0 or s < 0 or (view[V_PLAYED + s] >> c) & 1 == 0 or (seen[s] >> c) & 1:
            return np.int64(-1)
        seen[s] |= np.int64(1) << c
        if i >= 4 * t and (s != ((view[V_LEADER] + i - 4 * t) & 3) or view[V_TRICK + s] != c):
            return np.int64(-1)
    for s in range(4):
        if seen[s] != view[V_PLAYED + s]:
            return np.int64(-1)
        if view[V_BID_ORDER + ((s - view[V_DEALER] - 1) & 3)] != view[V_BID + s]:
            return np.int64(-1)
    return lowest_bit(legal)


def test_spades_kernel_history_agrees_with_the_views_public_fields():
    """Inside the batch kernel (games mode, Blind Nil and its exchange): at every play the history holds each
    card played so far exactly once, with a seat whose played cards hold it, the current trick as V_TRICK shows
    it from its leader, -1 after; and the bids in speaking order are the seats' bids."""
    base = parse_spec("random:nil_prob=0.2,blind_nil_prob=0.4").strategy
    audited = Strategy(name="audited", description="test", params=base.params,
                       policies={**base.policies, "play": _audited_play})
    seat = SeatStrategy(audited, {"nil_prob": 0.2, "blind_nil_prob": 0.4})
    cfg = engine.RunConfig(rules=build_rules("classic"), seats=(seat,) * 4, seed=2, mode="games", count=3,
                           hand_limit=8)
    hands = engine.run_to_tables(cfg)["hands"]  # a failed audit stops the run with an error
    assert hands.num_rows >= 10


# ------------------------------------------------------------------ Tarot
TAROT_SEATS = ("heuristic", "random", "heuristic:defender_poignee=1", "random:chelem_prob=0.5")


def test_tarot_history_is_the_recorded_deal():
    """Each view a seat is given in 30 recorded deals: the bids so far in speaking order, the cards played so far
    in play order (the deals table's plays column) with the seat that played each (trick winners by the
    Tarot referee), -1 after; the rules record is the run's (here with flags off their defaults)."""
    P = tarot_policy
    rules = tarot_rules("cardavia", ["discard_trumps=free", "excuse_lead=forbidden"])
    policies = tuple(parse_spec(s, game="tarot") for s in TAROT_SEATS)
    cfg = engine.RunConfig(game="tarot", rules=rules, seats=policies, seed=4, mode="deals", count=30,
                           record_plays=True)
    rows = engine.run_to_tables(cfg)["deals"].to_pylist()
    played_deals = 0
    for i, row in enumerate(rows):
        st = TarotState(rules, seed=4, deal_id=i)
        log: list = []
        seats = [Recorder(s, "tarot", log, lambda: st.phase) for s in TAROT_SEATS]
        while not st.is_terminal():
            st.apply(st.policy_action(seats[st.current_player()]))
        plays = list(row["plays"])
        if row["taker"] < 0:
            assert not any(phase == TarotPhase.PLAY for phase, _, _ in log)
        else:
            played_deals += 1
            assert len(plays) == 72 and st.plays == plays
        order = [(row["dealer"] + 1 + k) % 4 for k in range(4)]
        bids = [row[f"bid_{s}"] for s in order]
        played_by = seats_of_plays(plays, row["first_leader"],
                                   lambda leader, cards: (leader + tref.trick_winner(list(cards))) % 4)
        for phase, seat, view in log:
            assert P.rules_of(view) == rules.to_kernel()
            spoken = order.index(seat) if phase == TarotPhase.BID else 4
            assert list(view[P.V_BID_ORDER:P.V_BID_ORDER + 4]) == bids[:spoken] + [-1] * (4 - spoken)
            n = 4 * int(view[P.V_TRICK_NO]) + int(view[P.V_NPLAYED]) if phase in (TarotPhase.PLAY,
                                                                                   TarotPhase.POIGNEE) else 0
            assert list(view[P.V_PLAY_CARD:P.V_PLAY_CARD + 78]) == plays[:n] + [-1] * (78 - n)
            assert list(view[P.V_PLAY_SEAT:P.V_PLAY_SEAT + 78]) == played_by[:n] + [-1] * (78 - n)
    assert played_deals >= 10



TAROT_RARE = tarot_rules("cardavia", ["discard_trumps=free", "poignee_hand=as_dealt", "excuse_lead=forbidden"])
_TAROT_WANT = TAROT_RARE.to_kernel()


@njit(tarot_policy.CHOOSE_SIG)
def _audited_tarot_play(seat, suits, trumps, legal_s, legal_t, view, params, rng):
    """Plays the lowest legal card after checking the rules record (the run's) and the history against the view's
    other public fields; -1 (an illegal card, which stops the run) when they disagree."""
    P = tarot_policy
    if P.rules_of(view) != _TAROT_WANT:
        return np.int64(-1)
    t = view[P.V_TRICK_NO]
    n = 4 * t + view[P.V_NPLAYED]
    seen_s = np.int64(0)
    seen_t = np.int64(0)
    for i in range(78):
        c = view[P.V_PLAY_CARD + i]
        s = view[P.V_PLAY_SEAT + i]
        if i >= n:
            if c != -1 or s != -1:
                return np.int64(-1)
            continue
        if c < 0 or s < 0 or s > 3:
            return np.int64(-1)
        if c < FIRST_TRUMP:
            seen_s |= np.int64(1) << c
        else:
            seen_t |= np.int64(1) << (c - FIRST_TRUMP)
        if i >= 4 * t and (s != (view[P.V_LEADER] + i - 4 * t) % 4 or view[P.V_TRICK + s] != c):
            return np.int64(-1)
    if seen_s != view[P.V_PLAYED_S] or seen_t != view[P.V_PLAYED_T]:
        return np.int64(-1)
    for s in range(4):
        if view[P.V_BID_ORDER + (s - view[P.V_DEALER] - 1) % 4] != view[P.V_BID + s]:
            return np.int64(-1)
    return lowest_bit(legal_s) if legal_s != 0 else FIRST_TRUMP + lowest_bit(legal_t)


def test_tarot_kernel_gives_the_rules_record_and_a_consistent_history():
    """Inside the Tarot batch kernel: at every play the rules record reads back as the run's rules (flags off
    their defaults), the history holds the cards played so far (the view's played words, exactly), the current
    trick as V_TRICK shows it from its leader, -1 after; the bids in speaking order are the seats' bids."""
    base = parse_spec("random", "tarot").strategy
    audited = Strategy(game="tarot", name="audited", description="test", params=base.params,
                       policies={**base.policies, "play": _audited_tarot_play})
    cfg = engine.RunConfig(game="tarot", rules=TAROT_RARE, seats=(SeatStrategy(audited, {}),) * 4, seed=6,
                           mode="deals", count=40)
    deals = engine.run_to_tables(cfg)["deals"]  # a failed audit stops the run with an error
    assert deals.num_rows == 40 and sum(t >= 0 for t in deals["taker"].to_pylist()) >= 10


# ------------------------------------------------------------------ the record follows the rules' fields
@pytest.mark.parametrize("game", ["spades", "tarot"])
def test_the_record_is_laid_out_by_the_rules_fields(game):
    """One slot per field of the family's KernelRules, in field order, at the end of the view: the R_* offsets
    are the field indices, so a flag added to the rules needs no edit to the layout or to a strategy."""
    from tricksim.simulator.games.spades import policy as spades_policy
    from tricksim.simulator.games.spades.rules import KernelRules as SpadesKernelRules
    from tricksim.simulator.games.tarot.rules import KernelRules as TarotKernelRules

    P, kr = (spades_policy, SpadesKernelRules) if game == "spades" else (tarot_policy, TarotKernelRules)
    assert P.N_RULES == len(kr._fields) and P.VIEW_SIZE == P.V_RULES + P.N_RULES
    for i, name in enumerate(kr._fields):
        assert getattr(P, f"R_{name.upper()}") == i


def test_a_flag_added_to_the_rules_reaches_a_compiled_policy_unchanged():
    """The record's writer and reader take any all-int64 named tuple: a rules type with one more field than
    Spades' is written into a view and read back, field by field, inside compiled code, with no code that
    names a field (what adding a flag to a family's rules relies on)."""
    from typing import NamedTuple

    from tricksim.simulator.games.spades.rules import KernelRules as SpadesKernelRules
    from tricksim.simulator.record import rule_offsets, rules_reader, write_rules

    Longer = NamedTuple("Longer", [(f, int) for f in SpadesKernelRules._fields] + [("new_flag", int)])
    offsets = rule_offsets(Longer)
    read = rules_reader(Longer, 7)
    new_flag = offsets["R_NEW_FLAG"]

    @njit
    def round_trip(rules, view):
        write_rules(rules, view, 7)
        return read(view), view[7 + new_flag]

    rules = Longer(*range(100, 100 + len(Longer._fields)))
    compiled_view = np.full(7 + len(Longer._fields) + 2, -9, np.int64)
    back, flag = round_trip(rules, compiled_view)
    assert back == rules and flag == rules.new_flag and new_flag == len(SpadesKernelRules._fields)
    # the compiled writer (one store a field) and the plain-Python one fill the record's slots and no other
    plain_view = np.full_like(compiled_view, -9)
    write_rules(rules, plain_view, 7)
    assert compiled_view.tolist() == plain_view.tolist() == [-9] * 7 + list(rules) + [-9] * 2
