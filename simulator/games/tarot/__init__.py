"""French Tarot (RULES.md Part 2): the second game family."""
