"""Seeded engine runs replayed through the plain-Python reference (tests/reference_spades.py).

For every rule set below, runs in both modes (300 hands; 15-30 games, see
SIZES) with the ``random`` strategy (Nil 20 %, Blind Nil 30 % when offered)
and the ``simple`` strategy are checked row by row: the deal, bid legality, the Blind Nil exchange, the
first leader, every card's legality, the trick winners, scores, bags, totals
and the end of each game. The replay also counts what it saw, and the
coverage tests below fail if a run did not exercise what it is meant to (so a
run that never bids Nil or never sets a contract cannot pass vacuously). The
negative tests corrupt single cells of real output and check the reference
catches each one, naming the field.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np
import pyarrow as pa
import pytest
import reference_spades as ref

from tricksim.simulator import engine
from tricksim.simulator.games.spades.rules import build_rules
from tricksim.strategies.registry import parse_spec

RANDOM = "random:nil_prob=0.2,blind_nil_prob=0.3"
SIMPLE = "simple"
HEURISTIC = "heuristic"  # compiled into a kernel of its own: its plays are replayed like every other
# Run sizes. "small" runs by default (~10-20 s for the file once compiled); "large" is
# the same matrix, bigger, under the `slow` marker. Random players rarely reach 500, so their games
# stop at the hand limit (or by mercy); simple players mostly reach the target, and a hand limit
# above the engine's rows per game (GAME_ROWS) lets long games continue in further kernel calls.
SIZES = {
    "small": {"hands": 300, "games": {RANDOM: 30, SIMPLE: 15, HEURISTIC: 15, "mixed": 30},
              "hand_limit": {RANDOM: 15, SIMPLE: 64, HEURISTIC: 64, "mixed": 64}},
    "large": {"hands": 2000, "games": {RANDOM: 60, SIMPLE: 60, HEURISTIC: 60, "mixed": 60},
              "hand_limit": {RANDOM: 60, SIMPLE: 200, HEURISTIC: 200, "mixed": 200}},
}

# name -> (preset, overrides)
CONFIGS = {
    "cardems": ("cardems", ()),
    "zone": ("zone", ()),
    "classic": ("classic", ()),
    "jokers": ("cardems", ("jokers=true",)),
    "jokers_2c2d_classic": ("classic", ("jokers=true", "joker_removes=2c2d")),
    "two_of_clubs": ("zone", ("first_lead=two_of_clubs",)),
    "min_team_bid_4": ("zone", ("min_team_bid=4",)),
    "classic_trailing": ("classic", ("blind_nil_eligibility=trailing",)),
    "zone_mercy_300": ("zone", ("mercy=-200", "target=300")),
    # every scoring flag away from its default at once
    "odd_scoring": ("classic", ("nil_bags_when_set=false", "bag_limit=5", "bag_penalty=50", "bag_points=2",
                                "nil_trick_points=3", "nil_value=60", "blind_nil_value=150",
                                "blind_nil_exchange=2", "exchange_order=bidder_first")),
    "contract_reset": ("classic", ("nil_tricks=contract", "bag_overflow=reset", "mercy=-300",
                                   "mercy_check=before_target", "target=250", "forced_spade_lead_breaks=false",
                                   "blind_nil_exchange=0")),
    "no_nil": ("zone", ("nil=false", "first_lead=two_of_clubs", "jokers=true")),
    # spades led at any time (the 2♣ still opens), with a forced spade lead breaking spades
    "no_breaking": ("classic", ("breaking=false", "first_lead=two_of_clubs")),
    # the bidding variants (issue #28): the three presets, then ten for two hundred and zero bids
    "suicide": ("suicide", ()),
    "whiz": ("whiz", ()),
    "mirror": ("mirror", ()),
    "big_bid_zero": ("cardems", ("big_bid_threshold=7", "big_bid_value=150", "big_bid_set=value", "zero_bid=zero")),
    "whiz_jokers_big": ("whiz", ("jokers=true", "big_bid_threshold=10", "blind_nil=true", "nil_tricks=contract")),
    "suicide_classic": ("suicide", ("blind_nil=true", "blind_nil_exchange=3", "min_team_bid=4")),
    # the joker decks (docs/rules.md "Decks"): each on another preset, one with its own removed 2s
    "deck_joker_ace_2c2h": ("zone", ("deck=joker_ace", "joker_removes=2c2h")),
    "deck_joker_deuce_ace": ("classic", ("deck=joker_deuce_ace",)),
    "deck_joker_deuce_deuce": ("cardems", ("deck=joker_deuce_deuce",)),
    # Whiz bids the spades held: the 2♦ counts as one
    "deck_joker_deuce_deuce_whiz": ("whiz", ("deck=joker_deuce_deuce", "joker_removes=2c2h")),
}

RUNS = [(config, strategy, mode) for config in CONFIGS for strategy in (RANDOM, SIMPLE, HEURISTIC)
        for mode in ("hands", "games")]
# a mixed table: team 0 plays simple, team 1 random; many small shards
MIXED = ("classic", "mixed", "games")


def _seats(strategy):
    if strategy == "mixed":
        return tuple(parse_spec(s) for s in (SIMPLE, RANDOM, SIMPLE, RANDOM))
    return tuple(parse_spec(strategy) for _ in range(4))


def _seed(config, strategy, mode, size):
    # a different seed for every run, stable across sessions
    return (1000 + 10 * list(CONFIGS).index(config) + 2 * (strategy != RANDOM) + (mode == "games")
            + 5 * (size == "large") + 100_000 * (strategy == HEURISTIC))


def simulate(config, strategy, mode, size="small"):
    """(rules, seed, hand_limit, count, hands, games) of one engine run (computed once per session)."""
    return _simulate(config, strategy, mode, size)


def replayed(config, strategy, mode, size="small") -> Counter:
    """The reference's replay of one run: what it exercised (computed once per session)."""
    return _replayed(config, strategy, mode, size)


