"""What the engine harnesses share: the protocol loop, the checkout, the card order."""
