import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_slug
from django.utils.text import slugify

from claims.models import Channel
from claims.services import create_channel


class Command(BaseCommand):
    help = "Cria um canal parceiro e seu cliente OAuth; mostra client_id e client_secret uma única vez."

    def add_arguments(self, parser):
        parser.add_argument("name", help="Nome do canal (ex.: 'Banco Exemplo').")
        parser.add_argument("--slug", help="Identificador do canal (padrão: derivado do nome).")
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="Saída como um objeto JSON."
        )
        parser.add_argument(
            "--sandbox", action="store_true",
            help="Canal de testes do parceiro, com vendas próprias; move os próprios sinistros "
                 "pela API do sandbox e nada dele chega à equipe, a e-mails ou ao SRO.",
        )

    def handle(self, *args, name, slug=None, as_json=False, sandbox=False, **options):
        max_length = Channel._meta.get_field("slug").max_length
        slug = slug if slug is not None else slugify(name)[:max_length].strip("-")
        if not slug:
            raise CommandError("Informe um nome (ou --slug) com letras ou dígitos.")
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(
                f"--slug '{slug}' inválido: use letras minúsculas, dígitos e hífens."
            ) from None
        if len(slug) > max_length:
            raise CommandError(f"--slug tem mais de {max_length} caracteres.")
        if Channel.objects.filter(slug=slug).exists():
            raise CommandError(f"Já existe um canal '{slug}'.")
        channel, secret = create_channel(name=name, slug=slug, sandbox=sandbox)
        client_id = channel.application.client_id
        sales = [str(pk) for pk in channel.sales.order_by("insured_name").values_list("pk", flat=True)]
        if as_json:
            credentials = {"channel": channel.slug, "client_id": client_id, "client_secret": secret,
                           **({"sandbox": True, "vendas": sales} if sandbox else {})}
            self.stdout.write(json.dumps(credentials))
            return
        self.stdout.write(f"channel: {channel.slug}")
        self.stdout.write(f"client_id: {client_id}")
        self.stdout.write(f"client_secret: {secret}")
        if sandbox:
            self.stdout.write(f"sandbox: {len(sales)} vendas (GET /api/v1/vendas)")
        self.stderr.write("Guarde o client_secret agora: ele é armazenado com hash e não será mostrado de novo.")
