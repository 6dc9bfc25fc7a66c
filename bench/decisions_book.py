"""A generated book for the rules (not a test): credit-life unemployment claims carried to
"documentação em análise" by the services, each with a real termination (TRCT) PDF, then
decided by the rules; how many were decided and paid with no person (the target: 30 %).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/decisions_book.py [--claims 10000] [--seed 7]

The book, per claim (shares of ``SCENARIOS``): most are simple and fine; some fall in the
90-day waiting period (they also raise ``sinistro-precoce``); some reuse an insured
person's CPF in another channel (``cpf-em-varios-canais``) or a third time (the table's
"two or more claims"); some terminations do not match the claim (another person's CPF, or
a leaving date a month off); some come without the creditor's payment data. Each TRCT is
written with fpdf2 (a text layer) with the person's name, CPF and dates and stored through
the project's storage (local, in a scratch directory), as an upload is.

Readings: every file is read by ``claims.services.readings.read_document`` (the real
reader, in this process) before the rules run.

The rules are the shipped table (load_default_rules, mode "on"), evaluated in-process by
``decisions.services.evaluate.evaluate_claim``. PostgreSQL only; a ``test_``-prefixed
scratch database from ``DATABASE_URL``, dropped at the end.
"""

import argparse
import datetime as dt
import io
import os
import random
import sys
import tempfile
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("CELERY_BROKER_URL", "memory://")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

COVERAGE, NATURE, DOC_TYPE = "cobertura/perda-de-renda", "perda-de-renda-desemprego", "termo-de-rescisao"
# What happens in a claim, out of 100.
SCENARIOS = [("simple", 72), ("waiting-period", 6), ("other-channel-cpf", 4),
             ("third-claim-cpf", 2), ("wrong-cpf", 6), ("wrong-dates", 4), ("no-creditor-data", 6)]
CHANNELS = 4
CREDITOR = {
    "beneficiario": {"tipo": "credor", "nome": "Banco Exemplo S.A.", "cpf-ou-cnpj": "11222333000181"},
    "dados-pagamento": {"metodo-pagamento": "ted", "ted": {
        "banco": "001", "agencia": "1234", "conta": "567890", "conta-digito": "1"}},
}
FIRST = ("Maria", "José", "Ana", "João", "Francisca", "Antônio", "Adriana", "Carlos", "Juliana",
         "Paulo", "Márcia", "Pedro", "Aline", "Lucas", "Sandra", "Marcos")
LAST = ("Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira",
        "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes")


def trct_pdf(*, name: str, cpf: str, admitted: dt.date, left: dt.date) -> bytes:
    """A termination of employment (TRCT) as employers issue it, with a text layer."""
    from claims.documents.readings import specimens

    return specimens.text_pdf(specimens.termination_lines(
        name=name, cpf=f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}", admitted=admitted, left=left))


class Book:
    def __init__(self, rng: random.Random, today: dt.date):
        from tests.support.factories import make_channel

        self.rng, self.today = rng, today
        self.channels = [make_channel(f"Banco parceiro {n}") for n in range(1, CHANNELS + 1)]
        self.people: list[tuple[str, str, int]] = []  # name, cpf, claims so far
        self.scenarios = [name for name, weight in SCENARIOS for _ in range(weight)]

    def person(self, scenario: str, channel_index: int):
        from tests.support.factories import make_cpf

        if scenario in ("other-channel-cpf", "third-claim-cpf") and self.people:
            wanted = 2 if scenario == "third-claim-cpf" else 1
            known = [p for p in self.people if p[2] == wanted] or self.people
            name, cpf, _ = self.rng.choice(known)
            channel_index = (channel_index + 1) % CHANNELS if scenario == "other-channel-cpf" \
                else channel_index
        else:
            name = f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)} {self.rng.choice(LAST)}"
            cpf = make_cpf(10_000_000 + len(self.people) * 7919 + self.rng.randint(0, 7000))
        return name, cpf, channel_index

    def claim(self, number: int, *, scenario: str | None = None, upload: bool = True):
        """One claim of the book; ``upload`` False: its TRCT is returned, not sent
        (claim id, PDF bytes)."""
        from claims import services
        from claims.serializers.payment_details import PaymentDetailsSerializer
        from django.utils import timezone
        from tests.support.factories import CoverageFactory, SaleFactory

        rng = self.rng
        scenario = scenario or rng.choice(self.scenarios)
        name, cpf, channel_index = self.person(scenario, number % CHANNELS)
        self.people = [p for p in self.people if p[1] != cpf] + [
            (name, cpf, 1 + next((p[2] for p in self.people if p[1] == cpf), 0))]
        channel = self.channels[channel_index]
        if scenario == "waiting-period":
            valid_from = self.today - dt.timedelta(days=rng.randint(30, 80))
            occurred = valid_from + dt.timedelta(days=rng.randint(5, 25))
        else:
            valid_from = self.today - dt.timedelta(days=rng.randint(200, 900))
            occurred = self.today - dt.timedelta(days=rng.randint(3, 60))
        sale = SaleFactory(channel=channel, insured_name=name, insured_cpf=cpf, valid_from=valid_from,
                           valid_until=valid_from + dt.timedelta(days=5 * 365))
        CoverageFactory(sale=sale, name=COVERAGE, max_indemnity=Decimal("30000.00"))
        balance = Decimal(rng.choice([rng.randint(300, 4000)] * 8 + [rng.randint(4000, 14000)] * 2))
        claim = services.open_claim(
            channel=channel, sale_id=sale.id, actor=f"canal:{channel.slug}", coverage_name=COVERAGE,
            nature=NATURE, occurred_at=timezone.make_aware(dt.datetime.combine(occurred, dt.time(9))),
            requester_name=name, contact_name=name, contact_email="contato@example.com",
            narrative="Demitido sem justa causa.", outstanding_balance=balance)
        if scenario != "no-creditor-data":
            details = PaymentDetailsSerializer(data=CREDITOR)
            details.is_valid(raise_exception=True)
            services.supply_payment_details(channel=channel, number=claim.number,
                                            payment_details=details.validated_data,
                                            actor=f"canal:{channel.slug}")
        left, on_file_cpf = occurred, cpf
        if scenario == "wrong-cpf":
            on_file_cpf = self.person("simple", 0)[1]
        elif scenario == "wrong-dates":
            left = occurred - dt.timedelta(days=rng.randint(25, 60))
        content = trct_pdf(name=name, cpf=on_file_cpf, admitted=left - dt.timedelta(days=900),
                           left=left)
        if not upload:
            return claim.pk, content
        document, _ = services.request_document_upload(
            channel=channel, number=claim.number, file_name="trct.pdf", sent_at=timezone.now(),
            doc_type=DOC_TYPE)
        services.store_local_upload(file_id=document.pk, content=io.BytesIO(content))
        return claim.pk, document.pk, scenario


