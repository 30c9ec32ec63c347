"""``random`` (tarot) as the registry lists it: name, description, parameters; its policies live in
``tricksim.strategies.tarot.random``, imported (and compiled) only when a run first uses them."""
from tricksim.strategies.registry import Param, Strategy, register

STRATEGY = register(Strategy(
    name="random",
    description="uniformly random legal choice at every decision, bids included",
    policies="tricksim.strategies.tarot.random",
    params=(Param("chelem_prob", 0.5, "probability that a taker announces Chelem", lo=0, hi=1),),
    game="tarot",
))
