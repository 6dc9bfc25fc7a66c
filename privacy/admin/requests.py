"""Privacy admin: requests."""
