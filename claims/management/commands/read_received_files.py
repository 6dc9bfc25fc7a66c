"""``manage.py read_received_files``: files received before document readings existed
(docs/document-readings.md) get their reading, in the workers."""

from django.core.management.base import BaseCommand

from claims import services


class Command(BaseCommand):
    help = ("Põe na fila de leitura os arquivos recebidos que ainda não têm leitura "
            "(recebidos antes da leitura automática), em lotes; os workers os leem.")

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=1000)

    def handle(self, *args, batch, **options):
        total = 0
        while queued := services.queue_unread_files(batch=batch):
            total += queued
        self.stdout.write(f"{total} arquivo(s) na fila de leitura.")
