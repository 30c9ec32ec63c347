"""The Tarot kernel's output row, by block and index: the kernel writes a deal's row into these blocks and
``tables.py`` names them as columns. Plain constants (no numba), so that the table module, which the family
record imports, loads no compiled code. Per-seat entries hold five seats (the most: policy.MAX_SEATS)."""

W_DEALT, W_CHIEN, W_DISCARD, W_POIGNEE, N_WORDS = 0, 10, 12, 14, 24       # int64 (lo, hi) pairs
S_DEALER, S_VOID, S_BID, S_TAKER, S_CONTRACT, S_CHELEM, S_FIRST_LEADER = 0, 1, 2, 7, 8, 9, 10
S_OUDLERS, S_WON, S_PETIT_AU_BOUT, S_SLAM = 11, 12, 13, 14                # int8 codes: seats, bids, flags
S_CALLED, S_PARTNER, S_REVEALED, N_CODES = 15, 16, 17, 18                 # five players: the call
I_TAKER_POINTS, I_TARGET, I_POIGNEE, I_SCORE, N_INTS = 0, 1, 2, 3, 8      # int32 (taker points in half-points)
N_PLAYS = 75                                                               # int8: the cards in play order (72 or 75)


def n_plays(seats: int) -> int:
    """The cards played in a deal of ``seats`` players: every card but the chien (six cards, three for five)."""
    return 78 - (3 if seats == 5 else 6)
