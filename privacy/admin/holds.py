"""Privacy admin: holds."""
