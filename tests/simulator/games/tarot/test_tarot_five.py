"""Tarot for five with the called king (the FFT's game, preset ``fft5``: docs/rules.md) on the one engine (#27).

The batch kernel and the step API with ``seats`` 5: runs replayed by the plain-Python reference
(tests/reference_tarot.py, written from the rules text) with corruption tests, a chosen deal scored by hand,
the deal against exact laws, the call as a policy decision, and the partner hidden from every other seat until
the called card is played (an attack on the view).
"""
from __future__ import annotations

from math import comb
from types import SimpleNamespace

import numpy as np
import pytest
import reference_tarot as ref
from tarot_runs import announce_triple_poignee, run_deals, seat0_oudlers_law

from tricksim.simulator.games.tarot import batch, phases
from tricksim.simulator.games.tarot.cards import EXCUSE, FIRST_TRUMP, cards_in
from tricksim.simulator.games.tarot.policy import V_CALLED, V_PARTNER, V_TAKER_HALF
from tricksim.simulator.games.tarot.rules import PRESETS, TarotRules, build_rules
from tricksim.simulator.games.tarot.state import Phase, TarotState
from tricksim.strategies.registry import parse_spec

KING = 13


def Five(**flags) -> TarotRules:
    return TarotRules(seats=5, **flags)


def run5(strategy: str, n: int, seed: int = 7, record_plays: bool = True, rules=None):
    return run_deals(rules or Five(), strategy, n, seed, record_plays)


def test_fft5_is_five_seats_with_the_call_flags():
    assert PRESETS["fft5"] == Five() and build_rules("fft5").seats == 5
    d = Five().to_dict()
    assert d["seats"] == 5 and d["call_own"] == "allowed" and d["call_four_kings"] == "lower_rank"
    assert TarotRules.from_dict(d) == Five()
    # the call's flags stay out of three- and four-player manifests
    assert "call_own" not in TarotRules().to_dict() and "call_own" not in TarotRules(seats=3).to_dict()
    assert TarotRules.from_dict(TarotRules().to_dict()) == TarotRules()


def test_the_deals_table_has_five_seats_the_call_and_zero_sum_scores():
    t = run5("random", 400)
    names = t.column_names
    assert {"score_4", "strategy_4", "dealt_lo_4", "called", "partner", "partner_revealed"} <= set(names)
    assert not [c for c in names if c.endswith("_5")]
    rows = t.to_pylist()
    with_partner = alone = 0
    for row in rows:
        scores = [row[f"score_{s}"] for s in range(5)]
        assert sum(scores) == 0 and row["dealer"] == row["deal_id"] % 5
        hands = [set(cards_in(row[f"dealt_lo_{s}"], row[f"dealt_hi_{s}"])) for s in range(5)]
        assert [len(h) for h in hands] == [15] * 5 and len(cards_in(row["chien_lo"], row["chien_hi"])) == 3
        if row["void"]:
            assert (row["called"], row["partner"], row["partner_revealed"]) == (-1, -1, -1)
            continue
        assert len(row["plays"]) == 75
        taker, partner = row["taker"], row["partner"]
        t_ = -scores[(set(range(5)) - {taker, partner}).pop()]  # a defender's -t
        if partner >= 0:
            with_partner += 1
            assert scores[taker] == 2 * t_ and scores[partner] == t_
            assert row["called"] in hands[partner]
        else:
            alone += 1
            assert scores[taker] == 4 * t_
            assert row["called"] in hands[taker] | set(cards_in(row["chien_lo"], row["chien_hi"]))
    assert with_partner > 100 and alone > 20


@pytest.mark.parametrize("strategy", ["random", "heuristic"])
def test_five_player_runs_replay_through_the_reference(strategy):
    t = run5(strategy, 500, seed=11)
    stats = ref.replay_table(t, Five(), plays_required=True)
    assert stats["played"] > 200 and stats["called_partner"] > 100 and stats["partner_revealed"] > 100
    assert stats["poignee"] > 0


