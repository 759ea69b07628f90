"""The findings of a conform run."""
