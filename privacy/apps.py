from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """Keeping and forgetting: the retention clock and its legal holds, the runs that
    anonymise what ran out, a person's requests (LGPD art. 18) and the record of who
    read a claim's personal data (LGPD art. 37). docs/privacy.md."""

    name = "privacy"
    verbose_name = "Privacidade e retenção"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from claims.signals import personal_data_read
        from privacy import access, access_panels, admin_panels
        from privacy.requests import card as request_card

        # Every reading of a claim's personal data, wherever it happens (the admin's
        # claim page, downloads, the search, the API), becomes one INSERT here.
        personal_data_read.connect(access.record, dispatch_uid="privacy.access.record")
        # The clock on the claim page, the role's card on the home page.
        admin_panels.install()
        # People's requests (LGPD art. 18): their card, open and overdue.
        request_card.install()
        access_panels.install()  # the claim page's link to its access report
