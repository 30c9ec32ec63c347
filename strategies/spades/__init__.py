"""Spades strategies: one module per strategy, each registering itself."""