@pytest.mark.parametrize("flags", [{"call_own": "forbidden"}, {"call_four_kings": "lower_rank_or_king"},
                                   {"excuse_last_trick_side": "trick_winner", "target_oudlers": "held",
                                    "poignee_hand": "as_dealt", "discard_trumps": "free"}])
def test_five_player_runs_with_other_flags_replay(flags):
    rules = Five(**flags)
    t = run5("random", 300, seed=5, rules=rules)
    stats = ref.replay_table(t, rules, plays_required=True)
    assert stats["played"] > 100
    if flags.get("call_own") == "forbidden":
        assert stats["called_own"] == 0


def _first_played(t):
    return next(r for r in t.to_pylist() if r["void"] == 0 and r["partner"] >= 0)


@pytest.mark.parametrize("corrupt, column", [
    (lambda r: r.update(partner=(r["partner"] + 1) % 5 if (r["partner"] + 1) % 5 != r["taker"]
                        else (r["partner"] + 2) % 5), "partner"),
    (lambda r: r.update(partner_revealed=(r["partner_revealed"] + 1) % 15), "partner_revealed"),
    (lambda r: r.update(called=(r["called"] + 14) % 56 if r["called"] % 14 == KING else 0), "called"),
    (lambda r: r.update(called=r["called"] - 1), "called"),  # a queen while kings are out
])
def test_the_reference_catches_a_corrupted_call(corrupt, column):
    row = _first_played(run5("random", 60))
    ref.replay_deal(row, Five())
    bad = dict(row)
    corrupt(bad)
    with pytest.raises(ref.ReferenceMismatch) as e:
        ref.replay_deal(bad, Five())
    assert e.value.field in (column, "partner", "called", "partner_revealed", f"score_{row['taker']}") \
        or e.value.field.startswith("score_")


def test_the_reference_catches_a_four_player_settlement_on_a_five_player_deal():
    row = _first_played(run5("random", 60))
    taker, partner = row["taker"], row["partner"]
    bad = dict(row)
    t = row[f"score_{partner}"]
    bad[f"score_{taker}"], bad[f"score_{partner}"] = 4 * t, -t  # the taker alone against four
    with pytest.raises(ref.ReferenceMismatch, match="score_"):
        ref.replay_deal(bad, Five())


def test_oudlers_per_hand_and_petit_sec_follow_the_exact_laws():
    """Seat 0's 15 cards of the 78 hold k of the 3 oudlers with P(k) = C(3,k) C(75,15-k) / C(78,15): by hand
    P(0) = 63*62*61 / (78*77*76) = 0.5206 and P(3) = 15*14*13 / (78*77*76) = 0.00596. Petit sec (a hand whose
    only trump is the Petit, no Excuse): the hand holds the Petit and its 14 other cards among the 56 suit cards,
    P = C(56,14) / C(77,14) for one hand; five hands are disjoint events but for two hands holding the Petit,
    so the deal is void with probability 5 C(56,14) / C(78,15) = 5 * 15/78 * C(56,14)/C(77,14)."""
    n = 20_000
    t = run5("random", n, seed=3, record_plays=False)
    exact, chi2 = seat0_oudlers_law(t, 15)
    assert abs(exact[0] - 63 * 62 * 61 / (78 * 77 * 76)) < 1e-12 and abs(exact[3] - 15 * 14 * 13 / (78 * 77 * 76)) < 1e-12
    assert chi2 < 16.27  # the 0.1% point of chi-square with 3 degrees of freedom
    p_sec = 5 * comb(56, 14) / comb(78, 15)
    assert abs(p_sec - 5 * 15 / 78 * comb(56, 14) / comb(77, 14)) < 1e-15
    voids = int((t.column("void").to_numpy() == phases.VOID_PETIT_SEC).sum())
    sd = (n * p_sec * (1 - p_sec)) ** 0.5
    assert abs(voids - n * p_sec) < 4 * sd, (voids, n * p_sec)


