"""Per-hand team outcomes (contract, made, sets, bags) and per-game sums.

The Parquet rows carry bids and tricks per seat; the team quantities are
derived here, vectorised, following RULES.md 1.4 and the run's rule flags
(read from the manifest, defaults as the ``cardems`` preset):

* contract = sum of the team's non-Nil bids; a team whose contract is 0 (both
  partners bid Nil) has no contract and is left out of contract-made rates;
* ``nil_tricks='bags'``: tricks of a Nil bidder never count toward the
  contract and are bags (``nil_bags_when_set``: even when the contract fails);
  ``nil_tricks='contract'``: they count toward the contract;
* bags taken = overtricks (when made) + the Nil bidders' tricks.

Bag *penalties* need the running bags before the hand. In hands mode that
is 0. In games mode the per-game total follows without any row order:
under ``bag_overflow='carry'`` penalties = (bags taken in the game − bags
left after its last hand) / bag_limit; under ``'reset'`` a hand triggers a
penalty exactly when it took bags and left the running bags at 0.

:class:`PerGame` accumulates sums per game by joining each hand batch on
``game_id`` with the games table (``searchsorted``), so files and batches
may come in any order.
"""
from __future__ import annotations

import numpy as np

from tricksim.simulator.games.spades.rules import SpadesRules
from tricksim.simulator.games.spades.scoring import NO_PARTNER, team_hand
from tricksim.simulator.rules import RulesError

from ...io import AnalysisError, batch_arrays

__all__ = [
    "NUMBER_WORDS",
    "RULE_DEFAULTS",
    "GameIndex",
    "PerGame",
    "deck_of",
    "lead",
    "nil_bid",
    "others_text",
    "outcome_columns",
    "partnerships",
    "penalties_fresh",
    "per_game_columns",
    "require_partnerships",
    "rule",
    "seat_columns",
    "seats",
    "side_name",
    "sides",
    "team_outcomes",
]

RULE_DEFAULTS = SpadesRules().to_dict()  # a flag a manifest lacks: as the rules' own default (the cardems preset)


def rule(rules: dict | None, name: str):
    """A rule flag from a manifest ``rules`` dict, falling back to :data:`RULE_DEFAULTS`."""
    v = (rules or {}).get(name)
    return RULE_DEFAULTS[name] if v is None else v


def deck_of(rules: dict | None) -> str:
    """The run's deck (docs/rules.md "Decks"): ``deck``, where ``jokers=true`` (its alias, the only joker flag of a
    run made before the deck flag) is ``joker_ace``."""
    deck = rule(rules, "deck")
    return "joker_ace" if deck == "standard" and rule(rules, "jokers") else deck


def nil_bid(bid, rules: dict | None) -> np.ndarray:
    """Where a bid is a Nil (Blind or not): a bid of 0, unless ``zero_bid=zero`` makes a 0 an ordinary contract of
    zero tricks (no Nil exists then)."""
    return (np.asarray(bid) == 0) & (rule(rules, "zero_bid") != "zero")
def partnerships(rules: dict | None) -> bool:
    """False for a cutthroat run (each player alone); a manifest without the flag has partnerships."""
    return bool((rules or {}).get("partnerships", True))


def seats(rules: dict | None) -> int:
    """The players of a run: the rules' ``seats`` (preset data: 3 in cutthroat3); a manifest without the field
    has four."""
    return int((rules or {}).get("seats", 4))


def sides(rules: dict | None) -> int:
    """The scoring sides of a run: 2 teams, or each player alone (one side a seat: cutthroat 4, cutthroat3 3);
    its score_k, bags_k, total_k."""
    return 2 if partnerships(rules) else seats(rules)


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}  # seat counts as printed: "a hand's four seats"


def others_text(n: int) -> str:
    """Whom a player alone at a table of ``n`` is measured against: 'the best of the three others' (four
    players), 'the best of the two others' (three), 'the other' (two)."""
    return "the other" if n == 2 else f"the best of the {NUMBER_WORDS.get(n - 1, n - 1)} others"


def side_name(rules: dict | None, k: int) -> str:
    return f"team {k}" if partnerships(rules) else f"seat {k}"


def require_partnerships(run, what: str, instead: str) -> None:
    """Refuse a cutthroat run in a study of teams: one line naming what works instead."""
    if not partnerships(run.rules):
        raise AnalysisError(f"{what} compares teams, and {run.path} is cutthroat (preset {run.preset}: each player "
                            f"alone); {instead}")


