"""The Tarot kernel's output row, by block and index: the kernel writes a deal's row into these blocks and
``tables.py`` names them as columns. Plain constants (no numba), so that the table module, which the family
record imports, loads no compiled code."""

W_DEALT, W_CHIEN, W_DISCARD, W_POIGNEE, N_WORDS = 0, 8, 10, 12, 20        # int64 (lo, hi) pairs
S_DEALER, S_VOID, S_BID, S_TAKER, S_CONTRACT, S_CHELEM, S_FIRST_LEADER = 0, 1, 2, 6, 7, 8, 9
S_OUDLERS, S_WON, S_PETIT_AU_BOUT, S_SLAM, N_CODES = 10, 11, 12, 13, 14   # int8 codes: seats, bids, flags
I_TAKER_POINTS, I_TARGET, I_POIGNEE, I_SCORE, N_INTS = 0, 1, 2, 3, 7      # int32 (taker points in half-points)
N_PLAYS = 72                                                               # int8: the cards in play order
