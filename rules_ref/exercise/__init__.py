"""What a conform run exercised."""