def lead(totals, k: int) -> np.ndarray:
    """Side ``k``'s lead: its total minus the best of the other sides' (``totals`` one array a side). With two
    teams that is team k's total minus the other team's; in cutthroat a seat's over the best other seat
    (negative when another is ahead)."""
    own = np.asarray(totals[k], dtype=np.int64)
    return own - np.max([np.asarray(t, dtype=np.int64) for j, t in enumerate(totals) if j != k], axis=0)


def seat_columns(prefix: str, n: int = 4) -> list[str]:
    return [f"{prefix}_{s}" for s in range(n)]


def outcome_columns(rules: dict | None) -> list[str]:
    """Every seat's bid and tricks columns in a run of ``rules`` (:func:`seats` of them)."""
    n = seats(rules)
    return seat_columns("bid", n) + seat_columns("tricks", n)


def team_outcomes(a: dict[str, np.ndarray], team: int, rules: dict | None = None) -> dict[str, np.ndarray]:
    """Team ``team``'s per-hand outcomes from bid/tricks arrays (``a`` keyed by column name), scored by
    the simulator's own scoring function (``scoring.team_hand``) under the run's rules. In a cutthroat run
    ``team`` is a seat, alone (``sides``).

    Returns ``contract``, ``has_contract`` (contract > 0), ``made`` (bool;
    True for a 0 contract), ``set`` (has_contract and not made), ``bags``
    (bags taken in the hand), ``tricks`` (team total) and ``nil_bids``.
    """
    b1, t1 = a[f"bid_{team}"].astype(np.int64), a[f"tricks_{team}"].astype(np.int64)
    if partnerships(rules):
        b2, t2 = a[f"bid_{team + 2}"].astype(np.int64), a[f"tricks_{team + 2}"].astype(np.int64)
    else:
        b2, t2 = np.full_like(b1, NO_PARTNER), np.zeros_like(t1)
    # the Blind Nil flags change only the points, which are not returned here
    _, _, contract, made, taken = team_hand(kernel_rules(rules), b1, b2, 0, 0, t1, t2, 0)
    made = made.astype(bool)
    has_contract = contract > 0
    return {
        "contract": contract.astype(np.int16),
        "has_contract": has_contract,
        "made": made,
        "set": has_contract & ~made,
        "bags": taken.astype(np.int16),
        "tricks": (t1 + t2).astype(np.int16),
        "nil_bids": nil_bid(b1, rules).astype(np.int8) + nil_bid(b2, rules).astype(np.int8),  # NO_PARTNER is no bid
    }


def kernel_rules(rules: dict | None):
    """The run's rules (a manifest ``rules`` dict; missing flags as ``cardems``) as the scoring takes them."""
    try:
        return SpadesRules.from_dict(dict(rules or {})).to_kernel()
    except RulesError as e:
        raise AnalysisError(f"the run's rules cannot be read: {e}") from None


def penalties_fresh(bags_taken, bags_after, rules: dict | None = None) -> np.ndarray:
    """Bag penalties in a hand that started with 0 running bags (hands mode)."""
    taken = np.asarray(bags_taken, dtype=np.int64)
    after = np.asarray(bags_after, dtype=np.int64)
    limit = int(rule(rules, "bag_limit"))
    if rule(rules, "bag_overflow") == "reset":
        return ((taken > 0) & (after == 0)).astype(np.int64)
    return np.maximum(taken - after, 0) // limit


class GameIndex:
    """Maps game ids to row positions of a games table (sorted once; O(log n) lookups)."""

    def __init__(self, game_ids) -> None:
        ids = np.asarray(game_ids, dtype=np.int64)
        self.ids = ids
        self.order = np.argsort(ids, kind="stable")
        self.sorted_ids = ids[self.order]
        if self.sorted_ids.size > 1 and (np.diff(self.sorted_ids) == 0).any():
            raise AnalysisError("games table has duplicate game_id values")
        self.n = ids.size

    def locate(self, game_ids) -> np.ndarray:
        """Row positions (in the original games table) of each id; AnalysisError if one is absent."""
        ids = np.asarray(game_ids, dtype=np.int64)
        pos = np.searchsorted(self.sorted_ids, ids)
        pos_c = np.minimum(pos, max(self.n - 1, 0))
        ok = (pos < self.n) & (self.sorted_ids[pos_c] == ids) if self.n else np.zeros(ids.shape, bool)
        if not ok.all():
            bad = ids[~ok][0]
            raise AnalysisError(f"hand rows refer to game_id {bad} which is not in the games table")
        return self.order[pos_c]


