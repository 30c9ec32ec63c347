"""low: always the lowest legal card."""
from tricksim.strategies.registry import Strategy, register

STRATEGY = register(Strategy(name="low", game="toy", description="the lowest legal card",
                             policies={"play": lambda legal: min(legal)}))
