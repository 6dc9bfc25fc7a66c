"""``manage.py sro_status``: where the SRO registrations stand; with ``--check`` it exits
1 when any is late, refused or incomplete, for a cron or a monitoring probe
(docs/sro.md, "Alertas")."""

from django.conf import settings
from django.core.management.base import BaseCommand

from sro.overview import overview


class Command(BaseCommand):
    help = "Situação dos registros SRO: na fila, atrasados, recusados, incompletos."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="Sai com código 1 se houver registro atrasado, recusado "
                                 "ou incompleto.")

    def handle(self, *args, check=False, **options):
        figures = overview()
        if not settings.SRO_API_URL:
            self.stdout.write("Nenhuma registradora configurada (SRO_API_URL vazio): os "
                              "registros são guardados, não enviados.")
        if settings.SUSEP_CODIGO_SEGURADORA == "00000":
            self.stdout.write("O código SUSEP da seguradora é o de exemplo (00000): defina "
                              "SUSEP_CODIGO_SEGURADORA.")
        self.stdout.write(f"Na fila de envio: {figures.pending}")
        late = f"Atrasados: {figures.late}"
        if figures.oldest_late_deadline:
            late += f" (prazo mais antigo: {figures.oldest_late_deadline:%d/%m/%Y})"
        self.stdout.write(late)
        self.stdout.write(f"Recusados pela registradora: {figures.refused}")
        self.stdout.write(f"Incompletos (sem códigos ou dados): {figures.incomplete}")
        if check and figures.needs_attention:
            self.stderr.write("SRO: há registros que precisam de atenção.")
            raise SystemExit(1)