@lru_cache(maxsize=None)
def _simulate(config, strategy, mode, size):
    preset, overrides = CONFIGS[config]
    rules = build_rules(preset, list(overrides))
    seed = _seed(config, strategy, mode, size)
    sizes = SIZES[size]
    count = sizes["hands"] if mode == "hands" else sizes["games"][strategy]
    hand_limit = sizes["hand_limit"][strategy] if mode == "games" else 1
    extra = {"shard_size": 7} if strategy == "mixed" else {}
    cfg = engine.RunConfig(rules=rules, seats=_seats(strategy), seed=seed, mode=mode, count=count,
                           hand_limit=hand_limit, record_plays=True, **extra)
    tables = engine.run_to_tables(cfg)
    hands, games = tables["hands"], tables.get("games")
    return rules, seed, hand_limit, count, hands, games


@lru_cache(maxsize=None)
def _replayed(config, strategy, mode, size) -> Counter:
    rules, seed, hand_limit, count, hands, games = simulate(config, strategy, mode, size)
    return ref.replay(rules, seed, mode, hand_limit, hands, games, count=count)


def _id(run):
    config, strategy, mode = run
    return f"{config}-{strategy.split(':')[0]}-{mode}"


# ----------------------------------------------------------------- the reference's own machinery
def test_reference_rng_matches_simulator_rng():
    """The reference's SplitMix64 (Python ints) gives the same numbers as simulator/rng.py."""
    from simulator import rng

    for seed, game, hand in [(0, 0, 0), (1, 5, 3), (2**40 + 7, 123456, 999), (12345, 7, 255), (2**62, 2**40, 300)]:
        key = rng.stream_key(seed, game, hand, 0)
        assert int(key) == ref.stream_key(seed, game, hand, 0)
        state = np.array([key], dtype=np.uint64)
        mine = ref.Stream(int(key))
        for n in [1, 2, 3, 13, 52, 2**31 - 1] * 5:
            assert rng.rand_below(state, n) == mine.below(n)
        if hasattr(rng, "shuffle"):  # the deal's shuffle, card for card
            deck = np.arange(54, dtype=np.int64)
            rng.shuffle(np.array([key], dtype=np.uint64), deck, 52)
            mine_deck = list(range(52))
            ref.shuffle(ref.Stream(int(key)), mine_deck)
            assert deck[:52].tolist() == mine_deck


@pytest.mark.parametrize("config", list(CONFIGS))
def test_reference_deal_is_a_partition(config):
    preset, overrides = CONFIGS[config]
    rules = build_rules(preset, list(overrides))
    deck = ref.deck_for(rules)
    assert len(deck) == 52 and deck == sorted(deck)
    if rules.jokers:
        assert {52, 53} <= set(deck)
    for game in range(5):
        hands = ref.deal(rules, seed=3, game_id=game, hand_no=0, dealer=game % 4)
        assert [len(h) for h in hands] == [13, 13, 13, 13]
        assert set().union(*hands) == set(deck)


