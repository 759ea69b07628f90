"""The reports of a conform run."""