def chosen_deck():
    """Seat 0: trumps 7..21 (15 cards); seat 1: trumps 1..6 (the Petit among them), the Excuse, K♣ and the clubs
    ace..7 (15); seats 2, 3, 4: the other suit cards in id order (15 each); the chien: the last three."""
    seat0 = [FIRST_TRUMP + n for n in range(6, 21)]
    seat1 = [FIRST_TRUMP + n for n in range(6)] + [EXCUSE, 13] + list(range(7))
    rest = [c for c in range(56) if c not in seat1]
    return seat0 + seat1 + rest


def test_a_chosen_five_player_deal_scored_by_hand():
    """Deal 4 (dealer 4: seat 0 speaks first and leads). Seat 0 bids Garde sans, the others pass; it calls K♣,
    held by seat 1: its partner. No Chelem; seat 0 shows a triple poignée (13 trumps of its 15, worth 40; five
    players: 8 / 10 / 13). Seat 0 leads T21 down to T7 (15 tricks); every other seat plays its lowest legal card:
    seat 1 its trumps T1..T6 on tricks 0-5 (the Petit on trick 0), then the clubs ace..7 (tricks 6-12), K♣ on
    trick 13 (the partner shows itself) and the Excuse on the last trick 14. Seat 0 wins every trick.

    By hand (docs/rules.md, five players): the Excuse played to the last trick goes to the side opposite its
    owner (the partner: the taker's side), so the defence gets its 4.5 points, the taker's side everything else,
    chien included (Garde sans): 91 - 4.5 = 86.5 points. Oudlers counted for the side: the Petit and the Monde
    (trick 0), not the Excuse: 2, target 41. |86.5 - 41| = 45.5, rounded up 46: base (25 + 46) x 4 = 284. No petit
    au bout (the Petit fell on trick 0). The triple poignée +40 to the side that won. Every trick to the taker's
    side, unannounced: +200. t = 284 + 40 + 200 = 524: the taker 2 x 524 = 1048, the partner 524, each of the
    three defenders -524."""
    st = TarotState(Five(), seed=0, deal_id=4, deck=chosen_deck())
    assert st.dealer == 4 and st.current_player() == 0
    st.apply(ref.GARDE_SANS + 78)
    for _ in range(4):
        st.apply(78)
    assert (st.taker, st.contract, st.phase) == (0, 3, Phase.CALL)
    assert st.legal_actions() == [13, 27, 41, 55]  # the four kings
    st.apply(13)
    assert (st.called, st.partner) == (13, 1)
    view = st.observation(2).view
    assert view[V_CALLED] == 13 and view[V_PARTNER] == -1  # the call is public, its holder is not
    assert announce_triple_poignee(st) == 13
    for t, lead in enumerate(range(FIRST_TRUMP + 20, FIRST_TRUMP + 5, -1)):
        assert st.current_player() == 0
        st.apply(lead)
        for _ in range(4):
            st.apply(st.legal_actions()[0])
        known = st.observation(3).view[V_PARTNER]
        assert known == (1 if t >= 13 else -1), t
        if t < 13:
            assert st.observation(3).view[V_TAKER_HALF] == 0  # the side's points would show who is partner
    assert st.is_terminal() and list(st.trick_winner) == [0] * 15
    assert st.partner_revealed == 13
    assert (st.taker_half, st.oudlers, st.target, st.won, st.petit_au_bout, st.slam) == (173, 2, 41, 1, 0, 1)
    assert st.poignee() == 40
    assert st.scores() == (1048, 524, -524, -524, -524)


def _deck_of(hands, chien):
    return [c for h in hands for c in sorted(h)] + sorted(chien)


