"""``heuristic`` (tarot) as the registry lists it: name, description, parameters; its policies live in
``tricksim.strategies.tarot.heuristic``, imported (and compiled) only when a run first uses them."""
from tricksim.strategies.registry import Param, Strategy, register

# the order is the parameter vector's: the policies derive their indices from it
PARAMS = (
    # --- bidding: the hand-point count (defaults fitted to self-play; the classic book values in brackets)
    Param("monde_points", 22.0, "hand points of the Monde (trump 21) [classic 10]", lo=0, hi=100),
    Param("petit_points", 19.0, "hand points of the Petit with at least petit_guard trumps, proportionally less "
          "with fewer, none bare [classic 8]", lo=0, hi=100),
    Param("petit_guard", 3.0, "trumps (the Petit included) for the Petit's full hand points, 2 more at five "
          "players (5 at every table size until the thirteenth pass of issue #29)", lo=1, hi=21),
    Param("excuse_points", 21.0, "hand points of the Excuse [classic 8]", lo=0, hi=100),
    Param("trump_points", 5.0, "hand points of each trump, oudlers included (the unit of the count) [classic 5]",
          lo=0, hi=100),
    Param("major_points", 1.5, "hand points added for each major trump, 16 to 21 [classic 2]", lo=0, hi=100),
    Param("king_points", 8.5, "hand points of a king [classic 6]", lo=0, hi=100),
    Param("queen_points", 3.5, "hand points of a queen [classic 3]", lo=0, hi=100),
    Param("knight_points", 1.5, "hand points of a knight [classic 2]", lo=0, hi=100),
    Param("jack_points", 0.5, "hand points of a jack [classic 1]", lo=0, hi=100),
    Param("king_queen_bonus", 1.5, "hand points added for a king with its queen [classic 1: king + queen = 10]",
          lo=0, hi=100),
    Param("long_suit_points", 1.5, "hand points of a five-card suit, 0.4 of it more for each further card "
          "[classic 5: 5, 7, 9 ...]", lo=0, hi=100),
    Param("void_points", 2.0, "hand points of a void suit [classic 6]", lo=0, hi=100),
    Param("singleton_points", 1.0, "hand points of a singleton suit [classic 3]", lo=0, hi=100),
    Param("prise_threshold", 74.0, "hand points to bid Prise [classic scale: 40]", lo=0, hi=1000),
    Param("garde_threshold", 77.0, "hand points to bid Garde [classic scale: 56]", lo=0, hi=1000),
    Param("garde_sans_threshold", 111.0, "hand points to bid Garde sans [classic scale: 71]", lo=0, hi=1000),
    Param("garde_contre_threshold", 121.0, "hand points to bid Garde contre [classic scale: 81]", lo=0, hi=1000),
    # --- announcements
    Param("chelem_losers", 0.0, "with chelem_samples 0, announce Chelem with at most this many losers, the tricks "
          "the cards out may win (with up to 2 losers measured 4 made of 13 announced, below the break-even 1 in "
          "2); -1 = never, whatever chelem_samples", lo=-1, hi=18),
    Param("defender_poignee", 1.0, "defenders show their poignée too (1 = yes; the taker always shows)", lo=0, hi=1,
          switch=True),
    # --- card play
    Param("ruff_risk", 4.0, "a player not shown void may ruff a suit once fewer than this many of its cards are "
          "unseen", lo=0, hi=14),
    Param("draw_min", 0.0, "the taker draws trumps only with at least this many trumps (0: however few, once it "
          "holds the master and as many as are out; 6 until the tenth pass of issue #29)", lo=0, hi=22),
    Param("draw_margin", 0.0, "the taker draws trumps (with a master trump) when it holds at least this many more "
          "trumps than are out (0: at least as many)", lo=-21, hi=21),
    Param("king_lead_unseen", 2.0, "cash a king (master) in a suit nobody has cut only while at least this many "
          "of its cards are unseen (3 until the fourteenth pass of issue #29)", lo=0, hi=14),
    Param("force_defenders", 0.0, "the taker (its partner too, five players) leading low (no trump to draw with, "
          "no master to cash) leads first a suit a defender has shown void in (not out of trumps), making it ruff, "
          "when the trumps out outnumber its own by at least this many (22 = never: its longest suit whatever the "
          "voids, as before the twelfth pass of issue #29)", lo=-22, hi=22),
    Param("excuse_late", 24.0, "with at most this many cards left, the Excuse goes on the first trick the other "
          "side wins (24, every hand size: on the first such trick, measured best; 2 cards left: always played)",
          lo=2, hi=24),
    Param("hunt_petit", 22.0, "a defender leads its highest trump to hunt the Petit with at least this many trumps "
          "(22 = never; three players only: at four and five it never hunts)", lo=0, hi=22),
    Param("secure_value", 5.0, "half-points a trick must hold before a master trump is spent to win it (5: a "
          "knight's; 2 until the twelfth pass of issue #29, 1 before the eleventh)", lo=0, hi=200),
    Param("charge", 1.0, "charge points (the most valuable card) on a partner's safe trick (1 = on)", lo=0, hi=1,
          switch=True),
    Param("force_taker", 1.0, "defenders lead suits the taker has shown void in, to make it ruff (1 = on)",
          lo=0, hi=1, switch=True),
    Param("petit_au_bout", 1.0, "keep the Petit for the last trick once nobody else can hold a trump (1 = on)",
          lo=0, hi=1, switch=True),
    # --- announcements (the last slot of the parameter vector)
    Param("chelem_samples", 128.0, "Chelem decided by play-outs: deals of the hidden cards sampled, each played out "
          "with Chelem announced and not, on a hand of few losers by chelem_losers' count; announced when the "
          "shares made announced p and unannounced q give 3 p > 1 + q, the scoring's break-even (0 = no play-outs: "
          "announced with at most chelem_losers losers, the player before)", lo=0, hi=4096),
)

STRATEGY = register(Strategy(
    name="heuristic",
    description="classic French Tarot player: hand-point bidding, void-building discard, card counting, "
                "charging partners, saving the Petit and the Excuse, petit au bout",
    policies="tricksim.strategies.tarot.heuristic",
    params=PARAMS,
    game="tarot",
))
