"""``pimc`` (spades) as the registry lists it: name, description, parameters; its policies live in
``tricksim.strategies.spades.pimc``, imported (and compiled) only when a run first uses them."""
from tricksim.strategies.registry import Param, Strategy, register

# the order is the parameter vector's: the policies derive their indices from it
PARAMS = (
    Param("samples", 16.0, "sampled deals per card decision", lo=1, hi=1024),
    Param("depth", 7.0, "search the hand score when at most this many tricks are left (the one being played "
          "included)", lo=1, hi=13),
    Param("trick_depth", 0.0, "search the trick count (no Nil alive) when at most this many tricks are left; "
          "earlier, and with a Nil alive beyond depth, the heuristic plays (0: never)", lo=0, hi=13),
    Param("nil_depth", 0.0, "with a Nil alive: search whether it is made when at most this many tricks are left "
          "(beyond depth; the heuristic breaks ties) (0: never)", lo=0, hi=13),
    Param("nodes", 5e6, "solver nodes per decision: sampling stops once the solved samples reach it (at least one "
          "is solved)", lo=1, hi=1e15),
    Param("stream", 0.0, "seed stream offset: another value draws other samples from the same run seed",
          lo=0, hi=2 ** 31 - 1),
    Param("bid_mode", 0.0, "heuristic: the heuristic's bids and Nil; search: from sampled deals solved double-dummy",
          choices=("heuristic", "search")),
    Param("bid_samples", 8.0, "sampled deals per bid (bid_mode=search)", lo=1, hi=1024),
    Param("bid_adjust", -0.5, "bid_mode=search: tricks added to the mean double-dummy tricks before rounding",
          lo=-5, hi=5),
    Param("nil_prob", 0.75, "bid_mode=search: bid Nil when the solver makes it in at least this share of deals",
          lo=0, hi=1),
    Param("nil_screen", 10.0, "bid_mode=search: only hands with the heuristic's Nil danger at most this are "
          "searched for Nil", lo=-5, hi=100),
    Param("blind_mode", 0.0, "search: Blind Nil when simulated hands say it gains (blind_samples, blind_gain); "
          "heuristic: the heuristic's rule (blind_nil_margin)", choices=("search", "heuristic")),
    Param("blind_samples", 64.0, "blind_mode=search: sampled deals, each played out both ways", lo=1, hi=4096),
    Param("blind_gain", 0.0, "blind_mode=search: Blind Nil when its mean gain in hand-score difference over the "
          "sampled deals exceeds this many points", lo=-10000, hi=10000),
    Param("blind_nil_margin", 100.0, "blind_mode=heuristic: Blind Nil when the team trails by at least this many "
          "points (the heuristic's rule and default; negative: also when ahead)", lo=-100000, hi=100000),
    Param("bid_sigma", 1.0, "bid evidence: tricks of spread around an observed bid in the bid model "
          "(0: no bid evidence)", lo=0, hi=13),
    Param("tries", 30.0, "deals tried per sample before the most plausible one is taken", lo=1, hi=10000),
)

STRATEGY = register(Strategy(
    name="pimc",
    description="Perfect Information Monte Carlo: samples the hidden hands consistent with the table and the bids, "
                "solves each with the score-aware double-dummy solver, plays the best mean",
    policies="tricksim.strategies.spades.pimc", params=PARAMS,
    needs={"partnerships": "its search scores two teams; without partnerships (cutthroat) play heuristic, simple "
                           "or random"},
))
