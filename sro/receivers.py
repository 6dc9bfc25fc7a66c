"""Claim moves that the registradora must hear of (claims.signals.claim_moved)."""

from sro import services


def register_move(sender, *, claim, action, entry, user=None, subject=None, **kwargs):
    services.register_move(claim=claim, action=action, at=entry.created_at)
