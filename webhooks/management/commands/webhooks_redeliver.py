"""Send a channel's webhook deliveries again (after the receiver fixed its endpoint,
lost data, or the subscription was enabled again)."""

import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from claims.models import Channel
from claims.workflow import EventName
from webhooks import delivery


class Command(BaseCommand):
    help = (
        "Marca para reenvio as entregas de webhook de um canal (pendentes, entregues ou "
        "que falharam; só as que falharam com --failed-only), de assinaturas ativas, "
        "criadas desde --since e de um --event, e as põe na fila. Cada uma recomeça o "
        "calendário de tentativas; o receptor as recebe com o mesmo webhook-id."
    )

    def add_arguments(self, parser):
        parser.add_argument("--channel", required=True, metavar="SLUG",
                            help="identificador (slug) do canal")
        parser.add_argument("--since", metavar="ISO-8601",
                            help="só entregas criadas desde então (data ou data-hora; sem "
                                 "fuso, o TIME_ZONE)")
        parser.add_argument("--event", metavar="NOME", help="só este evento, ex. sinistro-criado")
        parser.add_argument("--failed-only", action="store_true",
                            help="só as entregas que falharam (tentativas esgotadas)")

    def handle(self, *args, channel: str, since: str | None, event: str | None,
               failed_only: bool, **options):
        found = Channel.objects.filter(slug=channel).first()
        if found is None:
            raise CommandError(f"Canal desconhecido: {channel!r} (use o identificador/slug).")
        if not (found.is_active and found.claims_api_enabled):
            raise CommandError(f"O canal {channel!r} está inativo ou sem a API de sinistros "
                               "habilitada: nada seria enviado.")
        if event is not None and event not in EventName.values:
            raise CommandError(f"Evento desconhecido: {event!r}. Eventos: "
                               + ", ".join(EventName.values) + ".")
        marked = delivery.redeliver_matching(
            channel=found, since=self._parse_since(since) if since else None,
            event_name=event, failed_only=failed_only,
        )
        self.stdout.write(f"{marked} entrega(s) marcada(s) para reenvio e posta(s) na fila.")

    @staticmethod
    def _parse_since(value: str) -> dt.datetime:
        try:
            moment = parse_datetime(value)
            if moment is None and (day := parse_date(value)) is not None:
                moment = dt.datetime.combine(day, dt.time.min)
        except ValueError:
            moment = None
        if moment is None:
            raise CommandError(f"Data inválida para --since: {value!r} (ISO 8601, ex. "
                               "2026-11-20 ou 2026-11-20T08:00:00-03:00).")
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment)
        return moment
