"""Named regression tests: one per failure the property tests have found."""
