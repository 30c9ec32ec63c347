"""What the step APIs of the game families share (``games/<game>/state.py``).

A step API plays one hand or deal action by action on the kernel's own phases. Each game's state
keeps its phase (the game's ``Phase``, an ``IntEnum`` with a member ``DONE``), the seat to act, the
public view and one policy stream a seat; :class:`StepState` answers the queries on those and hands
``policy_action`` the seat's strategy as the batch kernel calls it. Which slot a phase asks, and with
which cards, stays with the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from tricksim.simulator.errors import IllegalAction


@dataclass(frozen=True)
class Event:
    """One applied action: ``seat`` acted in ``phase`` (a member of the game's ``Phase``)."""

    seat: int
    phase: IntEnum
    action: int


class StepState:
    """Base of a game's state: sets nothing itself. A subclass keeps ``_phase`` and ``_seat`` (the seat to
    act), ``view`` and ``streams`` (``streams[s]``: seat s's policy stream), and says ``OVER``: what a
    policy call after the end is told."""

    OVER = "the hand is over"
    _phase: IntEnum
    _seat: int
    view: np.ndarray
    streams: np.ndarray

    @property
    def phase(self):
        return self._phase

    def current_player(self) -> int:
        """The seat to act, or -1 once it is over."""
        return -1 if self.is_terminal() else self._seat

    def is_terminal(self) -> bool:
        return self._phase == type(self._phase).DONE

    def _policy_call(self, seat_policy) -> tuple:
        """The seat to act's strategy as the batch kernel calls it: (its functions in the family's
        ``policy_slots`` order, the seat as int64, its parameters, the view, the seat's own stream)."""
        if self.is_terminal():
            raise IllegalAction(self.OVER)
        return seat_policy.functions, np.int64(self._seat), seat_policy.params, self.view, self.streams[self._seat]
