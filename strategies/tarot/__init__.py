"""The built-in Tarot strategies: one module each, registered under the game "tarot"."""
