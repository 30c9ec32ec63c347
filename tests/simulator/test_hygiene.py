"""Information hygiene of the random streams (issue #25): a policy's stream reveals no hidden card.

A policy is given its own hand, the public view, its parameters and its random stream. The deal's
stream starts at ``stream_key(seed, game, hand, STREAM_DEAL)``, a chain of ``mix64`` bijections. Had a
policy's stream been keyed the same way (as it was: ``stream_key(..., 1)``, one XOR from the deal's key
before the last ``mix64``), inverting ``mix64`` on the policy's state would give the deal's key and so
all four hands. The attack is written out here: it recovers the deal from the old keys, and finds
nothing in the states that policies are actually given, captured through the step API and from inside
the Spades and Tarot batch kernels.
"""
import random

import numpy as np
import pytest
from numba import njit

from tricksim.simulator import rng
from tricksim.simulator.games.spades import batch, kernel, phases
from tricksim.simulator.games.spades.cards import HEARTS, SPADES, card_suit
from tricksim.simulator.games.spades.kernel import deck_template
from tricksim.simulator.games.spades.policy import (
    BID_SIG,
    BLIND_NIL_SIG,
    EXCHANGE_SIG,
    PLAY_SIG,
    V_DEALER,
    V_DECK,
    V_HAND_NO,
    V_MIN_BID,
    V_TRICK_NO,
)
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.simulator.games.spades.state import SpadesState
from tricksim.simulator.games.tarot import kernel as tarot_kernel
from tricksim.simulator.games.tarot import layout as tarot_layout
from tricksim.simulator.games.tarot import phases as tarot_phases
from tricksim.simulator.games.tarot import policy as tarot_policy
from tricksim.simulator.games.tarot.policy import HAND_SIG
from tricksim.simulator.games.tarot.rules import build_rules as tarot_rules
from tricksim.strategies.registry import parse_spec

MASK = (1 << 64) - 1
GOLDEN = int(rng.GOLDEN)
MAX_DRAWS = 64  # counter offsets the attack tries: more draws than any seat makes in a hand here
OLD_STREAM_PLAY = 1  # the stream number every policy drew from before issue #25


# ------------------------------------------------------------------ SipHash against its reference
def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK


def reference_siphash24(key: bytes, msg: bytes) -> int:
    """SipHash-2-4 as specified by Aumasson & Bernstein (INDOCRYPT 2012), over bytes, with Python ints."""
    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def sipround():
        v[0] = (v[0] + v[1]) & MASK
        v[1] = _rotl(v[1], 13) ^ v[0]
        v[0] = _rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & MASK
        v[3] = _rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & MASK
        v[3] = _rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & MASK
        v[1] = _rotl(v[1], 17) ^ v[2]
        v[2] = _rotl(v[2], 32)

    full = len(msg) // 8 * 8
    blocks = [int.from_bytes(msg[i:i + 8], "little") for i in range(0, full, 8)]
    blocks.append(int.from_bytes(msg[full:], "little") | ((len(msg) & 0xFF) << 56))
    for m in blocks:
        v[3] ^= m
        sipround()
        sipround()
        v[0] ^= m
    v[2] ^= 0xFF
    for _ in range(4):
        sipround()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


