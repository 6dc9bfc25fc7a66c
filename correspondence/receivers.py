"""What e-mail providers report of the letters (django-anymail's tracking signal). The
letters of claim moves are written after the move commits (correspondence.consequences)."""

from correspondence import services


def provider_report(sender, *, event, esp_name, **kwargs):
    """django-anymail's tracking signal: an ESP says a message was delivered or returned."""
    services.record_report(provider_id=event.message_id or "", event_type=event.event_type,
                           at=event.timestamp)
