"""Privacy's refusals, in the words the people who act read (commands turn them into a
CommandError, admin pages into a message)."""


class PrivacyError(Exception):
    """A refusal with a message for people."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class HoldRefused(PrivacyError):
    """A hold cannot be placed or released as asked."""


class RequestRefused(PrivacyError):
    """A person's request cannot be registered or answered as asked."""
