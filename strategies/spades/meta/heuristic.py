"""``heuristic`` (spades) as the registry lists it: name, description, parameters; its policies live in
``tricksim.strategies.spades.heuristic``, imported (and compiled) only when a run first uses them."""
from tricksim.strategies.registry import Param, Strategy, register

# the order is the parameter vector's: the policies derive their indices from it
PARAMS = (
    Param("bid_adjust", -0.3, "tricks added to the hand's estimate before rounding (negative = cautious)", lo=-5, hi=5),
    Param("nil", 1.0, "bid Nil when allowed and the hand is safe enough (1 = on, 0 = off)", lo=0, hi=1, switch=True),
    Param("nil_threshold", 6.0, "bid Nil when the hand's danger score is at most this (0: only very safe hands; "
          "6: Nils that succeed about 60 % of the time at the margin)", lo=-5, hi=50),
    Param("nil_over_nil", 0.0, "also bid Nil when the partner already bid Nil (1 = yes)", lo=0, hi=1, switch=True),
    Param("blind_nil", 1.0, "bid Blind Nil when offered and trailing by blind_nil_margin (1 = on, 0 = off)",
          lo=0, hi=1, switch=True),
    Param("blind_nil_margin", 100.0, "points the team must trail by before bidding Blind Nil "
          "(negative: also when ahead)", lo=-100000, hi=100000),
    Param("bag_mode", 3.0, "once the contract is safe: take = keep winning, avoid = duck overtricks, "
          "set = win while the opponents can still be set, else avoid; set_take = the same, else take",
          choices=("take", "avoid", "set_take", "set")),
    Param("bag_guard", 3.0, "take and set_take modes: duck overtricks (as avoid) once the next one would leave "
          "the team within this many bags of the bag limit (set_take: once the opponents can no longer be set); "
          "avoid and set duck them anyway", lo=0, hi=1000),
    Param("near_target", 100.0, "points from the target within which bids are shaded by target_caution",
          lo=0, hi=100000),
    Param("target_caution", 0.0, "tricks taken off the estimate near the target (0: measured best)", lo=-5, hi=5),
    Param("king_value", 0.75, "tricks for a guarded side-suit king in a suit of 2-4 cards (less when longer)",
          lo=0, hi=2),
    Param("queen_value", 0.33, "tricks for a side-suit queen with two guards in a suit of 3-4 cards", lo=0, hi=2),
    Param("long_spade", 1.0, "scale of the value of spade length (fitted table: 4 spades 0.97, 5 1.60, 6 2.39 tricks)",
          lo=0, hi=3),
    Param("void_value", 0.55, "tricks for a void side suit with a spare low spade (0.7 of it again with a second)",
          lo=0, hi=3),
    Param("singleton_value", 0.55, "tricks for a singleton side suit with a spare low spade", lo=0, hi=2),
    Param("doubleton_value", 0.23, "tricks for a doubleton side suit with a spare low spade", lo=0, hi=2),
    Param("cover_nil", 1.0, "cover the partner's Nil (lead high, overtake the partner) (1 = on)",
              lo=0, hi=1, switch=True),
    Param("attack_nil", 1.0, "attack an opponent's Nil (lead low, stay under the Nil bidder) (1 = on)",
              lo=0, hi=1, switch=True),
    Param("second_hand_cash", 1.0, "second hand cashes a master card instead of playing low (1 = on)",
              lo=0, hi=1, switch=True),
    Param("cover_bid", 0.5, "tricks added to the estimate when the partner bid Nil", lo=-5, hi=5),
    Param("opp_nil_bid", 0.0, "tricks added to the estimate when an opponent already bid Nil", lo=-5, hi=5),
    Param("force_nil", 0.0, "always bid Nil when allowed (for what-if studies: tricksim nil --what-if)",
              lo=0, hi=1, switch=True),
    Param("zero_contract", 1.0, "with zero_bid=zero: bid 0 (a zero-trick contract) when the estimate rounds to 0 "
          "(1 = on; 0 = bid at least 1, as before issue #28's review)", lo=0, hi=1, switch=True),
    Param("big_bid", 1.0, "with big_bid_threshold (ten for two hundred): the team's last bidder raises the team to "
          "the threshold when that contract's expected score beats the team's own (1 = on, 0 = off)",
          lo=0, hi=1, switch=True),
)

STRATEGY = register(Strategy(
    name="heuristic",
    description="score-aware player: honour/length/ruff bidding, Nil by danger score, card counting, "
                "second hand low / third hand high, Nil cover and attack, bag control",
    policies="tricksim.strategies.spades.heuristic", params=PARAMS,
))
