"""high: always the highest legal card."""
from tricksim.strategies.registry import Strategy, register

STRATEGY = register(Strategy(name="high", game="toy", description="the highest legal card",
                             policies={"play": lambda legal: max(legal)}))