# The 64-bit SipHash-2-4 test vectors of the reference implementation (github.com/veorq/SipHash,
# vectors.h, vectors_sip64 read as little-endian words): key 00 01 .. 0f, message 00 01 .. (n-1), n = 0..63.
SIP64_VECTORS = (
    0x726FDB47DD0E0E31, 0x74F839C593DC67FD, 0x0D6C8009D9A94F5A, 0x85676696D7FB7E2D,
    0xCF2794E0277187B7, 0x18765564CD99A68D, 0xCBC9466E58FEE3CE, 0xAB0200F58B01D137,
    0x93F5F5799A932462, 0x9E0082DF0BA9E4B0, 0x7A5DBBC594DDB9F3, 0xF4B32F46226BADA7,
    0x751E8FBC860EE5FB, 0x14EA5627C0843D90, 0xF723CA908E7AF2EE, 0xA129CA6149BE45E5,
    0x3F2ACC7F57C29BDB, 0x699AE9F52CBE4794, 0x4BC1B3F0968DD39C, 0xBB6DC91DA77961BD,
    0xBED65CF21AA2EE98, 0xD0F2CBB02E3B67C7, 0x93536795E3A33E88, 0xA80C038CCD5CCEC8,
    0xB8AD50C6F649AF94, 0xBCE192DE8A85B8EA, 0x17D835B85BBB15F3, 0x2F2E6163076BCFAD,
    0xDE4DAAACA71DC9A5, 0xA6A2506687956571, 0xAD87A3535C49EF28, 0x32D892FAD841C342,
    0x7127512F72F27CCE, 0xA7F32346F95978E3, 0x12E0B01ABB051238, 0x15E034D40FA197AE,
    0x314DFFBE0815A3B4, 0x027990F029623981, 0xCADCD4E59EF40C4D, 0x9ABFD8766A33735C,
    0x0E3EA96B5304A7D0, 0xAD0C42D6FC585992, 0x187306C89BC215A9, 0xD4A60ABCF3792B95,
    0xF935451DE4F21DF2, 0xA9538F0419755787, 0xDB9ACDDFF56CA510, 0xD06C98CD5C0975EB,
    0xE612A3CB9ECBA951, 0xC766E62CFCADAF96, 0xEE64435A9752FE72, 0xA192D576B245165A,
    0x0A8787BF8ECB74B2, 0x81B3E73D20B49B6F, 0x7FA8220BA3B2ECEA, 0x245731C13CA42499,
    0xB78DBFAF3A8D83BD, 0xEA1AD565322A1A0B, 0x60E61C23A3795013, 0x6606D7E446282B93,
    0x6CA4ECB15C5F91E1, 0x9F626DA15C9625F3, 0xE51B38608EF25F57, 0x958A324CEB064572,
)
VECTOR_KEY = (0x0706050403020100, 0x0F0E0D0C0B0A0908)  # the bytes 00..0f as the two little-endian key words


def test_reference_gives_the_official_vectors():
    for n, expected in enumerate(SIP64_VECTORS):
        assert reference_siphash24(bytes(range(16)), bytes(range(n))) == expected, n


def test_siphash_gives_the_official_vector_of_24_bytes():
    """The one message length the simulator hashes (three words), in this process's mode and as plain ints."""
    words = [int.from_bytes(bytes(range(i, i + 8)), "little") for i in (0, 8, 16)]
    assert int(rng.siphash24(*(np.uint64(x) for x in VECTOR_KEY), *(np.uint64(w) for w in words))) == \
        SIP64_VECTORS[24]
    assert int(rng._py_siphash24(*VECTOR_KEY, *words)) == SIP64_VECTORS[24]


# Keys in one mode of Numba: siphash24 on random words, policy_key, policy_stream_key and
# start_policy_streams on random hands and on the edges of their ranges; the function kind says the mode.
KEYS_CODE = """
import json, random, sys
import numpy as np
from tricksim.simulator import rng
r = random.Random(int(sys.argv[1]))
edges = [0, 1, (1 << 62) - 1, (1 << 63) - 1]
hands = [(r.randrange(1 << 63), r.randrange(1 << 40), r.randrange(1 << 20)) for _ in range(300)]
hands += [(a, b, c) for a in edges for b in edges for c in edges[:2]]
out = {"kind": type(rng.policy_stream_key).__name__, "sip": [], "key": [], "seat": [], "streams": []}
streams = np.zeros((5, 1), np.uint64)
for _ in range(300):
    words = [np.uint64(r.randrange(1 << 64)) for _ in range(5)]
    out["sip"].append(int(rng.siphash24(*words)))
for seed, game, hand in hands:
    out["key"].append([int(k) for k in rng.policy_key(seed)])
    out["seat"].append([int(rng.policy_stream_key(seed, game, hand, s)) for s in range(4)])
    rng.start_policy_streams(seed, game, hand, streams)
    out["streams"].append([int(x) for x in streams[:, 0]])
print(json.dumps(out))
"""


