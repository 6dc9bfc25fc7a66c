"""``manage.py load_default_requirements``: the documents each known coverage asks for
on opening, from ``claims/data/requirements.csv``; what an analyst edited stays."""

import csv
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import transaction

from claims.models import DocumentRequirement

DEFAULTS = Path(__file__).resolve().parents[2] / "data" / "requirements.csv"


def default_requirements() -> list[dict]:
    with open(DEFAULTS, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


class Command(BaseCommand):
    help = (
        "Cria os documentos exigidos padrão de cada cobertura do catálogo (certidão de "
        "óbito, laudo médico, documento com CPF...). Os que já existem, editados ou "
        "desativados no admin, ficam como estão."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        created = 0
        for row in default_requirements():
            _, made = DocumentRequirement.objects.get_or_create(
                coverage_name=row["coverage"], nature=row["nature"], product_combo_id=None,
                doc_type=row["doc_type"], defaults={"title": row["title"], "is_active": True})
            created += made
        self.stdout.write(f"Documentos exigidos padrão: {created} criado(s), "
                          f"{len(default_requirements()) - created} já existiam.")
