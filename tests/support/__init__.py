"""What the tests share: factories, helpers, and the real servers they start."""
