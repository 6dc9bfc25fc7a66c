"""Copies the person keeps from the hosted pages (Lei 15.040/2024, arts. 82-83: the
insured's access to the documents a decision rested on): each download is a line in
the analysts' timeline, so whoever answers the person knows what they hold. The
download's own record (which link, which file) is the hosted pages' (whitelabel)."""

from claims.models import Claim, ClaimHistory
from claims.services.recording import write_timeline_entry
from claims.workflow import TimelineEntry


def record_copy_download(*, claim: Claim, actor: str, what: str) -> ClaimHistory:
    """``what``: the file's name and kind, as the analyst reads it. Runs in the caller's
    transaction (the hosted pages' record of the download)."""
    return write_timeline_entry(claim, entry=TimelineEntry.COPY_DOWNLOADED, user=None,
                                actor=actor, note=what)