def run(total: int, seed: int) -> None:
    from django.core.management import call_command
    from django.utils import timezone

    from claims.models import Claim, ClaimHistory, DocumentRequirement
    from claims.services.readings import read_document
    from decisions.models import Evaluation, SampleReview
    from decisions.services.evaluate import evaluate_claim
    from payouts.models import PaymentOrder

    call_command("load_default_rules", mode="on", only=NATURE, stdout=io.StringIO())
    DocumentRequirement.objects.get_or_create(coverage_name=COVERAGE, nature=NATURE, doc_type=DOC_TYPE,
                                              defaults={"title": "Termo de rescisão (TRCT)"})
    book = Book(random.Random(seed), timezone.localdate())
    started = time.perf_counter()
    made = [book.claim(n) for n in range(total)]
    built = time.perf_counter()
    for _, file_id, _ in made:
        read_document(file_id=file_id)  # the real reader, here rather than in a worker
    read_done = time.perf_counter()
    ids = [claim_id for claim_id, _, _ in made]
    under_review = Claim.objects.filter(pk__in=ids, status="documentacao-em-analise").count()
    for claim_id, _, _ in made:
        evaluate_claim(claim_id=claim_id, trigger="documentos-completos")
    finished = time.perf_counter()

    effects = Counter(Evaluation.objects.filter(claim_id__in=ids).values_list("effect", flat=True))
    paid = (PaymentOrder.objects.filter(payment__claim_id__in=ids, payment__registered_by__isnull=True)
            .values("payment__claim_id").distinct().count())
    sampled = SampleReview.objects.filter(evaluation__claim_id__in=ids).count()
    denied = Claim.objects.filter(pk__in=ids, status="recusado").count() + \
        ClaimHistory.objects.filter(claim_id__in=ids, action="recusar").count()
    assert denied == 0, f"{denied} denials by machine"
    scenario_counts = Counter(scenario for _, _, scenario in made)

    def share(n):
        return f"{n:>6} ({n / total:6.1%})"
    print("leituras: o leitor real (claims.services.readings.read_document)")
    print(f"sinistros: {total}  (chegaram a documentacao-em-analise: {under_review})")
    print("cenários:", ", ".join(f"{name} {scenario_counts[name]}" for name, _ in SCENARIOS))
    print(f"decididos e pagos sem pessoa (ordem de pagamento das regras): {share(paid)}"
          f"  — meta 30 %: {'atingida' if paid / total >= 0.30 else 'NÃO atingida'}")
    print(f"  dos quais em amostra de revisão (ordem retida): {sampled}")
    print(f"aprovados aguardando dados de pagamento:           {share(effects['aguardando-dados'])}")
    print(f"encaminhados a uma pessoa:                         {share(effects['encaminhada'])}")
    print(f"recusa proposta a um supervisor:                   {share(effects['recusa-proposta'])}")
    others = {k: v for k, v in effects.items()
              if k not in ("aplicada", "aguardando-dados", "encaminhada", "recusa-proposta")}
    print(f"outros efeitos: {others or 'nenhum'}")
    print("recusas pela máquina: 0 (verificado)")
    elapsed = finished - started
    print(f"tempo: montar {built - started:.1f} s, ler {read_done - built:.1f} s, "
          f"avaliar {finished - read_done:.1f} s ({total / (finished - read_done):.1f} sinistros/s); "
          f"total {elapsed:.1f} s = {total / elapsed:.1f} sinistros/s; "
          f"10.000 levariam ~{10_000 / (total / elapsed) / 60:.0f} min")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database's server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            from django.conf import settings

            settings.MEDIA_ROOT, settings.DOCUMENT_STORAGE = Path(scratch) / "media", "local"
            run(args.claims, args.seed)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
