from django.apps import AppConfig


class SroConfig(AppConfig):
    name = "sro"
    verbose_name = "Registro SRO (SUSEP)"

    def ready(self):
        from workbench.admin import panels
        from api_common import metrics as scrape
        from claims import consequences as move_consequences
        from sro import admin_panels, consequences, metrics

        # Each claim move may change what the registradora must know: the change is
        # built after the move commits, in the claim's move order (sro.consequences).
        move_consequences.register(consequences.CONSUMER)
        panels.register(admin_panels.CLAIM_PANEL)
        scrape.register(metrics.SroCollector())  # its figures on /metricas
