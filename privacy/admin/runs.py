"""Privacy admin: runs."""