def test_reference_trick_winner():
    from tricksim.simulator.games.spades.cards import parse_card as card

    # leader is seat 2; cards in play order
    assert ref.trick_winner(2, [card(x) for x in ("TH", "AH", "2S", "KH")]) == 0    # the only spade (seat 0)
    assert ref.trick_winner(2, [card(x) for x in ("TH", "AD", "9H", "KH")]) == 1    # off-suit ace loses
    assert ref.trick_winner(1, [card(x) for x in ("AS", "LJ", "KS", "BJ")], "joker_ace") == 0  # big joker (seat 0)
    assert ref.trick_winner(3, [card(x) for x in ("AS", "LJ", "KS", "2S")], "joker_ace") == 0  # little joker > ace


# ----------------------------------------------------------------- replays
@pytest.mark.parametrize("run", RUNS + [MIXED], ids=_id)
def test_engine_run_replays(run):
    check_run(*run, "small")


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS + [MIXED], ids=_id)
def test_engine_run_replays_large(run):
    check_run(*run, "large")


def check_run(config, strategy, mode, size):
    stats = replayed(config, strategy, mode, size)
    rules, seed, hand_limit, count, hands, games = simulate(config, strategy, mode, size)
    if mode == "hands":
        assert stats["hands"] == count == SIZES[size]["hands"]
    else:
        assert stats["games"] == count == SIZES[size]["games"][strategy]
    assert stats["sets"] > 0
    assert stats["trumps"] > 0
    if strategy == RANDOM and rules.nil and rules.zero_bid == "zero":
        assert stats["zero_bids"] > 0 and stats["nil_bids"] == 0
    elif strategy == RANDOM and rules.nil:
        assert stats["nil_bids"] > 0
        assert stats["nil_failed"] > 0
    if not rules.nil:
        assert stats["nil_bids"] == stats["blind_nil_bids"] == 0
    if strategy == RANDOM and rules.blind_nil and rules.blind_nil_eligibility == "always":
        assert stats["blind_nil_bids"] > 0
        if rules.blind_nil_exchange > 0:
            assert stats["exchanges"] > 0 and stats["cards_exchanged"] > 0
    if not rules.blind_nil:
        assert stats["blind_nil_bids"] == 0


def _total(*configs, strategies=(RANDOM, SIMPLE), modes=("hands", "games")) -> Counter:
    total = Counter()
    for config in configs:
        for strategy in strategies:
            for mode in modes:
                total += replayed(config, strategy, mode)
    return total


def test_runs_exercise_the_rules():
    """The replays above saw every situation they are meant to check."""
    everything = _total(*CONFIGS) + replayed(*MIXED)
    for key in ("nil_made", "nil_failed", "blind_nil_made", "blind_nil_failed", "both_nil_teams", "exchanges",
                "bag_penalties", "multiple_penalty_hands", "sets", "forced_spade_leads", "end_target", "end_limit",
                "end_mercy"):
        assert everything[key] > 0, f"no {key} in any replayed run: {dict(everything)}"

    classic = _total("classic")
    assert classic["blind_nil_bids"] > 0 and classic["exchanges"] > 0 and classic["bag_penalties"] > 0

    # the trailing rule: Blind Nil only when behind, which happens in games (never in a fresh hand)
    trailing_hands = _total("classic_trailing", modes=("hands",))
    trailing_games = _total("classic_trailing", modes=("games",))
    assert trailing_hands["blind_nil_bids"] == 0
    assert trailing_games["trailing_blind_nil_bids"] > 0

    assert _total("jokers")["jokers_played"] > 0
    assert _total("jokers_2c2d_classic")["jokers_played"] > 0
    assert _total("two_of_clubs")["two_of_clubs_leads"] > 0
    # the minimum team bid binds: some teams bid exactly 4 together
    assert _total("min_team_bid_4")["team_bids_at_minimum"] > 0
    assert _total("zone_mercy_300")["end_mercy"] > 0
    assert _total("zone")["bag_penalties"] > 0  # reset overflow
    assert _total("odd_scoring")["multiple_penalty_hands"] > 0  # bag_limit=5 with carry
    # spades led by choice before they are broken: only without breaking, and there often
    assert _total("no_breaking")["spade_leads_before_broken"] > 0
    assert _total("no_breaking", strategies=(RANDOM,))["forced_spade_leads"] > 0
    # the bidding variants: every team of a Suicide hand has exactly one Nil; Whiz and Mirror bid the spade count
    suicide = _total("suicide")
    assert suicide["suicide_teams_one_nil"] == 2 * suicide["suicide_bids"] // 4 > 0
    mirror = _total("mirror")
    assert mirror["bids_of_spade_count"] == mirror["mirror_bids"] > 0
    whiz = _total("whiz")
    assert 0 < whiz["bids_of_spade_count"] < whiz["whiz_bids"] and whiz["nil_made"] > 0
    big = _total("big_bid_zero")
    assert big["zero_bids"] > 0 and big["nil_bids"] == 0 and big["big_bids_made"] > 0 and big["big_bids_set"] > 0
    assert _total("whiz_jokers_big")["big_bids_made"] > 0
    assert _total("suicide_classic")["blind_nil_bids"] > 0
    # the decks: the promoted 2s are played and win tricks as the deck orders them
    assert _total("deck_joker_ace_2c2h")["tricks_won_by_BJ"] > 0
    deuce_ace = _total("deck_joker_deuce_ace")
    assert deuce_ace["tricks_won_by_2S"] > 0 and deuce_ace["tricks_won_by_LJ"] > 0
    for config in ("deck_joker_deuce_deuce", "deck_joker_deuce_deuce_whiz"):
        deuce_deuce = _total(config)
        assert deuce_deuce["two_of_diamonds_as_spade"] > 0 and deuce_deuce["tricks_won_by_2D"] > 0
    assert _total("deck_joker_deuce_deuce_whiz")["bids_of_spade_count"] > 0
    others = [c for c in CONFIGS if c != "no_breaking"]
    assert (_total(*others) + replayed(*MIXED))["spade_leads_before_broken"] == 0


