"""A dependency left alone for a while after it failed (the shared cache, the broker):
during an outage a process pays one failed call per period, not one per request."""

import time


class Pause:
    """Per process: after :meth:`start`, :meth:`active` is true for ``seconds``."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._until = 0.0

    def active(self) -> bool:
        return time.monotonic() < self._until

    def start(self) -> None:
        self._until = time.monotonic() + self.seconds

    def end(self) -> None:
        """Ask the dependency again at the next call (tests; an operator's shell)."""
        self._until = 0.0
