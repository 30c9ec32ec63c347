"""``simple`` (spades) as the registry lists it: name, description, parameters; its policies live in
``tricksim.strategies.spades.simple``, imported (and compiled) only when a run first uses them."""
from tricksim.strategies.registry import Param, Strategy, register

STRATEGY = register(Strategy(
    name="simple",
    description="baseline heuristic: count sure tricks, win cheaply, duck under partner",
    policies="tricksim.strategies.spades.simple",
    params=(Param("nil", 1.0, "bid Nil with no sure tricks and no spade above the 9 (1 = on, 0 = off)",
                  lo=0, hi=1, switch=True),
            Param("force_nil", 0.0, "always bid Nil when allowed (for what-if studies)", lo=0, hi=1, switch=True)),
))