# ----------------------------------------------------------------- negative tests
def _rows(table):
    return table.to_pylist()


def _table(rows, like):
    return pa.Table.from_pylist(rows, schema=like.schema)


def _replay_rows(run, rows=None, game_rows=None):
    rules, seed, hand_limit, count, hands, games = simulate(*run)
    hands_t = hands if rows is None else _table(rows, hands)
    games_t = games if game_rows is None else _table(game_rows, games)
    return ref.replay(rules, seed, run[2], hand_limit, hands_t, games_t, count=count)


CLASSIC_HANDS = ("classic", RANDOM, "hands")
CLASSIC_GAMES = ("classic", SIMPLE, "games")


def test_unchanged_tables_round_trip():
    """Rebuilding a table from rows (as the negative tests do) changes nothing by itself."""
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    _replay_rows(CLASSIC_HANDS, rows)
    _replay_rows(CLASSIC_GAMES, _rows(simulate(*CLASSIC_GAMES)[4]), _rows(simulate(*CLASSIC_GAMES)[5]))


def _caught(run, match, rows=None, game_rows=None):
    with pytest.raises(ref.ReplayError, match=match):
        _replay_rows(run, rows, game_rows)


def test_detects_a_card_played_twice():
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    rows[17]["plays"][5] = rows[17]["plays"][0]
    _caught(CLASSIC_HANDS, r"hand 17 .*trick 1, card 1 .*does not hold it", rows)


def test_detects_a_renege():
    """A follower who followed suit in trick 0 plays, instead, a card of another suit it held."""
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    for r, row in enumerate(rows):
        plays = row["plays"]
        leader = row["first_leader"]
        led = ref.suit_of(plays[0])
        for i in (1, 2, 3):
            seat = (leader + i) % 4
            held = ref.cards_in(row[f"held_{seat}"])
            if ref.suit_of(plays[i]) != led:
                continue
            other = [c for c in held if ref.suit_of(c) != led]
            if other:
                q = plays.index(other[0])
                plays[i], plays[q] = plays[q], plays[i]
                _caught(CLASSIC_HANDS, rf"hand {r} .*trick 0, card {i} .*illegal: legal were", rows)
                return
    pytest.fail("no trick 0 with a renege opportunity")


def test_detects_an_early_spade_lead():
    """The first leader leads a spade although spades are not broken and it holds other suits."""
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    for r, row in enumerate(rows):
        plays = row["plays"]
        held = ref.cards_in(row[f"held_{row['first_leader']}"])
        spades = [c for c in held if ref.suit_of(c) == ref.SPADES]
        if spades and len(spades) < len(held) and ref.suit_of(plays[0]) != ref.SPADES:
            q = plays.index(spades[0])
            plays[0], plays[q] = plays[q], plays[0]
            _caught(CLASSIC_HANDS, rf"hand {r} .*trick 0, card 0 .*spades broken: False", rows)
            return
    pytest.fail("no hand to corrupt")


