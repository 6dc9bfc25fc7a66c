"""STUB (replaced by the metrics branch)."""


def record_attempts(observations) -> None:
    for _ in observations:
        pass


def flush(force: bool = False) -> None:
    pass