def _keys(disable_jit: str) -> dict:
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_DISABLE_JIT": disable_jit}
    done = subprocess.run([sys.executable, "-c", KEYS_CODE, "27"], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def test_no_jit_keys_are_the_compiled_keys():
    """Without the JIT, SipHash runs on plain ints (rng._py_*): the same keys as the compiled functions."""
    plain, compiled = _keys("1"), _keys("0")
    assert plain.pop("kind") == "function" and compiled.pop("kind") == "CPUDispatcher"
    assert len(plain["seat"]) == 300 + 32
    for part in plain:
        assert plain[part] == compiled[part], part


def test_siphash_is_the_reference():
    r = random.Random(25)
    for _ in range(200):
        key, msg = r.randbytes(16), r.randbytes(24)
        words = [np.uint64(int.from_bytes(msg[i:i + 8], "little")) for i in (0, 8, 16)]
        k0, k1 = (np.uint64(int.from_bytes(key[i:i + 8], "little")) for i in (0, 8))
        assert int(rng.siphash24(k0, k1, *words)) == reference_siphash24(key, msg)


def test_policy_streams_are_siphash_of_hand_and_seat():
    """Each seat's stream starts at SipHash-2-4 of (game, hand, seat) under the seed's key, whether asked
    for one seat or for a hand's seats at once."""
    r = random.Random(26)
    streams = np.zeros((4, 1), np.uint64)
    for _ in range(100):
        seed, game, hand = r.randrange(1 << 62), r.randrange(1 << 40), r.randrange(1 << 20)
        key = b"".join(int(k).to_bytes(8, "little") for k in rng.policy_key(seed))
        rng.start_policy_streams(seed, game, hand, streams)
        for seat in range(4):
            msg = b"".join(x.to_bytes(8, "little") for x in (game, hand, seat))
            assert int(rng.policy_stream_key(seed, game, hand, seat)) == reference_siphash24(key, msg)
            assert int(streams[seat, 0]) == reference_siphash24(key, msg)


# ------------------------------------------------------------------ the attack
_INV1, _INV2 = pow(int(rng.MIX1), -1, 1 << 64), pow(int(rng.MIX2), -1, 1 << 64)


def _mix64(z: int) -> int:
    return int(rng.mix64(np.uint64(z)))


def _unxorshift(z: int, s: int) -> int:
    """The y with y ^ (y >> s) == z."""
    y = z
    for _ in range(64 // s + 1):
        y = z ^ (y >> s)
    return y


def unmix64(z: int) -> int:
    """The inverse of rng.mix64 (each step is a bijection of 64-bit words)."""
    z = _unxorshift(z, 31)
    z = _unxorshift((z * _INV2) & MASK, 27)
    return _unxorshift((z * _INV1) & MASK, 30)


def old_policy_key(seed: int, game_id: int, hand_no: int) -> int:
    """Where every policy's stream started before issue #25."""
    return int(rng.stream_key(seed, game_id, hand_no, OLD_STREAM_PLAY))


def deal_keys_from(state: int):
    """The deal keys a policy holding stream state ``state`` would try, under the old derivation: the
    stream started ``n`` draws back (n = 0..MAX_DRAWS) at mix64(x ^ 1) with x = k2 ^ (hand_no << 8), and
    the deal's key is mix64(x ^ 0)."""
    for n in range(MAX_DRAWS + 1):
        x = unmix64((state - n * GOLDEN) & MASK) ^ OLD_STREAM_PLAY
        yield _mix64(x ^ rng.STREAM_DEAL)


def spades_attack(state: int, seat: int, own_hand: int, dealer: int, deck_tpl: np.ndarray):
    """The four hands as dealt, rebuilt from one policy input (its stream state, its own hand as dealt, the
    public dealer and deck), or None. Each candidate deal key is dealt by the project's own ``deal_cards``;
    the policy knows it found the deal when its own hand comes out."""
    deck, hands = np.empty(64, np.int64), np.empty(4, np.int64)
    for key in deal_keys_from(state):
        phases.deal_cards(np.array([key], np.uint64), np.int64(dealer), deck_tpl, deck, hands)
        if hands[seat] == own_hand:
            return tuple(int(h) for h in hands)
    return None


def advanced(key: int, n: int) -> int:
    """The state of a stream that started at ``key`` after ``n`` draws."""
    state = np.array([key], np.uint64)
    for _ in range(n):
        rng.next_u64(state)
    return int(state[0])


RULES = build_rules("classic")
DECK = deck_template(RULES)


class Recorder:
    """A seat policy (``SeatPolicy``'s ``params`` and ``functions``) that records every input it is given
    (seat, hand, view, stream state), then decides as ``spec`` does."""

    def __init__(self, spec: str):
        inner = parse_spec(spec)
        self.params, self.calls = inner.params, []
        blind_nil, bid, exchange, play = inner.functions

        def blind_nil_(s, view, params, r):
            self.calls.append((int(s), None, view.copy(), int(r[0])))
            return blind_nil(s, view, params, r)

        def bid_(s, hand, view, params, r):
            self.calls.append((int(s), int(hand), view.copy(), int(r[0])))
            return bid(s, hand, view, params, r)

        def exchange_(s, hand, view, params, r):
            self.calls.append((int(s), int(hand), view.copy(), int(r[0])))
            return exchange(s, hand, view, params, r)

        def play_(s, hand, legal, view, params, r):
            self.calls.append((int(s), int(hand), view.copy(), int(r[0])))
            return play(s, hand, legal, view, params, r)

        self.functions = (blind_nil_, bid_, exchange_, play_)


def play_hand(state: SpadesState, policy) -> None:
    while not state.is_terminal():
        action = state.policy_action(policy)
        for a in action if isinstance(action, list) else [action]:
            state.apply(a)


def test_the_attack_recovers_every_deal_from_the_old_keys():
    """Under the old derivation a policy rebuilds all four hands from its stream state, whatever number of
    draws (its own and the other seats') the shared stream had seen: the attack is real."""
    for game in range(60):
        st = SpadesState(RULES, seed=7, game_id=game)
        seat = (st.dealer + 1 + game) & 3
        state = advanced(old_policy_key(7, game, 0), game % MAX_DRAWS)
        got = spades_attack(state, seat, int(st.dealt[seat]), st.dealer, DECK)
        assert got == tuple(int(h) for h in st.dealt)


def test_the_attack_fails_on_the_streams_policies_are_given_step_api():
    """Every input of the first 60 decisions of random play through the step API (each seat's stream before
    and after its own draws): the attack finds no deal; on the old key of the same hand, after the same
    number of draws, it finds the deal. Each seat's first input is its own key, ``policy_stream_key``."""
    rec = Recorder("random:nil_prob=0.2,blind_nil_prob=0.3")
    hands = []
    game = 0
    while len(rec.calls) < 60:
        start = len(rec.calls)
        st = SpadesState(RULES, seed=11, game_id=game)
        play_hand(st, rec)
        hands += [(game, st)] * (len(rec.calls) - start)
        game += 1
    first_seen = set()
    for (seat, _, view, state), (game, st) in zip(rec.calls[:60], hands):
        assert view[V_DEALER] == st.dealer and view[V_DECK] == int(np.bitwise_or.reduce(1 << DECK))
        own = int(st.dealt[seat])
        assert spades_attack(state, seat, own, st.dealer, DECK) is None
        key = int(rng.policy_stream_key(11, game, 0, seat))
        n = next(n for n in range(MAX_DRAWS + 1) if advanced(key, n) == state)  # its own stream, n draws on
        if (game, seat) not in first_seen:
            assert n == 0
            first_seen.add((game, seat))
        assert spades_attack(advanced(old_policy_key(11, game, 0), n), seat, own, st.dealer, DECK) == \
            tuple(int(h) for h in st.dealt)


# a strategy that plays at random and, in the second hand of a game, returns its stream's state as its
# card: the kernel reports it as an illegal card (seat, hand and value), which is how the test reads it
@njit(BLIND_NIL_SIG)
def _peek_blind_nil(seat, view, params, r):
    return np.int64(0)


@njit(BID_SIG)
def _peek_bid(seat, hand, view, params, r):
    return max(view[V_MIN_BID], np.int64(1) + rng.rand_below(r, 3))


@njit(EXCHANGE_SIG)
def _peek_exchange(seat, hand, view, params, r):
    return np.int64(0)  # not asked: nobody bids Blind Nil


@njit(PLAY_SIG)
def _peek_play(seat, hand, legal, view, params, r):
    if view[V_HAND_NO] == 1 and view[V_TRICK_NO] >= 4:
        return np.int64(r[0])
    return rng.random_card(r, legal)


def test_the_attack_fails_on_the_streams_the_batch_kernel_gives():
    """States read from inside the batch kernel (generic per-seat kernel, games mode): each game plays a
    whole hand, then, in the second, the first seat asked for a card from the fifth trick on hands out its
    stream. The attack finds no deal in any of them; each is its seat's own stream a few draws on."""
    spec = parse_spec("random")
    pol = batch.SeatFunctions((_peek_blind_nil,) * 4, (_peek_bid,) * 4, (_peek_exchange,) * 4, (_peek_play,) * 4,
                              np.ascontiguousarray(np.stack([spec.params] * 4)), kernel.PER_SEAT)
    n_games, rows, seed = 40, 400, 20261202
    game_ids = np.arange(n_games, dtype=np.int64)
    faults = np.zeros((4, n_games), np.int64)
    kernel.kernel_for(kernel.PER_SEAT)(
        RULES.to_kernel(), pol.blind_nil, pol.bid, pol.exchange, pol.play, pol.params, pol.kind, 4, DECK,
        np.int64(seed), game_ids, np.int64(0), np.int64(10), True, False, np.empty((4, rows), np.int64),
        np.empty((8, rows), np.int64), np.empty((12, rows), np.int8), np.empty((12, rows), np.int32),
        np.empty((1, 52), np.int8), np.zeros((7, n_games), np.int64), faults)
    assert (faults[0] == kernel.ERR_PLAY).all() and (faults[1] == 1).all()
    for game in range(n_games):
        seat, state = int(faults[2, game]), int(faults[3, game]) & MASK
        st = SpadesState(RULES, seed=seed, game_id=game, hand_no=1)
        assert spades_attack(state, seat, int(st.dealt[seat]), st.dealer, DECK) is None
        key = int(rng.policy_stream_key(seed, game, 1, seat))
        assert any(advanced(key, n) == state for n in range(1, 6))  # its bid, then up to four cards


# ------------------------------------------------------------------ Tarot
TAROT = tarot_rules("cardavia")


def tarot_attack(state: int, seat: int, suits: int, trumps: int):
    """The Tarot deal (suits, trumps of each seat) rebuilt from a policy's stream state and own hand, or None."""
    deck = np.empty(78, np.int64)
    s_, t_, chien = np.empty(5, np.int64), np.empty(5, np.int64), np.empty(2, np.int64)  # room for N_SEATS
    for key in deal_keys_from(state):
        deck[:] = np.arange(78)
        rng.shuffle(np.array([key], np.uint64), deck, 78)
        tarot_phases.distribute(deck, s_, t_, chien, 4)
        if s_[seat] == suits and t_[seat] == trumps:
            return tuple(int(x) for x in s_), tuple(int(x) for x in t_)
    return None


@njit(HAND_SIG)
def _peek_tarot_bid(seat, suits, trumps, view, params, r):
    return np.int64(r[0])


def test_tarot_the_attack_works_on_old_keys_and_fails_on_the_kernels_streams():
    """Tarot: the first bidder of each deal hands out its stream (as an illegal bid). The attack rebuilds the
    deal from the old key of the same deal, and finds nothing in the stream the kernel gave."""
    spec = parse_spec("random", "tarot")
    functions = list(spec.functions)
    functions[0] = _peek_tarot_bid
    n, seed = 30, 99
    deal_ids = np.arange(n, dtype=np.int64)
    words, errors = np.empty((n, tarot_layout.N_WORDS), np.int64), np.zeros((n, 4), np.int64)
    tarot_kernel.kernel_for()(
        TAROT.to_kernel(), *((f,) * tarot_policy.N_SEATS for f in functions),
        np.ascontiguousarray(np.stack([spec.params] * tarot_policy.N_SEATS)),
        np.int64(seed), deal_ids, np.zeros((0, 78), np.int64), False, words, np.empty((n, tarot_layout.N_CODES), np.int8),
        np.empty((n, tarot_layout.N_INTS), np.int32), np.empty((1, tarot_layout.N_PLAYS), np.int8), errors)
    assert (errors[:, 0] == tarot_kernel.ERR_BID).all()
    for i in range(n):
        seat, state = int(errors[i, 2]), int(errors[i, 3]) & MASK
        assert state == int(rng.policy_stream_key(seed, i, 0, seat))
        # the deal as dealt: the kernel's words hold each seat's cards (lo = suits, hi bits = trumps)
        s_, t_, chien = np.empty(5, np.int64), np.empty(5, np.int64), np.empty(2, np.int64)
        tarot_phases.deal(np.int64(seed), np.int64(i), np.empty(78, np.int64), s_, t_, chien, np.zeros(1, np.uint64), 4)
        assert tarot_attack(state, seat, int(s_[seat]), int(t_[seat])) is None
        old = tarot_attack(old_policy_key(seed, i, 0), seat, int(s_[seat]), int(t_[seat]))
        assert old == (tuple(int(x) for x in s_), tuple(int(x) for x in t_))


# ------------------------------------------------------------------ the streams are apart
def _draws_apart(a: int, b: int) -> int:
    """How many draws stream b is ahead of stream a (mod 2**64), taken the short way round."""
    d = ((b - a) * pow(GOLDEN, -1, 1 << 64)) & MASK
    return min(d, (1 << 64) - d)


def test_each_seat_has_its_own_stream_apart_from_the_deal():
    """Through the step API: the four seats' streams at their first decisions are four different states,
    none within 2**40 draws of another or of the deal's stream, in many hands."""
    rec = Recorder("random")
    for game in range(25):
        calls = len(rec.calls)
        st = SpadesState(RULES, seed=3, game_id=game)
        play_hand(st, rec)
        first = {}
        for seat, _, _, state in rec.calls[calls:]:
            first.setdefault(seat, state)
        assert sorted(first) == [0, 1, 2, 3]
        keys = list(first.values()) + [int(rng.stream_key(3, game, 0, rng.STREAM_DEAL))]
        for i in range(5):
            for j in range(i + 1, 5):
                assert _draws_apart(keys[i], keys[j]) > 1 << 40


def _first_inputs(st: SpadesState):
    rec = Recorder("heuristic")
    st.policy_action(rec)
    (seat, hand, view, state), = rec.calls
    return seat, hand, view.tobytes(), state, st.observation(seat)


@pytest.mark.parametrize("preset", ["cardems", "classic"])
def test_hidden_cards_do_not_reach_a_policy(preset):
    """Two deals that agree on the first bidder's hand and differ in every other seat's: everything the
    seat is given at its first decision (seat, hand, view, stream state; the step API's observation too)
    is equal bit for bit. Classic offers Blind Nil, decided before the seat sees its cards; cardems does not."""
    r = random.Random(5)
    rules = build_rules(preset)
    for game in range(12):
        a = SpadesState(rules, seed=17, game_id=game)
        b = SpadesState(rules, seed=17, game_id=game)
        seat = a.current_player()
        others = [s for s in range(4) if s != seat]
        cards = [c for s in others for c in range(54) if (int(a.hands[s]) >> c) & 1]
        r.shuffle(cards)
        for k, s in enumerate(others):
            b.hands[s] = sum(1 << c for c in cards[13 * k:13 * k + 13])
        assert all(a.hands[s] != b.hands[s] for s in others) and a.hands[seat] == b.hands[seat]
        (sa, ha, va, ra, oa), (sb, hb, vb, rb, ob) = _first_inputs(a), _first_inputs(b)
        assert (sa, ha, va, ra) == (sb, hb, vb, rb)
        assert (ha is None) == rules.blind_nil
        assert (oa.hand, oa.view.tobytes()) == (ob.hand, ob.view.tobytes())


# ------------------------------------------------------------------ hidden cards, mid-hand: the history and the record
def _swap_hidden(hands, seat, excluded, masks):
    """Two seats other than ``seat`` and one card each of a suit both still hold (none of ``excluded``): the
    swap that changes hidden cards only. Returns (x, y, card of x, card of y) or None."""
    others = [s for s in range(len(hands)) if s != seat]
    for i, x in enumerate(others):
        for y in others[i + 1:]:
            for m in masks:
                cx, cy = int(hands[x]) & m & ~excluded, int(hands[y]) & m & ~excluded
                if cx and cy:
                    return x, y, (cx & -cx).bit_length() - 1, (cy & -cy).bit_length() - 1
    return None


@pytest.mark.parametrize("preset", ["cardems", "classic"])
def test_hidden_cards_do_not_reach_a_policy_mid_hand(preset):
    """Mid-hand, with the view's public history and rules record filled in: a hand played by the heuristic to
    the first choice from the third card of the sixth trick on, and the same hand dealt with one card of a suit
    swapped between two other seats that still hold that suit (so every action taken is as legal), replayed
    action for action.
    Everything the seat to act is given (seat, hand, view, stream state; its observation) is equal bit for bit."""
    from tricksim.simulator.games.spades.cards import SUIT_MASKS
    from tricksim.simulator.games.spades.state import Phase

    rules = build_rules(preset)
    heuristic = parse_spec("heuristic")  # draws no random number: the streams agree without its calls in b
    checked = 0
    for game in range(10):
        a = SpadesState(rules, seed=23, game_id=game)
        while not a.is_terminal() and not (a.phase == Phase.PLAY and len(a.plays) >= 4 * 5 + 2
                                           and len(a.legal_actions()) > 1):
            decision = a.policy_action(heuristic)
            for action in decision if isinstance(decision, list) else [decision]:
                a.apply(action)
        if a.is_terminal():
            continue
        seat = a.current_player()
        passed = sum(1 << e.action for e in a.events if e.phase == Phase.EXCHANGE)
        swap = _swap_hidden(a.hands, seat, passed, [int(m) for m in SUIT_MASKS])
        if swap is None:
            continue
        x, y, cx, cy = swap
        b = SpadesState(rules, seed=23, game_id=game)
        b.hands[x] ^= (1 << cx) | (1 << cy)
        b.hands[y] ^= (1 << cx) | (1 << cy)
        for e in a.events:
            b.apply(e.action)
        assert b.hands[x] != a.hands[x] and b.hands[seat] == a.hands[seat] and b.plays == a.plays
        (sa, ha, va, ra, oa), (sb, hb, vb, rb, ob) = _first_inputs(a), _first_inputs(b)
        assert (sa, ha, va, ra) == (sb, hb, vb, rb)
        assert (oa.hand, oa.view.tobytes()) == (ob.hand, ob.view.tobytes())
        checked += 1
    assert checked >= 5


def test_tarot_hidden_cards_do_not_reach_a_policy_mid_deal():
    """Tarot, the same: a deal played by the heuristic to the first choice from the second card of the fifth
    trick on, and the same deal
    with one plain-suit card swapped between two seats that are neither the taker nor the seat to act and still
    hold that suit, replayed action for action: the seat to act is given bit-identical inputs (its hand, the
    view with the chien, poignées, bids and plays shown, the rules record, its stream state)."""
    from tricksim.simulator.games.tarot.cards import SUIT_CARDS
    from tricksim.simulator.games.tarot.state import Phase, TarotState

    heuristic = parse_spec("heuristic", "tarot")
    calls = []

    def wrap(fn):
        def call(*args):
            calls.append(tuple(int(x) for x in args[:-3]) + (args[-3].tobytes(), int(args[-1][0])))
            return fn(*args)
        return call

    class Seat:
        params = heuristic.params
        functions = tuple(wrap(f) for f in heuristic.functions)

    def inputs(st):
        calls.clear()
        st.policy_action(Seat)
        obs = st.observation(st.current_player())
        return calls[0], obs.suits, obs.trumps, obs.view.tobytes()

    masks = [((1 << SUIT_CARDS) - 1) << (SUIT_CARDS * u) for u in range(4)]
    checked = 0
    for deal in range(20):
        a = TarotState(TAROT, seed=29, deal_id=deal)
        while not a.is_terminal() and not (a.phase == Phase.PLAY and len(a.plays) >= 4 * 4 + 1
                                           and len(a.legal_actions()) > 1):
            a.apply(a.policy_action(heuristic))
        if a.is_terminal():
            continue
        seat = a.current_player()
        swap = _swap_hidden([a.suits[s] if s != a.taker else 0 for s in range(4)], seat, 0, masks)
        if swap is None:
            continue
        x, y, cx, cy = swap
        b = TarotState(TAROT, seed=29, deal_id=deal)
        b.suits[x] ^= (1 << cx) | (1 << cy)
        b.suits[y] ^= (1 << cx) | (1 << cy)
        for e in a.events:
            b.apply(e.action)
        assert b.suits[x] != a.suits[x] and b.plays == a.plays
        assert inputs(a) == inputs(b)
        checked += 1
    assert checked >= 5


# ------------------------------------------------------------------ the broken flag
def _spade_lead_inputs(only_spades: bool):
    """breaking=false, forced_spade_lead_breaks=true: the leader leads the A♠ holding 13 spades, or 12 spades
    and a heart (the 2♠ then with its partner). Returns what the next seat is given after the lead, its
    observation and the other opponent's."""
    rules = build_rules("cardems", ["breaking=false", "forced_spade_lead_breaks=true"])
    st = SpadesState(rules, seed=0, game_id=0)
    for _ in range(4):
        st.apply(st.legal_actions()[-1])
    leader = st.current_player()
    nxt, partner, last = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
    suit = [[c for c in range(52) if card_suit(c) == u] for u in range(4)]
    hands = {leader: suit[SPADES], nxt: suit[0], partner: suit[HEARTS], last: suit[1]}
    if not only_spades:
        hands[leader] = hands[leader][1:] + [suit[HEARTS][0]]
        hands[partner] = hands[partner][1:] + [suit[SPADES][0]]
    for s, held in hands.items():
        st.hands[s] = sum(1 << c for c in held)
    st.apply(51)  # the A♠
    rec = Recorder("random")
    st.policy_action(rec)  # the next seat, whose hand is the same either way
    (seat, hand, view, state), = rec.calls
    assert seat == nxt
    return (seat, hand, view.tobytes(), state), st.observation(nxt).view.tobytes(), \
        st.observation(last).view.tobytes()


def test_a_spade_lead_shows_nothing_of_the_leaders_hand():
    """With breaking=false a spade may be led at any time, so whether the leader held only spades is its own
    secret: the seats whose hands are the same are given bit-identical inputs either way."""
    assert _spade_lead_inputs(True) == _spade_lead_inputs(False)
