"""The step API: one Tarot deal advanced one action at a time, on the kernel's own phases.

``TarotState`` runs the compiled phases of ``phases.py`` (the functions the batch kernel
inlines) one decision at a time, in the kernel's order: a person at the table, a search player
and the tests stand on it. Each decision is an integer of one action space; every applied action
is logged.

Action space (``N_ACTIONS`` = 89):

    0..77   a card id (cards.py): play it, or discard it (the taker's discard of a Prise or
            Garde is six actions, one card each; three for five players), or, five players, the card the
            taker calls (phase CALL, after the bidding and before the chien: a king, or the rank
            phases.call_rank gives)
    78..82  bid: 78 pass, 79 Prise, 80 Garde, 81 Garde sans, 82 Garde contre
    83      announce Chelem (the taker, after any discard)
    84      no Chelem
    85..88  the poignée shown before the seat's first card: 85 none, 86 single (10 trumps),
            87 double (13), 88 triple (15); three players (fft3): 13, 15, 18; asked only of a seat
            that holds one
    56..77  after a poignée level: the cards shown, one action a card (10, 13 or 15 actions, phase
            SHOW): a trump or the Excuse; the legal ones are those that still lead to a legal poignée
            (phases.poignee_next), so the set shown is always legal when the last card is named

A deal voided by Petit sec is over as soon as it is dealt; one where every seat passes, after the
bidding. The seat count is the rules' (``rules.seats``: 4, 3 for ``fft3``, 5 for ``fft5``). The same seed and deal id give the same deal as the batch kernel: ``policy_action`` asks
a seat's strategy exactly as the kernel does (same view, the seat's own random stream, no question when
only one card is legal), and ``tests/simulator/games/tarot/test_tarot_state.py`` checks that whole runs agree row for row.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from tricksim.simulator.errors import IllegalAction, PolicyFault
from tricksim.simulator.games.tarot import phases
from tricksim.simulator.games.tarot.cards import FIRST_TRUMP, N_CARDS, cards_in, join, name
from tricksim.simulator.games.tarot.phases import N_SEATS, N_TALLY, T_POIGNEE
from tricksim.simulator.games.tarot.policy import V_BID, V_POIGNEE_BASE, V_POIGNEE_EXCUSE, V_POIGNEE_EXTRA, VIEW_SIZE
from tricksim.simulator.games.tarot.rules import TarotRules
from tricksim.simulator.games.tarot.scoring import CONTRACT_NAMES
from tricksim.simulator.rng import start_policy_streams
from tricksim.simulator.step import Event, StepState

BID_0 = 78
CHELEM = 83
NO_CHELEM = 84
POIGNEE_0 = 85
N_ACTIONS = 89
POIGNEE_NAMES = ("no poignée", "single poignée", "double poignée", "triple poignée")


class Phase(IntEnum):
    BID = 0
    DISCARD = 1  # the taker discards, one action a card
    CHELEM = 2
    POIGNEE = 3
    PLAY = 4
    DONE = 5
    SHOW = 6  # the cards of a poignée, one action a card
    CALL = 7  # five players: the taker calls a card (its holder is the partner)


@dataclass(frozen=True)
class Observation:
    """What ``seat`` may know: its own hand, the public view (the chien only where it was shown, the
    trumps discarded, the poignées shown) and, for the taker alone, its own discard."""

    seat: int
    suits: int
    trumps: int
    view: np.ndarray
    discard: tuple[int, int] | None  # the taker's discard so far (suits, trumps words); None for others


def action_name(action: int) -> str:
    if 0 <= action < N_CARDS:
        return name(action)
    if BID_0 <= action < CHELEM:
        return "pass" if action == BID_0 else CONTRACT_NAMES[action - BID_0]
    if action in (CHELEM, NO_CHELEM):
        return "Chelem" if action == CHELEM else "no Chelem"
    if POIGNEE_0 <= action < N_ACTIONS:
        return POIGNEE_NAMES[action - POIGNEE_0]
    return f"action {action}?"


def card_ids(suits: int, trumps: int) -> list[int]:
    """The card ids of a (suits, trumps) pair of words, ascending."""
    return cards_in(*join(suits, trumps))


class TarotState(StepState):
    """One deal of Tarot for four, from the deal to the settlement.

    ``deal_id`` sets the dealer and the random streams as in a run (the deal ``deal_id`` of seed
    ``seed``); ``deck`` deals 78 chosen card ids in that order instead (``batch.play_decks``).
    """

    OVER = "the deal is over"

    def __init__(self, rules: TarotRules, *, seed: int = 0, deal_id: int = 0, deck=None):
        self.rules = rules
        self.compiled_rules = rules.to_kernel()
        self.seed, self.deal_id = int(seed), int(deal_id)
        self.seats = n = rules.seats
        self.n_tricks, self.chien_cards = int(phases.n_tricks(n)), int(phases.chien_cards(n))
        self.dealer = int(phases.dealer_of(self.deal_id, n))
        self.suits = np.zeros(N_SEATS, np.int64)
        self.trumps = np.zeros(N_SEATS, np.int64)
        self.chien = np.zeros(2, np.int64)
        self.view = np.zeros(VIEW_SIZE, np.int64)
        self.rng = np.zeros(1, np.uint64)  # the deal's stream (scratch for the shuffle)
        self.streams = np.zeros((N_SEATS, 1), np.uint64)  # streams[s]: seat s's policy stream, as in the kernel
        self.trick_winner = np.full(self.n_tricks, -1, np.int64)
        self.tally = np.zeros(N_TALLY, np.int64)
        self.events: list[Event] = []
        if deck is None:
            phases.deal(self.seed, self.deal_id, np.zeros(N_CARDS, np.int64), self.suits, self.trumps, self.chien,
                        self.rng, n)
        else:
            phases.distribute(np.ascontiguousarray(deck, np.int64), self.suits, self.trumps, self.chien, n)
        start_policy_streams(self.seed, self.deal_id, 0, self.streams)
        self.dealt = (self.suits.copy(), self.trumps.copy())
        self.void = phases.VOID_NONE
        self.taker, self.contract = -1, 0
        self.discard_s = self.discard_t = np.int64(0)
        self._dealt_trumps = np.int64(0)  # the taker's trumps before the chien (poignee_hand=as_dealt)
        self.chelem, self.first_leader = 0, -1
        self.called, self.partner = -1, -1  # five players: the called card and its holder (-1: alone, or no call)
        self.partner_revealed = -1          # the trick the called card was played in (-1 not played)
        self.poignees = [0] * n  # the trumps word each seat showed (0 none)
        self.plays: list[int] = []     # the cards in play order
        self.taker_half = self.oudlers = self.petit_au_bout = self.slam = 0
        self.target = self.won = self.amount = 0
        self._bidders = self._discarded = 0
        self._trick = self._k = self._leader = 0
        self._led = self._win_seat = self._win_card = self._high = -1
        self._most = 0                 # the highest poignée the seat asked may show
        self._show_n = 0               # SHOW: the cards the poignée shows; _shown the trumps word named so far
        self._shown = np.int64(0)
        self._policy_show = None       # SHOW: the trumps word the seat's strategy chose (policy_action)
        self._legal = (np.int64(0), np.int64(0))  # the legal cards of a discard or play, (suits, trumps)
        self._seat = -1
        if self.compiled_rules.petit_sec_redeal and phases.petit_sec(self.trumps, self.seats):
            self.void = phases.VOID_PETIT_SEC
            self._phase = Phase.DONE
            return
        phases.start_deal(self.compiled_rules, self.view, self.tally, self.dealer)
        self._start_bid()

    # ---------------------------------------------------------------- queries
    @property
    def legal_words(self) -> tuple[np.int64, np.int64]:
        """The legal cards of the discard, call or play asked now as the kernels' two words (suits, trumps): what a
        policy's ``discard``/``call``/``play`` is given (``legal_actions`` has the same cards as ids)."""
        return self._legal

    def legal_actions(self) -> list[int]:
        p = self._phase
        if p == Phase.BID:
            return [BID_0 + b for b in range(5) if phases.bid_is_legal(b, self.contract)]
        if p in (Phase.DISCARD, Phase.PLAY, Phase.CALL):
            return card_ids(*self._legal)
        if p == Phase.CHELEM:
            return [CHELEM, NO_CHELEM]
        if p == Phase.POIGNEE:
            return [POIGNEE_0 + level for level in range(self._most + 1)]
        if p == Phase.SHOW:
            nxt = int(phases.poignee_next(self.compiled_rules.poignee_excuse, self.view[V_POIGNEE_BASE],
                                          self.view[V_POIGNEE_EXCUSE] != 0, self.view[V_POIGNEE_EXTRA], self._show_n,
                                          phases.POIGNEE_CARDS_BY_SEATS[self.seats, 3], self._shown))
            return [FIRST_TRUMP + b for b in range(22) if nxt >> b & 1]
        return []

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now."""
        discard = (int(self.discard_s), int(self.discard_t)) if seat == self.taker else None
        return Observation(seat, int(self.suits[seat]), int(self.trumps[seat]), self.view.copy(), discard)

    def bids(self) -> tuple[int, ...]:
        """Each seat's bid (0 pass, 1..4 a contract), -1 before it has spoken."""
        if self.void == phases.VOID_PETIT_SEC:
            return (-1,) * self.seats
        return tuple(int(self.view[V_BID + s]) for s in range(self.seats))

    def poignee(self) -> int:
        """The value of every poignée shown (scoring.POIGNEE_VALUE), to the side that wins the contract."""
        return int(self.tally[T_POIGNEE])

    def scores(self) -> tuple[int, ...]:
        """Each seat's score for the deal (once it is over): the taker 3t, each defender -t; 0 when void."""
        if not self.is_terminal():
            raise IllegalAction("the deal is not over yet")
        if self.taker < 0:
            return (0,) * self.seats
        return tuple(int(phases.seat_score(s, self.taker, self.amount, self.seats, self.partner))
                     for s in range(self.seats))

    # ---------------------------------------------------------------- actions
    def apply(self, action: int) -> None:
        action = int(action)
        legal = self.legal_actions()
        if action not in legal:
            allowed = ", ".join(action_name(a) for a in legal) or "none (the deal is over)"
            raise IllegalAction(f"{action_name(action)} ({action}) is not legal for seat {self.current_player()} "
                                f"now: allowed {allowed}")
        self.events.append(Event(self._seat, self._phase, action))
        if self._phase == Phase.BID:
            self._bid(action - BID_0)
        elif self._phase == Phase.DISCARD:
            self._discard(action)
        elif self._phase == Phase.CHELEM:
            self._declare(1 if action == CHELEM else 0)
        elif self._phase == Phase.POIGNEE:
            self._poignee(action - POIGNEE_0)
        elif self._phase == Phase.SHOW:
            self._show(action)
        elif self._phase == Phase.CALL:
            self._call(action)
        else:
            self._play(action)

    def policy_action(self, seat_policy) -> int:
        """The decision the seat's strategy makes here, asked exactly as the batch kernel asks it
        (``SeatPolicy``: functions in the slots bid, discard, chelem, poignee, play). Draws from the
        seat's own random stream like the kernel; one card of a discard at a time."""
        (bid, discard, chelem, poignee, play, call), s, params, view, rng = self._policy_call(seat_policy)
        hand = (self.suits[s], self.trumps[s])
        if self._phase == Phase.BID:
            return BID_0 + int(bid(s, *hand, view, params, rng))
        if self._phase == Phase.DISCARD:
            return int(discard(s, *hand, *self._legal, view, params, rng))
        if self._phase == Phase.CALL:
            return int(call(s, *hand, view, params, rng))
        if self._phase == Phase.CHELEM:
            return CHELEM if chelem(s, *hand, view, params, rng) != 0 else NO_CHELEM
        if self._phase == Phase.POIGNEE:  # the strategy names the trumps word: its level, then its cards
            shown = int(poignee(s, *hand, view, params, rng))
            level = int(phases.poignee_is_legal(self.compiled_rules, view, shown))
            if level < 0:
                raise PolicyFault(f"the strategy at seat {s} showed an illegal poignée {shown:#x}")
            self._policy_show = shown
            return POIGNEE_0 + level
        if self._phase == Phase.SHOW:
            left = (self._policy_show or 0) & ~int(self._shown)
            if left == 0 or int(self._policy_show).bit_count() != self._show_n:
                raise PolicyFault(f"seat {s}: no poignée of {self._show_n} cards chosen by its strategy to name")
            return FIRST_TRUMP + (left & -left).bit_length() - 1
        c = int(phases.only_card(*self._legal))  # the play: one legal card is played without asking
        return c if c >= 0 else int(play(s, *hand, *self._legal, view, params, rng))

    # ------------------------------------------------------------- internals
    def _start_bid(self) -> None:
        self._seat = int(phases.bidder(self.dealer, self._bidders, self.seats))
        phases.start_bid(self.view, self._seat, self.contract)
        self._phase = Phase.BID

    def _bid(self, b: int) -> None:
        taker, contract = phases.apply_bid(self.view, self._seat, b, self.taker, self.contract, self.seats)
        self.taker, self.contract = int(taker), int(contract)
        self._bidders += 1
        if self._bidders < self.seats:
            self._start_bid()
            return
        if self.taker < 0:
            self.void = phases.VOID_ALL_PASS
            self._phase = Phase.DONE
            return
        phases.end_bidding(self.view, self.taker)
        self._dealt_trumps = self.trumps[self.taker]
        if self.seats == 5:
            legal = phases.start_call(self.compiled_rules, self.view, self.suits[self.taker], self.taker)
            self._legal = (legal, np.int64(0))
            self._seat, self._phase = self.taker, Phase.CALL
            return
        self._after_call()

    def _call(self, c: int) -> None:
        phases.apply_call(self.view, self.tally, self.suits, c, self.taker, self.seats)
        self.called, self.partner = c, int(self.tally[phases.T_PARTNER])
        self._after_call()

    def _after_call(self) -> None:
        if phases.takes_chien(self.contract):
            phases.show_chien(self.view, self.suits, self.trumps, self.chien, self.taker)
            self._start_discard()
        else:
            self._start_chelem()

    def _start_discard(self) -> None:
        self._seat, self._phase = self.taker, Phase.DISCARD
        t = self.taker
        self._legal = phases.start_discard(self.compiled_rules, self.view, self.suits[t], self.trumps[t],
                                           self._discarded)

    def _discard(self, c: int) -> None:
        self.discard_s, self.discard_t = phases.apply_discard(self.view, self.suits, self.trumps, self.taker, c,
                                                              self.discard_s, self.discard_t)
        self._discarded += 1
        if self._discarded < self.chien_cards:
            self._start_discard()
            return
        phases.end_discard(self.view)
        self._start_chelem()

    def _start_chelem(self) -> None:
        phases.start_chelem(self.view, self.taker)
        self._seat, self._phase = self.taker, Phase.CHELEM

    def _declare(self, announced: int) -> None:
        chelem, leader = phases.declare_chelem(self.view, self.tally, self.trumps, self.dealer, self.taker, announced,
                                               self.seats)
        self.chelem, self.first_leader = int(chelem), int(leader)
        self._leader = self.first_leader
        self._start_trick()

    def _start_trick(self) -> None:
        phases.start_trick(self.view, self._trick, self._leader)
        self._led = self._win_seat = self._win_card = self._high = -1
        self._k = 0
        self._turn()

    def _turn(self) -> None:
        self._seat = int(phases.turn(self.view, self._leader, self._k, self.seats))
        if self._trick == 0:  # a poignée, shown before the seat's first card
            self._most = int(phases.start_poignee(self.compiled_rules, self.view, self._seat, self.taker, self.contract,
                                                  self.trumps, self._dealt_trumps, self.suits, self.discard_t))
            if self._most > 0:
                self._phase = Phase.POIGNEE
                return
        self._start_play()

    def _poignee(self, level: int) -> None:
        if level == 0:
            phases.apply_poignee(self.view, self.tally, self._seat, 0, np.int64(0))
            self._start_play()
            return
        self._show_n = int(phases.POIGNEE_CARDS_BY_SEATS[self.seats, level])
        self._shown = np.int64(0)
        self._phase = Phase.SHOW

    def _show(self, c: int) -> None:
        self._shown = np.int64(int(self._shown) | 1 << (c - FIRST_TRUMP))
        if int(self._shown).bit_count() < self._show_n:
            return
        s = self._seat
        level = int(phases.poignee_is_legal(self.compiled_rules, self.view, self._shown))
        assert level > 0, "poignee_next leads to legal poignées only"
        phases.apply_poignee(self.view, self.tally, s, level, self._shown)
        self.poignees[s] = int(self._shown)
        self._policy_show = None
        self._start_play()

    def _start_play(self) -> None:
        s = self._seat
        self._legal = phases.legal_cards(self.compiled_rules, self.suits[s], self.trumps[s], self._led, self._high,
                                         self._k == 0)
        self._phase = Phase.PLAY

    def _play(self, c: int) -> None:
        self.plays.append(c)
        if c == self.called:
            self.partner_revealed = self._trick
        self._led, self._win_seat, self._win_card, self._high = phases.apply_card(
            self.view, self.suits, self.trumps, self._seat, c, self._led, self._win_seat, self._win_card, self._high,
            self.seats)
        self._k += 1
        if self._k < self.seats:
            self._turn()
            return
        self._leader = int(phases.end_trick(self.compiled_rules, self.view, self.tally, self.trick_winner,
                                            self._win_seat))
        self._trick += 1
        if self._trick < self.n_tricks:
            self._start_trick()
            return
        self._count()

    def _count(self) -> None:
        r = self.compiled_rules
        taker_half, oudlers, petit_au_bout, slam = phases.count(r, self.view, self.tally, self.trick_winner,
                                                                self.chien, self.discard_s, self.discard_t)
        target, won, amount = phases.score(r, self.view, self.tally, taker_half, oudlers, petit_au_bout, slam)
        self.taker_half, self.oudlers, self.petit_au_bout, self.slam = (int(taker_half), int(oudlers),
                                                                        int(petit_au_bout), int(slam))
        self.target, self.won, self.amount = int(target), int(won), int(amount)
        self._phase = Phase.DONE