def test_detects_a_spade_led_before_breaking_when_breaking_is_on():
    """The rows of a breaking=false run, replayed as the breaking=true run they are not: the first spade led
    by choice before spades are broken is caught."""
    run = ("no_breaking", RANDOM, "hands")
    rules, seed, hand_limit, count, hands, _ = simulate(*run)
    assert ref.replay(rules, seed, "hands", hand_limit, hands, count=count)["spade_leads_before_broken"] > 0
    with pytest.raises(ref.ReplayError, match=r"hand \d+ .*trick \d+, card 0 \(.S by seat \d\) is illegal: legal "
                                              r"were .*spades broken: False"):
        ref.replay(rules.replace(breaking=True), seed, "hands", hand_limit, hands, count=count)


def test_detects_a_spade_led_to_the_first_trick_instead_of_the_two_of_clubs_without_breaking():
    run = ("no_breaking", RANDOM, "hands")
    rows = _rows(simulate(*run)[4])
    for r, row in enumerate(rows):
        plays = row["plays"]
        assert plays[0] == ref.TWO_OF_CLUBS
        held = ref.cards_in(row[f"held_{row['first_leader']}"])
        spades = [c for c in held if ref.suit_of(c) == ref.SPADES]
        if spades:
            q = plays.index(spades[0])
            plays[0], plays[q] = plays[q], plays[0]
            _caught(run, rf"hand {r} .*trick 0, card 0 .*illegal: legal were 2C ", rows)
            return
    pytest.fail("no hand to corrupt")


def test_rules_without_the_breaking_flag_mean_breaking_true():
    """A manifest's rules written before the flag existed (no ``breaking`` key) replay as breaking=true."""
    from types import SimpleNamespace

    rules, seed, hand_limit, count, hands, _ = simulate(*CLASSIC_HANDS)
    old = rules.to_dict()
    del old["breaking"]
    old_rules = SimpleNamespace(**old)
    assert ref.replay(old_rules, seed, "hands", hand_limit, hands, count=count)["hands"] == count
    rules_nb, seed_nb, limit_nb, count_nb, hands_nb, _ = simulate("no_breaking", RANDOM, "hands")
    old = rules_nb.to_dict()
    del old["breaking"]
    with pytest.raises(ref.ReplayError, match=r"is illegal: legal were .*spades broken: False"):
        ref.replay(SimpleNamespace(**old), seed_nb, "hands", limit_nb, hands_nb, count=count_nb)


@pytest.mark.parametrize("overrides, hand, led, broken, first, legal", [
    # leading, spades not broken, other suits held: no spade with breaking, any card without
    ((), ("AS", "2S", "5H", "KD"), None, False, False, ("5H", "KD")),
    (("breaking=false",), ("AS", "2S", "5H", "KD"), None, False, False, ("AS", "2S", "5H", "KD")),
    ((), ("AS", "2S", "5H", "KD"), None, True, False, ("AS", "2S", "5H", "KD")),
    # only spades: a spade either way
    ((), ("AS", "2S"), None, False, False, ("AS", "2S")),
    (("breaking=false",), ("AS", "2S"), None, False, False, ("AS", "2S")),
    # the first trick under first_lead=two_of_clubs: the 2♣ either way
    (("first_lead=two_of_clubs",), ("2C", "AS", "3H"), None, False, True, ("2C",)),
    (("first_lead=two_of_clubs", "breaking=false"), ("2C", "AS", "3H"), None, False, True, ("2C",)),
    (("breaking=false",), ("2C", "AS", "3H"), None, False, True, ("2C", "AS", "3H")),
    # following is not touched by the flag
    (("breaking=false",), ("AS", "5H", "KD"), ref.HEARTS, False, False, ("5H",)),
    (("breaking=false",), ("AS", "KD"), ref.HEARTS, False, False, ("AS", "KD")),
])
def test_reference_legal_cards_follow_the_breaking_flag(overrides, hand, led, broken, first, legal):
    from tricksim.simulator.games.spades.cards import parse_card as card

    rules = build_rules("cardems", list(overrides))
    got = ref.legal_cards(rules, {card(c) for c in hand}, led, broken, first_trick=first)
    assert got == {card(c) for c in legal}


@pytest.mark.parametrize("field, delta", [("score_0", 1), ("score_1", -10), ("bags_0", 1), ("bags_1", -1),
                                          ("total_0", 100), ("tricks_2", 1)])
def test_detects_a_wrong_number(field, delta):
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    rows[42][field] += delta
    if field.startswith("bags") and rows[42][field] < 0:
        rows[42][field] += 2 * abs(delta)
    _caught(CLASSIC_HANDS, rf"hand 42 .*{field} = ", rows)


