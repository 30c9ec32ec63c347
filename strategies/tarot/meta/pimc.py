"""``pimc`` (tarot) as the registry lists it: name, description, parameters; its policies live in
``tricksim.strategies.tarot.pimc``, imported (and compiled) only when a run first uses them."""
from tricksim.strategies.registry import Param, Strategy, register

# the order is the parameter vector's: the policies derive their indices from it
PARAMS = (
    Param("samples", 1000.0, "sampled deals per card decision; each legal card is played out once on each", lo=1,
          hi=4096),
    Param("playouts", 50000.0, "most play-outs per card decision (samples x legal cards): with many legal cards "
          "fewer deals are sampled (at least one)", lo=1, hi=1e9),
    Param("stream", 0.0, "seed stream offset: another value draws other samples from the same run seed",
          lo=0, hi=2 ** 31 - 1),
    Param("tries", 20.0, "deals started per sample before the seats' shown voids are dropped (a deal meeting them "
          "all was not found)", lo=1, hi=10000),
    Param("bids", 1.0, "the bid by the same search (1 = on), each bid played out to the end of the deal (every "
          "later decision the heuristic's); 0: the heuristic's bid", switch=True),
    Param("discard", 1.0, "each discard card by the same search (1 = on); 0: the heuristic's discard", switch=True),
    Param("call", 1.0, "the call, five players, by the same search (1 = on); 0: the heuristic's call", switch=True),
    Param("deal_playouts", 4000.0, "most play-outs of a whole deal per bid or discard decision (samples x "
          "candidates)", lo=1, hi=1e9),
)

STRATEGY = register(Strategy(
    name="pimc",
    description="Perfect Information Monte Carlo: samples the hidden hands consistent with the table, plays each "
                "legal card, bid or discard card out with the heuristic on every deal, chooses the best mean deal "
                "score",
    policies="tricksim.strategies.tarot.pimc",
    params=PARAMS,
    game="tarot",
))
