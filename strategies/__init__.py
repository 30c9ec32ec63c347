"""Seat strategies, one folder per game family, and the registry that names them."""
