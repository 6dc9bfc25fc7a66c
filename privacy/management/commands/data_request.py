"""``manage.py data_request CPF --kind acesso [--origin pagina|canal|carta] [--channel SLUG]
[--details "..."] [--out DIR]``:
register a person's request (LGPD art. 18) and print the simplified answer (art. 19, I):
the request's number and the term of the complete answer. For access and portability,
answer at once: the export is written (and sent as a letter) and its paths printed; with
``--out``, copies of the JSON and the PDF are written to DIR too."""

from pathlib import Path

from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError

from claims.models import Channel
from privacy.errors import RequestRefused
from privacy.models import RequestKind, RequestOrigin
from privacy.requests import services

ACTOR = "operacao:data_request"


class Command(BaseCommand):
    help = "Registra a requisição de um titular (LGPD art. 18) e, para acesso e " \
           "portabilidade, gera a exportação dos dados."

    def add_arguments(self, parser):
        parser.add_argument("cpf", help="CPF do titular (com ou sem pontuação)")
        parser.add_argument("--kind", required=True, help="tipo: " + ", ".join(RequestKind.values))
        parser.add_argument("--origin", default=RequestOrigin.LETTER,
                            help="origem: " + ", ".join(RequestOrigin.values) + " (padrão: carta)")
        parser.add_argument("--channel", help="identificador (slug) do canal, com --origin canal")
        parser.add_argument("--details", default="", help="o pedido nas palavras do titular")
        parser.add_argument("--out", help="pasta onde gravar uma cópia do JSON e do PDF")

    def handle(self, *args, cpf, kind, origin, channel, details, out, **options):
        found = None
        if channel:
            found = Channel.objects.filter(slug=channel).first()
            if found is None:
                raise CommandError(f"Canal desconhecido: {channel}.")
        if origin == RequestOrigin.CHANNEL and found is None:
            raise CommandError("Uma requisição vinda de um canal precisa do canal: "
                               "--channel <identificador>.")
        try:
            request = services.register_request(cpf=cpf, kind=kind, origin=origin,
                                                channel=found, details=details,
                                                registered_by=ACTOR)
        except RequestRefused as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Requisição nº {request.pk} registrada ({request.get_kind_display()}). "
                          f"Prazo da resposta completa: {request.due_on:%d/%m/%Y}.")
        if kind not in (RequestKind.ACCESS, RequestKind.PORTABILITY):
            self.stdout.write("Responda pelo admin: Privacidade > Requisições dos titulares.")
            return
        request = services.answer_request(request, answered_by=ACTOR)
        self.stdout.write(request.answer)
        self.stdout.write(f"JSON: {request.export_json}")
        self.stdout.write(f"PDF: {request.export_pdf}")
        if out:
            folder = Path(out)
            folder.mkdir(parents=True, exist_ok=True)
            for stored in (request.export_json, request.export_pdf):
                target = folder / stored.rsplit("/", 1)[-1]
                with default_storage.open(stored, "rb") as source:
                    target.write_bytes(source.read())
                self.stdout.write(f"Cópia: {target}")
