"""Spades for four players in two partnerships (RULES.md Part 1)."""
