"""The step API: one Spades hand advanced one action at a time, on the kernel's own phases.

``SpadesState`` runs the compiled phases of ``phases.py`` (the same functions the
batch kernel inlines) one decision at a time: a person at the table, a search
player and the tests stand on it. Each decision is an integer of one action
space (OpenSpiel's lesson); every applied action is logged.

Action space (``N_ACTIONS`` = 76):

    0..53   a card id (cards.py): play it, or pass it in the Blind Nil exchange
            (an exchange of n cards is n actions, one card each)
    54..71  bid 0..17 (54 = Nil) with the cards seen (above 13 only with three players)
    72      Blind Nil (decided before the seat sees its cards)
    73      no Blind Nil: look at the cards, then bid
    74      the draw (two players): keep the card shown, see the next and discard it
    75      the draw: discard the card shown and keep the next

Two players (preset ``twohanded``) draw their hands from the stock first, 26 turns (``Phase.DRAW``), then bid
and play as the others.

The same seed gives the same hand as the batch kernel: ``policy_action`` asks a
seat's strategy exactly as the kernel does (same view, the seat's own random
stream ``streams[seat]``, no question when only one card is legal), and ``tests/simulator/games/spades/test_state.py``
(``test_twohanded.py`` for the draw) checks that whole runs agree row for row.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from tricksim.simulator.bits import cards_of, lowest_bit, mask_of, popcount
from tricksim.simulator.errors import IllegalAction
from tricksim.simulator.games.spades import phases
from tricksim.simulator.games.spades.cards import card_name
from tricksim.simulator.games.spades.kernel import deck_template
from tricksim.simulator.games.spades.phases import game_end_of
from tricksim.simulator.games.spades.policy import (
    V_BID,
    V_BLIND,
    V_DRAW_CARD,
    V_PASSED,
    V_SEAT,
    VIEW_SIZE,
)
from tricksim.simulator.games.spades.rules import SpadesRules
from tricksim.simulator.games.spades.scoring import END_NAMES, END_NONE
from tricksim.simulator.step import Event, StepState

BID_0 = 54
BLIND_NIL = BID_0 + phases.MAX_BID + 1
NO_BLIND_NIL = BLIND_NIL + 1
KEEP = NO_BLIND_NIL + 1
DISCARD = KEEP + 1
N_ACTIONS = DISCARD + 1


class Phase(IntEnum):
    BLIND_NIL = 0  # a seat decides on Blind Nil without seeing its cards
    BID = 1
    EXCHANGE = 2   # a seat passes cards, one action a card
    PLAY = 3
    DONE = 4
    DRAW = 5       # two players: a seat keeps or discards the card shown (one action a turn, 26 turns)


@dataclass(frozen=True)
class Observation:
    """What ``seat`` may know: its own cards (none before its Blind Nil decision) and the public view, with its own
    ``V_PASSED`` (two players: its discards so far) and the card shown in the draw only to the seat drawing."""

    seat: int
    hand: int | None
    view: np.ndarray


def action_name(action: int) -> str:
    if 0 <= action < BID_0:
        return card_name(action)
    if BID_0 <= action < BLIND_NIL:
        return "Nil" if action == BID_0 else f"bid {action - BID_0}"
    return {BLIND_NIL: "Blind Nil", NO_BLIND_NIL: "no Blind Nil", KEEP: "keep", DISCARD: "discard"}.get(
        action, f"action {action}?")


class SpadesState(StepState):
    """One hand of Spades, from the deal to the score.

    ``dealer`` defaults to the dealer of hand ``hand_no`` of game ``game_id`` in a run
    (``(game_id + hand_no) % seats``); ``totals`` and ``bags`` are the game's score before the hand, one entry a
    side: the two teams', or in cutthroat (``rules.partnerships`` false) the players' (default: zeros).
    ``self.totals``, ``self.bags`` and ``self.points`` always have 4 entries, as the kernel's arrays: a
    partnership hand uses the first two (``[:rules.sides]``).

    Two players (``rules.seats`` 2): no deal; the stock (``self.stock``, its top card first) is shuffled as the kernel
    shuffles it and the hand begins with the draw; ``self.dealt`` is then the hands after it, ``self.passed`` each
    seat's discards and ``self.drawn`` the draw record (bit ``i``: turn ``i``'s drawer kept the card shown), as the
    kernel's ``dealt_*`` and ``drawn`` columns.
    """

    def __init__(self, rules: SpadesRules, *, seed: int = 0, game_id: int = 0, hand_no: int = 0,
                 dealer: int | None = None, totals=None, bags=None):
        self.rules = rules
        self.compiled_rules = rules.to_kernel()
        self.seed, self.game_id, self.hand_no = int(seed), int(game_id), int(hand_no)
        self.n = rules.seats  # players: 4, 3 (cutthroat3) or 2 (twohanded)
        self.dealer = (self.game_id + self.hand_no) % self.n if dealer is None else int(dealer)
        self.sides = rules.sides
        self.totals, self.bags = np.zeros(4, np.int64), np.zeros(4, np.int64)
        for name, given in (("totals", totals), ("bags", bags)):
            if given is not None:
                if len(given) != self.sides:
                    raise ValueError(f"{len(given)} {name} given: the rules have {self.sides} sides")
                getattr(self, name)[:self.sides] = given
        self.hands = np.zeros(4, np.int64)
        self.tricks = np.zeros(4, np.int64)
        self.points = np.zeros(4, np.int64)
        self.view = np.zeros(VIEW_SIZE, np.int64)
        self.streams = np.zeros((5, 1), np.uint64)  # streams[s]: seat s's policy stream (phases.deal)
        self.events: list[Event] = []
        tpl = deck_template(rules)
        deck_mask = np.int64(mask_of(tpl))
        self.stock = np.zeros(64, np.int64)
        if self.n == 2:
            phases.shuffle_stock(self.seed, self.game_id, self.hand_no, tpl, self.stock, self.hands, self.streams)
        else:
            phases.deal(self.seed, self.game_id, self.hand_no, self.dealer, tpl, self.stock, self.hands, self.streams,
                        self.n)
        self.dealt = self.hands.copy()
        phases.start_view(self.compiled_rules, self.view, self.dealer, self.hand_no, self.totals, self.bags, deck_mask)
        # each seat's view[V_PASSED]: the cards it passed in the exchange, or discarded in the draw (policy.py)
        self.passed = np.zeros(4, np.int64)
        self.drawn = 0
        self._draw_turn, self._n_turns = 0, len(tpl) // 2
        self.held = None           # the hands after the exchange, once play begins
        self.first_leader = -1
        self.plays: list[int] = []  # the cards in play order
        self._bidders = 0          # seats that have bid
        self._gives: list[tuple[int, int, int]] = []  # (giver, receiver, role) still to pass
        self._passing = 0          # cards chosen so far by the seat passing
        self._trick = self._k = self._leader = self._led = self._win_seat = self._win_card = self._broken = 0
        if self.n == 2:
            self._start_draw()
        else:
            self._start_bid()

    # ---------------------------------------------------------------- queries
    def legal_actions(self) -> list[int]:
        p, s = self._phase, self._seat
        if p == Phase.BLIND_NIL:
            return [BLIND_NIL, NO_BLIND_NIL]
        if p == Phase.BID:
            legal = int(phases.legal_bids(self.view, self.hands[s]))
            return [BID_0 + b for b in range(phases.MAX_BID + 1) if legal >> b & 1]
        if p == Phase.EXCHANGE:
            return cards_of(self.hands[s] & ~self._passing)
        if p == Phase.PLAY:
            return cards_of(self._legalcards_of())
        if p == Phase.DRAW:
            return [KEEP, DISCARD]
        return []

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now; its hand stays hidden while it decides on Blind Nil."""
        hidden = self._phase == Phase.BLIND_NIL and self._seat == seat
        view = self.view.copy()
        view[V_PASSED] = self.passed[seat]
        if self._seat != seat:
            view[V_DRAW_CARD] = -1  # the card shown in the draw: to the seat drawing only
        return Observation(seat, None if hidden else int(self.hands[seat]), view)

    def scores(self) -> tuple[int, ...]:
        """Each side's points for this hand (once the hand is over): 2 teams', or 4 players' in cutthroat."""
        if not self.is_terminal():
            raise IllegalAction("the hand is not over yet")
        return tuple(int(x) for x in self.points[:self.sides])

    def next_hand(self) -> SpadesState | None:
        """The next hand of the same game, or None when the game ends after this one (RULES.md 1.5)."""
        _winner, end = self.game_end()
        if end != "":
            return None
        return SpadesState(self.rules, seed=self.seed, game_id=self.game_id, hand_no=self.hand_no + 1,
                           dealer=(self.dealer + 1) % self.n, totals=tuple(self.totals[:self.sides]),
                           bags=tuple(self.bags[:self.sides]))

    def game_end(self) -> tuple[int, str]:
        """(winning side (team, or player in cutthroat) or -1, how the game ended or "") after this hand."""
        winner, end = game_end_of(self.compiled_rules, self.totals, self.sides)
        return int(winner), "" if end == END_NONE else END_NAMES[end]

    # ---------------------------------------------------------------- actions
    def apply(self, action: int) -> None:
        action = int(action)
        if action not in self.legal_actions():
            allowed = ", ".join(action_name(a) for a in self.legal_actions()) or "none (the hand is over)"
            raise IllegalAction(f"{action_name(action)} ({action}) is not legal for seat {self.current_player()} "
                                f"now: allowed {allowed}")
        self.events.append(Event(self._seat, self._phase, action))
        if self._phase == Phase.BLIND_NIL:
            if action == BLIND_NIL:
                self._record_bid(0, 1)
            else:
                self._phase = Phase.BID
        elif self._phase == Phase.BID:
            self._record_bid(action - BID_0, 0)
        elif self._phase == Phase.DRAW:
            self._draw(action == KEEP)
        elif self._phase == Phase.EXCHANGE:
            self._passing |= 1 << action
            if popcount(self._passing) == self._n_pass:
                giver, receiver, _ = self._gives.pop(0)
                phases.apply_exchange(self.compiled_rules, self.view, self.hands, giver, receiver, np.int64(self._passing))
                self.passed[giver] |= self._passing
                self._next_give()
        else:
            self._play(action)

    def policy_action(self, seat_policy) -> int | list[int]:
        """The decision the seat's strategy makes here, asked exactly as the batch kernel asks it
        (``SeatPolicy``: functions in the slots blind_nil, bid, exchange, play). For the exchange: the
        cards it passes, as that many actions. Draws from the seat's own stream, as in the kernel."""
        (blind_nil, bid, exchange, play), s, params, view, rng = self._policy_call(seat_policy)
        view[V_PASSED] = self.passed[s]  # as the kernel stores it before the seat's calls
        if self._phase == Phase.BLIND_NIL:
            return BLIND_NIL if blind_nil(s, view, params, rng) != 0 else NO_BLIND_NIL
        if self._phase == Phase.BID:
            return BID_0 + int(bid(s, self.hands[s], view, params, rng))
        if self._phase == Phase.EXCHANGE:
            return cards_of(exchange(s, self.hands[s], view, params, rng))
        if self._phase == Phase.DRAW:
            keep = int(exchange(s, self.hands[s], view, params, rng))
            top = int(view[V_DRAW_CARD])
            if keep not in (0, 1 << top):  # the kernel stops the run (ERR_DRAW)
                raise IllegalAction(f"the draw policy answered {keep}: neither 0 (discard) nor the bit of the card "
                                    f"shown, {card_name(top)} ({1 << top})")
            return KEEP if keep else DISCARD
        legal = self._legalcards_of()  # the play
        if legal & (legal - 1) == 0:
            return int(lowest_bit(legal))  # one legal card: the kernel does not ask
        return int(play(s, self.hands[s], legal, view, params, rng))

    # ------------------------------------------------------------- internals
    def _start_draw(self) -> None:
        self._seat = int(phases.drawer(self.dealer, self._draw_turn))
        self._phase = Phase.DRAW
        phases.start_draw(self.view, self._seat, self.stock[2 * self._draw_turn])

    def _draw(self, keep: bool) -> None:
        i = self._draw_turn
        top, second = self.stock[2 * i], self.stock[2 * i + 1]
        phases.apply_draw(self.view, self.hands, self.passed, self._seat, top, second,
                          np.int64(1) << top if keep else np.int64(0))
        self.drawn |= int(keep) << i
        self._draw_turn += 1
        if self._draw_turn < self._n_turns:
            self._start_draw()
            return
        self.dealt = self.hands.copy()
        self._start_bid()

    def _start_bid(self) -> None:
        self._seat = int(phases.bidder(self.dealer, self._bidders, self.n))
        min_bid, offered = phases.start_bid(self.compiled_rules, self.view, self.totals, self._seat)
        self._min_bid = int(min_bid)
        self._phase = Phase.BLIND_NIL if offered else Phase.BID

    def _record_bid(self, b: int, blind: int) -> None:
        phases.record_bid(self.view, self._seat, b, blind, self.n)
        self._bidders += 1
        if self._bidders < self.n:
            self._start_bid()
            return
        phases.end_bidding(self.view)
        n_steps, steps = phases.exchange_steps(self.compiled_rules, self.view, self.dealer)
        self._gives = [tuple(int(x) for x in phases.exchange_step(steps, i)) for i in range(n_steps)]
        self._next_give()

    def _next_give(self) -> None:
        if self._gives:
            giver, _, role = self._gives[0]
            self._seat, self._phase, self._passing = giver, Phase.EXCHANGE, 0
            self._n_pass = int(phases.start_exchange(self.compiled_rules, self.view, giver, role))
            return
        self.held = self.hands.copy()
        self._leader = self.first_leader = int(phases.first_leader(self.compiled_rules, self.dealer, self.hands, self.n))
        self._phase = Phase.PLAY
        phases.start_trick(self.view, 0, self._leader)
        self._turn()

    def _turn(self) -> None:
        self._seat = (self._leader + self._k) % self.n
        self.view[V_SEAT] = self._seat

    def _legalcards_of(self) -> int:
        h = self.hands[self._seat]
        if self._k == 0:
            return int(phases.legal_leads(self.compiled_rules, self._trick, h, self._broken))
        return int(phases.legal_follows(self.compiled_rules, h, self._led))

    def _play(self, c: int) -> None:
        s = self._seat
        self.plays.append(c)
        if self._k == 0:
            self._led, self._broken = phases.apply_lead(self.compiled_rules, self.view, self.hands, self._trick, s, c,
                                                        self._broken, self.n)
            self._win_seat, self._win_card = s, c
        else:
            self._win_seat, self._win_card, self._broken = phases.apply_follow(
                self.compiled_rules, self.view, self.hands, self._trick, self._k, s, c, self._led, self._win_seat, self._win_card,
                self._broken, self.n)
        self._k += 1
        if self._k < self.n:
            self._turn()
            return
        self._leader = int(phases.end_trick(self.view, self.tricks, self._win_seat))
        self._trick += 1
        self._k = 0
        if self._trick < self.rules.tricks:
            phases.start_trick(self.view, self._trick, self._leader)
            self._turn()
            return
        phases.score(self.compiled_rules, self.view, self.tricks, self.totals, self.bags, self.points)
        self._phase = Phase.DONE

    def bids(self) -> tuple[tuple[int, int], ...]:
        """(bid, blind) of each seat; bid -1 before it has bid."""
        return tuple((int(self.view[V_BID + s]), int(self.view[V_BLIND + s])) for s in range(self.n))
