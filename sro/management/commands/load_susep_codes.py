"""``manage.py load_susep_codes FILE``: each coverage's SUSEP group/branch and coverage
code from a CSV (``coverage_name,group_branch,coverage_code``), all or nothing. The
example file (sro/data/susep_codes.example.csv) is what ``make run`` loads; an insurer
loads its products' own codes (docs/sro.md, "Códigos SUSEP")."""

import csv
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from sro.models import CoverageCode


class Command(BaseCommand):
    help = "Carrega o grupo/ramo e o código SUSEP de cada cobertura (CSV)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--keep-existing", action="store_true",
                            help="Não altera as coberturas que já têm códigos.")

    def handle(self, *args, file: Path, keep_existing=False, **options):
        try:
            with file.open(encoding="utf-8", newline="") as handle:
                rows = list(csv.DictReader(handle))
        except OSError as exc:
            raise CommandError(f"Não foi possível ler {file}: {exc.strerror}.") from None
        codes, problems = [], []
        for line, row in enumerate(rows, start=2):
            code = CoverageCode(coverage_name=(row.get("coverage_name") or "").strip(),
                                group_branch=(row.get("group_branch") or "").strip(),
                                coverage_code=(row.get("coverage_code") or "").strip())
            try:
                code.full_clean(validate_unique=False)
            except ValidationError as exc:
                problems.append(f"linha {line}: " + "; ".join(
                    f"{field}: {' '.join(messages)}"
                    for field, messages in exc.message_dict.items()))
            codes.append(code)
        if problems:
            raise CommandError("Nada foi carregado. " + " ".join(problems))
        loaded = 0
        with transaction.atomic():
            for code in codes:
                if keep_existing and CoverageCode.objects.filter(
                        coverage_name=code.coverage_name).exists():
                    continue
                CoverageCode.objects.update_or_create(
                    coverage_name=code.coverage_name,
                    defaults={"group_branch": code.group_branch,
                              "coverage_code": code.coverage_code})
                loaded += 1
        self.stdout.write(f"{loaded} cobertura(s) com códigos SUSEP carregados.")
