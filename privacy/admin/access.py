"""Privacy admin: access."""
