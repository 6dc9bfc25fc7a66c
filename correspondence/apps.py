from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    name = "correspondence"
    verbose_name = "Correspondência"

    def ready(self):
        from anymail.signals import tracking

        from claims.signals import claim_moved
        from correspondence import checks, hosted, receivers  # noqa: F401 - checks registers
        from whitelabel import extensions

        claim_moved.connect(receivers.tell_people, dispatch_uid="correspondence.tell_people")
        tracking.connect(receivers.provider_report, dispatch_uid="correspondence.reports")
        extensions.claim_page_opened.connect(hosted.denial_seen,
                                             dispatch_uid="correspondence.denial_seen")
        extensions.register_section(hosted.section)
