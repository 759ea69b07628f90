"""Positions (``spec/position.md``)."""
