"""``manage.py load_default_requirements``: the documents each known coverage asks for
on opening (``claims.coverages.default_documents_table``, from
``claims/data/requirements.csv``); what an analyst edited stays."""

from django.core.management.base import BaseCommand
from django.db import transaction

from claims.coverages import default_documents_table
from claims.models import DocumentRequirement


def default_requirements() -> list[dict]:
    return [{"coverage": d.coverage, "nature": d.nature, "doc_type": d.doc_type,
             "title": d.title} for d in default_documents_table()]


class Command(BaseCommand):
    help = (
        "Cria os documentos exigidos padrão de cada cobertura do catálogo (certidão de "
        "óbito, laudo médico, termo de rescisão, documento com CPF...). Os que já existem, "
        "editados ou desativados no admin, ficam como estão."
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
