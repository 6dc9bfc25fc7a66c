from django.apps import AppConfig


class SroConfig(AppConfig):
    name = "sro"
    verbose_name = "Registro SRO (SUSEP)"

    def ready(self):
        from workbench.admin import panels
        from api_common import metrics as scrape
        from claims.signals import claim_moved
        from sro import admin_panels, metrics, receivers

        # Each claim move may change what the registradora must know: the change is
        # written in the move's own transaction (sro.receivers).
        claim_moved.connect(receivers.register_move, dispatch_uid="sro.register_move")
        panels.register(admin_panels.CLAIM_PANEL)
        scrape.register(metrics.SroCollector())  # its figures on /metricas
