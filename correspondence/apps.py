from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    name = "correspondence"
    verbose_name = "Correspondência"

    def ready(self):
        from anymail.signals import tracking

        from claims import consequences as move_consequences
        from correspondence import checks, consequences, hosted, receivers  # noqa: F401
        from whitelabel import extensions

        # The letter of a claim move: written from the move's consequence row, after the
        # move commits (correspondence.consequences).
        move_consequences.register(consequences.CONSUMER)
        tracking.connect(receivers.provider_report, dispatch_uid="correspondence.reports")
        extensions.claim_page_opened.connect(hosted.denial_seen,
                                             dispatch_uid="correspondence.denial_seen")
        extensions.register_section(hosted.section)
