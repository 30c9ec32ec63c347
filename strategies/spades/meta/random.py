"""``random`` (spades) as the registry lists it: name, description, parameters; its policies live in
``tricksim.strategies.spades.random``, imported (and compiled) only when a run first uses them."""
from tricksim.strategies.registry import Param, Strategy, register

STRATEGY = register(Strategy(
    name="random",
    description="uniformly random legal card; random bids around 3 tricks",
    policies="tricksim.strategies.spades.random",
    params=(
        Param("bid_p", 0.25, "each of the hand's coin flips (13 at four players) adds one to the bid with this "
              "probability times 4 / players", lo=0, hi=1),
        Param("nil_prob", 0.05, "probability of bidding Nil when allowed", lo=0, hi=1),
        Param("blind_nil_prob", 0.0, "probability of bidding Blind Nil when offered", lo=0, hi=1),
    ),
))