def _swap_lowest(row, key_a, key_b):
    """Swap the lowest card of mask column key_a with the lowest of key_b in one row."""
    a, b = ref.cards_in(row[key_a]), ref.cards_in(row[key_b])
    x, y = min(a), min(b)
    row[key_a] = ref.mask_from((a - {x}) | {y})
    row[key_b] = ref.mask_from((b - {y}) | {x})


def test_detects_a_wrong_deal():
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    _swap_lowest(rows[3], "dealt_0", "dealt_1")
    _caught(CLASSIC_HANDS, r"hand 3 .*dealt_0 = ", rows)


def test_detects_held_cards_changed_without_an_exchange():
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    for r, row in enumerate(rows):
        if not any(row[f"blind_{s}"] for s in range(4)):
            _swap_lowest(row, "held_0", "held_2")
            _caught(CLASSIC_HANDS, rf"hand {r} .*held_0 .* without a Blind Nil exchange", rows)
            return
    pytest.fail("no hand without a Blind Nil")


def test_detects_too_many_cards_exchanged():
    """A Blind Nil exchange that moves 4 cards each way under blind_nil_exchange=3."""
    rows = _rows(simulate(*CLASSIC_HANDS)[4])
    for r, row in enumerate(rows):
        for team in (0, 1):
            a, b = team, team + 2
            if row[f"blind_{a}"] != row[f"blind_{b}"]:
                ha, hb = ref.cards_in(row[f"held_{a}"]), ref.cards_in(row[f"held_{b}"])
                da = ref.cards_in(row[f"dealt_{a}"])
                kept_a = sorted(ha & da)  # cards of a's deal still with a: move 4 of them over
                kept_b = sorted(hb - da)
                if len(kept_a) >= 4 and len(kept_b) >= 4:
                    move_a, move_b = set(kept_a[:4]), set(kept_b[:4])
                    row[f"held_{a}"] = ref.mask_from((ha - move_a) | move_b)
                    row[f"held_{b}"] = ref.mask_from((hb - move_b) | move_a)
                    _caught(CLASSIC_HANDS, rf"hand {r} .*blind_nil_exchange=3 but", rows)
                    return
    pytest.fail("no exchange to corrupt")


def test_detects_illegal_bids():
    # a Blind Nil under cardems (no Blind Nil)
    run = ("cardems", RANDOM, "hands")
    rows = _rows(simulate(*run)[4])
    rows[0]["bid_0"], rows[0]["blind_0"] = 0, True
    _caught(run, r"hand 0 .*bid_0=0 blind_0=True is illegal: Blind Nil is not allowed", rows)

    # a Nil under nil=false
    run = ("no_nil", RANDOM, "hands")
    rows = _rows(simulate(*run)[4])
    rows[5]["bid_2"] = 0
    _caught(run, r"hand 5 .*bid_2=0 .*Nil is not allowed", rows)

    # a team bidding 3 in all under min_team_bid=4: lower the second bidder's bid
    run = ("min_team_bid_4", RANDOM, "hands")
    rows = _rows(simulate(*run)[4])
    for r, row in enumerate(rows):
        order = ref.bidding_order(row["dealer"])
        for team in (0, 1):
            first, second = sorted((team, team + 2), key=order.index)
            if row[f"bid_{first}"] in (1, 2) and row[f"bid_{second}"] > 0:
                row[f"bid_{second}"] = 3 - row[f"bid_{first}"]
                _caught(run, rf"hand {r} .*min_team_bid=4", rows)
                return
    pytest.fail("no team to corrupt")


def _first_bidders(row):
    """(first, second) bidder of each team of a hand row, in bidding order."""
    order = ref.bidding_order(row["dealer"])
    return [tuple(sorted((team, team + 2), key=order.index)) for team in (0, 1)]


def test_detects_illegal_variant_bids():
    """An illegal bid planted in a bidding variant's data is caught, naming the rule it breaks."""
    # Suicide: the second bidder of a team bids a number after a numeric partner (two Nils are caught below)
    run = ("suicide", RANDOM, "hands")
    rows = _rows(simulate(*run)[4])
    first, second = _first_bidders(rows[3])[0]
    if rows[3][f"bid_{first}"] != 0:
        rows[3][f"bid_{second}"] = 2
        _caught(run, rf"hand 3 .*bid_{second}=2 .*Suicide: .*must bid Nil", rows)
    else:
        rows[3][f"bid_{second}"] = 0
        _caught(run, rf"hand 3 .*bid_{second}=0 .*Suicide: .*may not", rows)
    # Whiz: a number other than the spade count
    for config in ("whiz", "mirror"):
        run = (config, SIMPLE, "hands")
        rows = _rows(simulate(*run)[4])
        spades = len([c for c in ref.cards_in(rows[4]["dealt_1"]) if ref.suit_of(c) == ref.SPADES])
        rows[4]["bid_1"] = spades + 1
        _caught(run, rf"hand 4 .*bid_1={spades + 1} .*{config}: the hand holds {spades} spades", rows)
    # Mirror: a Nil with spades in hand
    run = ("mirror", RANDOM, "hands")
    rows = _rows(simulate(*run)[4])
    for r, row in enumerate(rows):
        if row["bid_2"] > 0:
            row["bid_2"] = 0
            _caught(run, rf"hand {r} .*bid_2=0 .*mirror: the hand holds", rows)
            return
    pytest.fail("no hand to corrupt")


