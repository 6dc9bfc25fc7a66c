"""Claim moves that change what a claim owes or paid (claims.signals.claim_moved)."""

from ledger import booking


def book_move(sender, *, claim, action, entry, user=None, subject=None, **kwargs):
    booking.book_move(claim=claim, action=action, entry=entry, subject=subject)