def per_game_columns(rules: dict | None) -> list[str]:
    """The hand columns :class:`PerGame` needs for a run of ``rules``: the running bags of each side."""
    return ["game_id", "hand_no"] + [f"bags_{k}" for k in range(sides(rules))] + outcome_columns(rules)


class PerGame:
    """Per-game, per-side sums over hand batches: bags taken, sets, contracts, penalties (a side: a team, or
    a seat alone in cutthroat: :func:`sides`).

    ``games`` holds ``game_id`` and ``hands`` (number of hands in the game).
    Feed hand batches (columns :func:`per_game_columns`) to :meth:`add`; the
    result arrays, one row a side, are aligned with the games table rows.
    """

    def __init__(self, game_ids, hands, rules: dict | None = None) -> None:
        self.index = GameIndex(game_ids)
        self.hands = np.asarray(hands, dtype=np.int32)
        self.rules = rules
        n, k = self.index.n, sides(rules)
        # compact dtypes: about 16 bytes per game and side, 160 MB for 5 million games of two teams
        self.bags = np.zeros((k, n), np.int32)
        self.sets = np.zeros((k, n), np.int16)
        self.reset_penalties = np.zeros((k, n), np.int16)
        # bags left after the last hand: the last hand is hand_no == hands - 1 (0-based
        # numbering) or == hands (1-based); both candidates are kept and the numbering
        # is decided from the smallest hand_no seen.
        self._final = {0: np.zeros((k, n), np.int16), 1: np.zeros((k, n), np.int16)}
        self.min_hand_no: int | None = None
        self.rows = 0

    def add(self, a: dict[str, np.ndarray]) -> None:
        pos = self.index.locate(a["game_id"])
        hand_no = a["hand_no"].astype(np.int64)
        if hand_no.size:
            m = int(hand_no.min())
            self.min_hand_no = m if self.min_hand_no is None else min(self.min_hand_no, m)
        n_hands = self.hands[pos].astype(np.int64)
        self.rows += pos.size
        for t in range(sides(self.rules)):
            o = team_outcomes(a, t, self.rules)
            after = a[f"bags_{t}"].astype(np.int16)
            np.add.at(self.bags[t], pos, o["bags"].astype(np.int32))
            np.add.at(self.sets[t], pos, o["set"].astype(np.int16))
            np.add.at(self.reset_penalties[t], pos, ((o["bags"] > 0) & (after == 0)).astype(np.int16))
            for base in (0, 1):
                last = hand_no == n_hands - 1 + base
                self._final[base][t][pos[last]] = after[last]

    def merge(self, other: PerGame) -> PerGame:
        """Append the games of ``other`` (other shards of the run): the sums of both games tables, in order."""
        self.index = GameIndex(np.concatenate([self.index.ids, other.index.ids]))
        self.hands = np.concatenate([self.hands, other.hands])
        self.bags = np.concatenate([self.bags, other.bags], axis=1)
        self.sets = np.concatenate([self.sets, other.sets], axis=1)
        self.reset_penalties = np.concatenate([self.reset_penalties, other.reset_penalties], axis=1)
        self._final = {b: np.concatenate([self._final[b], other._final[b]], axis=1) for b in self._final}
        if other.min_hand_no is not None:
            self.min_hand_no = other.min_hand_no if self.min_hand_no is None else min(self.min_hand_no,
                                                                                          other.min_hand_no)
        self.rows += other.rows
        return self

    def add_batches(self, batches) -> PerGame:
        cols = per_game_columns(self.rules)
        for b in batches:
            self.add(batch_arrays(b, cols))
        return self

    @property
    def final_bags(self) -> np.ndarray:
        base = 1 if (self.min_hand_no or 0) >= 1 else 0
        return self._final[base]

    @property
    def penalties(self) -> np.ndarray:
        """Bag penalties per side and game, shape (sides, n_games)."""
        if rule(self.rules, "bag_overflow") == "reset":
            return self.reset_penalties.astype(np.int64)
        limit = int(rule(self.rules, "bag_limit"))
        return np.maximum(self.bags.astype(np.int64) - self.final_bags, 0) // limit
