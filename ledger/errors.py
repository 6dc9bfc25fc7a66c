"""The ledger's refusals, in the words finance reads (commands turn them into a
CommandError, pages into a message)."""


class LedgerError(Exception):
    """A refusal with a message for people."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class CloseRefused(LedgerError):
    """The month cannot be closed now (not ended, an earlier month open, the books not
    matching the claims, the entries not reconciling)."""