def test_detects_a_blind_nil_while_not_trailing():
    run = ("classic_trailing", RANDOM, "games")
    rules, seed, hand_limit, count, hands, games = simulate(*run)
    rows = _rows(hands)
    row = next(r for r in rows if r["game_id"] == 0 and r["hand_no"] == 0)  # 0-0: nobody trails
    row["bid_1"], row["blind_1"] = 0, True
    _caught(run, r"game 0 hand 0: bid_1=0 blind_1=True is illegal: seat 1 may not bid Blind Nil", rows)


def test_detects_a_wrong_first_leader():
    run = ("two_of_clubs", SIMPLE, "hands")
    rows = _rows(simulate(*run)[4])
    rows[9]["first_leader"] = (rows[9]["first_leader"] + 1) % 4
    _caught(run, r"hand 9 .*first_leader = ", rows)


def test_detects_wrong_game_results():
    games = _rows(simulate(*CLASSIC_GAMES)[5])
    g = next(i for i, row in enumerate(games) if row["end"] == "target")
    games[g]["winner"] = 1 - games[g]["winner"]
    _caught(CLASSIC_GAMES, rf"game {g} \(games table\): winner = ", game_rows=games)

    games = _rows(simulate(*CLASSIC_GAMES)[5])
    games[g]["end"] = "mercy"
    _caught(CLASSIC_GAMES, rf"game {g} \(games table\): end = ", game_rows=games)


def test_detects_a_game_that_stops_early_or_runs_on():
    hands = _rows(simulate(*CLASSIC_GAMES)[4])
    games = _rows(simulate(*CLASSIC_GAMES)[5])
    # drop the last hand of game 4: the game then stops before it has ended
    last = max(r["hand_no"] for r in hands if r["game_id"] == 4)
    shorter = [r for r in hands if not (r["game_id"] == 4 and r["hand_no"] == last)]
    _caught(CLASSIC_GAMES, r"game 4 .*(has not ended|hands = )", shorter, games)
    # a game that ended by target, continued by a copy of its last hand
    g = next(row["game_id"] for row in games if row["end"] == "target")
    last_row = max((r for r in hands if r["game_id"] == g), key=lambda r: r["hand_no"])
    extra = dict(last_row, hand_no=last_row["hand_no"] + 1)
    _caught(CLASSIC_GAMES, rf"game {g} hand {extra['hand_no']}: the game had already ended", hands + [extra], games)


def test_same_tables_whatever_the_threads_and_shards():
    """Counter-based streams: one thread or many, big or small shards, the same rows."""
    rules, seed, hand_limit, count, hands, games = simulate(*MIXED)  # shard_size=7, all threads
    cfg = engine.RunConfig(rules=rules, seats=_seats("mixed"), seed=seed, mode="games", count=count,
                           hand_limit=hand_limit, record_plays=True)
    tables = engine.run_to_tables(cfg, threads=1)
    one_hands, one_games = tables["hands"], tables.get("games")  # the default shard size
    assert one_games.equals(games)
    assert one_hands.equals(hands)


# ----------------------------------------------------------------- the decks
def test_reference_trick_winner_by_deck():
    """Hand-worked from docs/rules.md "Decks": the promoted 2s rank as their deck says."""
    from tricksim.simulator.games.spades.cards import parse_card as card

    trick = [card(x) for x in ("AS", "2S", "KS", "3S")]  # leader seat 0
    assert ref.trick_winner(0, trick, "joker_ace") == 0         # A♠ tops the naturals
    assert ref.trick_winner(0, trick, "joker_deuce_ace") == 1   # 2♠ > A♠
    trick = [card(x) for x in ("AS", "2D", "KS", "3S")]
    assert ref.trick_winner(0, trick, "joker_deuce_ace") == 0   # a 2♦ is a diamond there: discarded
    assert ref.trick_winner(0, trick, "joker_deuce_deuce") == 1  # 2♦ > A♠
    trick = [card(x) for x in ("TD", "2D", "KD", "2S")]  # ♦ led
    assert ref.trick_winner(2, trick, "joker_deuce_ace") == 1   # 2♠ trumps
    assert ref.trick_winner(2, trick, "joker_deuce_deuce") == 1  # 2♠ > 2♦, both trumps
    assert ref.trick_winner(2, [card(x) for x in ("TD", "2D", "KD", "3C")], "joker_deuce_deuce") == 3  # 2♦ trumps
    assert ref.trick_winner(2, [card(x) for x in ("2S", "LJ", "2D", "BJ")], "joker_deuce_deuce") == 1  # BJ


