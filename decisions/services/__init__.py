"""The rules' services, one module per concern: which rules apply (rules), evaluating a
claim (evaluate) and acting on it (apply), versions and their four eyes (versions), the
kill switch (switches), people's reviews (reviews), simulation (simulation)."""