def test_no_seat_learns_the_partner_before_the_called_card_is_played():
    """The attack: move the called card from its holder P to another hidden hand Q (swapping a card of Q's
    back), replay the same actions, and compare what a third seat R (neither the taker, P nor Q) is shown and
    decides at each of its decisions before the called card (or the swapped card) is played: the view must be
    the same array and R's strategy's decision the same. The same test on the revealed deal fails once the
    card is played (the view names the partner), so the comparison can tell."""
    heuristic = parse_spec("heuristic", "tarot")
    compared = decks = 0
    for deal_id in range(60):
        a = TarotState(Five(), seed=31, deal_id=deal_id)
        actions = []
        while not a.is_terminal():
            x = a.policy_action(heuristic)
            actions.append((a.current_player(), a.phase, x))
            a.apply(x)
        if a.taker < 0 or a.partner < 0:
            continue
        taker, p, called = a.taker, a.partner, a.called
        hands = [set(card for card in range(78) if (int(a.dealt[0][s]) >> card) & 1 or
                     (card >= FIRST_TRUMP and (int(a.dealt[1][s]) >> (card - FIRST_TRUMP)) & 1))
                 for s in range(5)]
        chien = set(range(78)) - set().union(*hands)
        q = next(s for s in range(5) if s not in (taker, p))
        r = next(s for s in range(5) if s not in (taker, p, q))
        d = min(c for c in hands[q] if c < FIRST_TRUMP and c != called)
        hands_b = [set(h) for h in hands]
        hands_b[p] = hands[p] - {called} | {d}
        hands_b[q] = hands[q] - {d} | {called}
        deck_a = _deck_of(hands, chien)
        deck_b = _deck_of(hands_b, chien)
        sa = TarotState(Five(), seed=31, deal_id=deal_id, deck=deck_a)
        sb = TarotState(Five(), seed=31, deal_id=deal_id, deck=deck_b)
        decks += 1
        for seat, phase, x in actions:
            if seat == r and sa.phase == Phase.PLAY and sa.view[V_PARTNER] < 0:
                assert (sa.observation(r).view == sb.observation(r).view).all(), (deal_id, seat)
                assert sb.policy_action(heuristic) == sa.policy_action(heuristic) == x
                compared += 1
            if x not in sb.legal_actions() or x in (called, d) and phase == Phase.PLAY:
                break
            sa.apply(x)
            sb.apply(x)
        assert sb.partner in (q, -1) or sb.taker != taker
    assert decks > 10 and compared > 30, (decks, compared)


def test_the_call_is_asked_of_the_strategy_and_an_illegal_call_is_a_fault():
    from numba import njit

    from tricksim.simulator.family import PolicyFault
    from tricksim.simulator.games.tarot.policy import HAND_SIG
    from tricksim.strategies.registry import SeatStrategy, Strategy
    from tricksim.strategies.tarot import random as random_strategy

    @njit(HAND_SIG)
    def call_a_trump(seat, suits, trumps, view, params, rng):
        return np.int64(FIRST_TRUMP + 3)

    base = random_strategy.STRATEGY
    bad = SeatStrategy(Strategy(name="badcall", description="test", policies={**base.policies, "call": call_a_trump},
                                params=base.params, game="tarot"))
    cfg = SimpleNamespace(rules=Five(), seats=[bad] * 5, seed=1, record_plays=False)
    with pytest.raises(PolicyFault, match="illegal call 59"):
        batch.compute(cfg, np.arange(20, dtype=np.int64), workers=1)


def test_the_rank_called_goes_down_with_four_kings():
    kings = sum(1 << (u * 14 + 13) for u in range(4))
    queens = sum(1 << (u * 14 + 12) for u in range(4))
    r = Five().to_kernel()
    assert phases.call_rank(np.int64(0)) == 13 and phases.call_rank(np.int64(kings)) == 12
    assert phases.call_rank(np.int64(kings | queens)) == 11
    assert phases.call_legal(r.call_own, r.call_four_kings, np.int64(kings)) == queens
    own = Five(call_own="forbidden").to_kernel()
    assert phases.call_legal(own.call_own, own.call_four_kings, np.int64(1 << 13)) == kings & ~(1 << 13)
    alt = Five(call_four_kings="lower_rank_or_king").to_kernel()
    assert phases.call_legal(alt.call_own, alt.call_four_kings, np.int64(kings)) == queens | kings
    assert ref.call_problem({13, 27, 41, 55}, 13) is not None and ref.call_problem({13, 27, 41, 55}, 12) is None