def _tricks(row, deck):
    """(trick number, its four cards, its leader) of one hand row, the leaders re-derived by the reference."""
    leader = row["first_leader"]
    for t in range(13):
        trick = row["plays"][4 * t: 4 * t + 4]
        yield t, trick, leader
        leader = ref.trick_winner(leader, trick, deck)


def _two_of_diamonds_swap(rows):
    """(row, trick, position, index of the 2♦ in plays) of a follower under joker_deuce_deuce who followed a
    diamond lead with a diamond while holding the 2♦ (played by the same seat later): playing the 2♦ there
    instead is a renege, the 2♦ being a spade."""
    deck = "joker_deuce_deuce"
    for r, row in enumerate(rows):
        seat_of = {}
        for t, trick, leader in _tricks(row, deck):
            for k, c in enumerate(trick):
                seat_of[4 * t + k] = (leader + k) % 4
        if ref.TWO_OF_DIAMONDS not in row["plays"]:
            continue
        later = row["plays"].index(ref.TWO_OF_DIAMONDS)
        for t, trick, _ in _tricks(row, deck):
            if 4 * t >= later or ref.suit_of(trick[0], deck) != ref.DIAMONDS:
                continue
            for k in (1, 2, 3):
                if ref.suit_of(trick[k], deck) == ref.DIAMONDS and seat_of[4 * t + k] == seat_of[later]:
                    return r, t, k, later
    return None


def test_detects_a_two_of_diamonds_played_as_a_diamond():
    run = ("deck_joker_deuce_deuce", SIMPLE, "hands")
    rows = _rows(simulate(*run)[4])
    found = _two_of_diamonds_swap(rows)
    assert found, "no hand to corrupt"
    r, t, i, later = found
    plays = rows[r]["plays"]
    plays[4 * t + i], plays[later] = plays[later], plays[4 * t + i]
    _caught(run, rf"hand {r} .*trick {t}, card {i} \(2D by seat .*illegal: legal were", rows)


def test_detects_a_two_of_diamonds_led_as_a_diamond_before_spades_break():
    """Under joker_deuce_deuce the 2♦ is a spade: leading it to the first trick, holding a side suit, is illegal."""
    run = ("deck_joker_deuce_deuce", RANDOM, "hands")
    rows = _rows(simulate(*run)[4])
    for r, row in enumerate(rows):
        plays = row["plays"]
        held = ref.cards_in(row[f"held_{row['first_leader']}"])
        if ref.TWO_OF_DIAMONDS in held and plays[0] != ref.TWO_OF_DIAMONDS:
            q = plays.index(ref.TWO_OF_DIAMONDS)
            plays[0], plays[q] = plays[q], plays[0]
            _caught(run, rf"hand {r} .*trick 0, card 0 \(2D .*spades broken: False", rows)
            return
    pytest.fail("no hand to corrupt")


@pytest.mark.parametrize("config", ["deck_joker_deuce_ace", "deck_joker_deuce_deuce"])
def test_detects_a_trick_given_to_the_ace_over_a_promoted_two(config):
    """A trick the 2♠ (or the 2♦) won over the A♠, credited to the A♠ instead (the standard order), is caught."""
    run = (config, SIMPLE, "hands")
    rows = _rows(simulate(*run)[4])
    deck = config.removeprefix("deck_")
    ace = 51
    for r, row in enumerate(rows):
        for _, trick, leader in _tricks(row, deck):
            winner = ref.trick_winner(leader, trick, deck)
            if trick[(winner - leader) % 4] in (ref.TWO_OF_SPADES, ref.TWO_OF_DIAMONDS) and ace in trick:
                ace_seat = (leader + trick.index(ace)) % 4
                row[f"tricks_{winner}"] -= 1
                row[f"tricks_{ace_seat}"] += 1
                _caught(run, rf"hand {r}\b.*: tricks_\d = ", rows)
                return
    pytest.fail("no hand to corrupt")
