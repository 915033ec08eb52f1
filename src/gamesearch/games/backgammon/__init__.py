"""Backgammon (package docstring only until the rules land on branch bg)."""