def test_fft5_from_the_command_line(tmp_path):
    """The fft5 preset end to end: simulate (a seat of each strategy), the table replayed, summary, report, the
    bidding study and its what-if, the rules listing with the seat count; a sixth seat is a one-line error
    (exit 2)."""
    import pyarrow.parquet as pq
    from click.testing import CliRunner

    from tricksim.cli import cli

    def invoke(*args):
        return CliRunner().invoke(cli, [str(a) for a in args])

    r = invoke("simulate", "tarot", "--preset", "fft5", "--deals", 200, "--seat", "2=random", "--record-plays",
               "--out", tmp_path / "t", "--quiet")
    assert r.exit_code == 0, r.output
    table = pq.read_table(tmp_path / "t" / "deals")
    assert [c for c in table.column_names if c.startswith("score_")] == [f"score_{s}" for s in range(5)]
    assert {"called", "partner", "partner_revealed"} <= set(table.column_names)
    ref.replay_table(table, PRESETS["fft5"], plays_required=True)
    r = invoke("summary", tmp_path / "t")
    assert r.exit_code == 0 and "tarot, preset fft5" in r.stdout.splitlines()[0], r.output
    r = invoke("report", tmp_path / "t", "--out", tmp_path / "rep")
    assert r.exit_code == 0, r.output
    r = invoke("bidding", tmp_path / "t", "--by", "trumps")
    assert r.exit_code == 0 and "garde" in r.stdout.lower(), r.output
    r = invoke("bidding", tmp_path / "t", "--what-if", 20)
    assert r.exit_code == 0, r.output
    r = invoke("rules", "tarot", "--preset", "fft5")
    assert r.exit_code == 0 and r.stdout.splitlines()[2].split()[:2] == ["seats", "5"], r.output
    assert "call_own" in r.stdout
    r = invoke("rules", "tarot")
    assert r.stdout.splitlines()[2].split()[:4] == ["seats", "4", "3", "5"], r.output
    r = invoke("simulate", "tarot", "--preset", "fft5", "--deals", 10, "--seat", "5=random", "--out", tmp_path / "x",
               "--quiet")
    assert r.exit_code == 2 and r.stderr.startswith("Error: ") and r.stderr.count("\n") == 1, r.output
    assert "seat 5 does not exist: seats are 0 to 4" in r.stderr


def test_the_heuristic_knows_the_sides_only_as_far_as_the_view_and_its_hand_tell():
    """``heuristic.opponents``: before the called card (K♣ here) is played, the taker counts every other seat an
    opponent, its holder the taker its only ally, any other seat the taker its only opponent; once it is played
    (``V_PARTNER``), the taker and the partner against the three others. Bits: seat p is bit p."""
    from tricksim.simulator.games.tarot.policy import R_SEATS, V_RULES, V_TAKER, VIEW_SIZE
    from tricksim.strategies.tarot.heuristic import opponents

    v = np.zeros(VIEW_SIZE, np.int64)
    v[V_RULES:] = list(Five().to_kernel())
    assert v[V_RULES + R_SEATS] == 5
    v[V_TAKER], v[V_CALLED], v[V_PARTNER] = 0, 13, -1
    king, other = np.int64(1 << 13), np.int64(1 << 2)
    bits = lambda *seats: sum(1 << s for s in seats)  # noqa: E731
    assert opponents(0, other, v) == bits(1, 2, 3, 4)
    assert opponents(2, king, v) == bits(1, 3, 4)        # the secret partner
    assert opponents(3, other, v) == bits(0)             # a defender: only the taker known
    v[V_PARTNER] = 2
    assert opponents(0, other, v) == bits(1, 3, 4) and opponents(3, other, v) == bits(0, 2)
    assert opponents(2, np.int64(0), v) == bits(1, 3, 4)
