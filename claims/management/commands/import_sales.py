"""Load a channel's sales from a JSON file: ``manage.py import_sales FILE --channel SLUG``."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from api_common.problems import flatten_validation_errors
from claims.models import Channel, Sale
from claims.serializers import SaleSerializer
from claims.errors import SaleCancellationWithOpenClaims, SaleOfAnotherChannel
from claims.services import upsert_sales
from claims.services.sales import describe_open_claims, open_claims_blocking_cancellation

BATCH = 500


class Command(BaseCommand):
    help = (
        "Importa vendas de um arquivo JSON (lista de objetos no formato de GET /api/v1/vendas/{id}). "
        "Insere ou atualiza por id-venda. Se alguma linha for inválida (ou cancelar uma venda "
        "com sinistros em aberto), nada é importado."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--channel", required=True, help="Identificador do canal (create_channel).")

    def handle(self, *args, file: Path, channel: str, **options):
        owner = Channel.objects.filter(slug=channel).first()
        if owner is None:
            raise CommandError(f"Canal '{channel}' não encontrado.")
        try:
            rows = json.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CommandError(f"Arquivo não encontrado: {file}") from None
        except OSError as exc:  # a directory, no permission, ...
            raise CommandError(f"Não foi possível ler {file}: {exc.strerror}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"{file} não é JSON válido: {exc}") from None
        if not isinstance(rows, list):
            raise CommandError("O arquivo deve conter uma lista JSON de vendas.")

        valid, problems = self._validate(rows, owner)
        if problems:
            for index, reason in problems:
                self.stderr.write(f"linha {index}: {reason}")
            raise CommandError(
                f"{len(problems)} linha(s) inválida(s) de {len(rows)}; nada foi importado."
            )

        created = updated = 0
        # One transaction for the whole file: it loads entirely or not at all.
        with transaction.atomic():
            for start in range(0, len(valid), BATCH):
                try:
                    batch_created, batch_updated = upsert_sales(
                        channel=owner, rows=valid[start:start + BATCH]
                    )
                # Checked above, and again under the sales' locks: another channel may
                # have imported an id, or a claim been opened, in between.
                except (SaleOfAnotherChannel, SaleCancellationWithOpenClaims) as exc:
                    raise CommandError(
                        f"{exc.problem_id}: {exc.detail} Nada foi importado.") from None
                created, updated = created + batch_created, updated + batch_updated
                if len(valid) > BATCH:
                    self.stderr.write(f"... {min(start + BATCH, len(valid))}/{len(valid)}")
        self.stdout.write(
            f"{len(valid)} venda(s) importada(s): {created} criada(s), {updated} atualizada(s)."
        )

    def _validate(self, rows: list, owner: Channel) -> tuple[list[dict], list[tuple[int, str]]]:
        valid: list[dict] = []
        problems: list[tuple[int, str]] = []
        seen: dict = {}
        for index, row in enumerate(rows):
            serializer = SaleSerializer(data=row)
            if not isinstance(row, dict) or not serializer.is_valid():
                errors = serializer.errors if isinstance(row, dict) else {"": ["não é um objeto"]}
                reason = "; ".join(
                    f"{e['campo']}: {e['mensagem']}" for e in flatten_validation_errors(errors)
                )
                problems.append((index, reason))
                continue
            sale_id = serializer.validated_data["id"]
            if sale_id in seen:
                problems.append((index, f"id-venda {sale_id} repetido (linha {seen[sale_id]})"))
                continue
            seen[sale_id] = index
            valid.append(serializer.validated_data)
        ids = list(seen)
        foreign: set = set()
        for start in range(0, len(ids), BATCH):
            batch = Sale.objects.filter(pk__in=ids[start:start + BATCH]).exclude(channel=owner)
            foreign.update(batch.values_list("pk", flat=True))
        for sale_id in foreign:
            problems.append((seen[sale_id], f"id-venda {sale_id} pertence a outro canal"))
        own = [row for row in valid if row["id"] not in foreign]
        for start in range(0, len(own), BATCH):
            blocking = open_claims_blocking_cancellation(own[start:start + BATCH])
            for sale_id, numbers in blocking.items():
                problems.append((seen[sale_id], f"{SaleCancellationWithOpenClaims.problem_id}: "
                                                f"{describe_open_claims(sale_id, numbers)}"))
        problems.sort()
        return valid, problems
