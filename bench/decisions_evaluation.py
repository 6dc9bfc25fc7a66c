"""Benchmark (not a test): the rules' decision on one claim — statements and time — for a
claim with one file against one with ten files and three more beneficiaries, each against
floors measured in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/decisions_evaluation.py [--claims 40] [--rounds 3]

Per round, on fresh claims in "documentação em análise" (made by the services, as
bench/decisions_book.py makes them; readings given as "the termination matches"):

- decide (shadow): ``evaluate_claim`` with the rule set in shadow — lock, facts, engine,
  the evaluation row and the timeline entry, no payment — on small and on large claims;
- floor, engine: ``engine.evaluate`` of the same table on the same facts, no database;
- floor, a move: ``lock_claim`` and one history row in a transaction (the least any change
  of a claim costs);
- decide and pay (on): ``evaluate_claim`` with the rules on (approve, register the
  creditor's payment, its payment order) against the same moves through the services by
  an analyst (``approve_documents`` then ``register_payment``).

Medians of the rounds; statements counted with Django's query capture. PostgreSQL only;
a ``test_``-prefixed scratch database, dropped at the end.
"""

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import decisions_book as book  # noqa: E402  (sets Django up)
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def timed(call) -> tuple[float, int]:
    connection.queries_log.clear()  # the capture counts within a log of 9,000 at most
    with CaptureQueriesContext(connection) as context:
        started = time.perf_counter()
        call()
        elapsed = time.perf_counter() - started
    return elapsed, len(context.captured_queries)


def claims(maker, count: int, *, large: bool) -> list:
    from django.utils import timezone

    from claims import services
    from claims.models import Claim
    from tests.support.factories import BeneficiaryFactory, make_cpf

    made = []
    for _ in range(count):
        claim_id, _, _ = maker.claim(len(maker.people), scenario="simple")
        claim = Claim.objects.select_related("channel").get(pk=claim_id)
        if large:
            for n in range(9):
                document, _ = services.request_document_upload(
                    channel=claim.channel, number=claim.number, file_name=f"extra-{n}.pdf",
                    sent_at=timezone.now())
                services.store_local_upload(file_id=document.pk, content=io.BytesIO(
                    book.trct_pdf(name="Outro", cpf="52998224725", admitted=timezone.localdate(),
                                  left=timezone.localdate())))
            for n in range(3):
                BeneficiaryFactory(claim=claim, tax_id=make_cpf(900_000 + len(made) * 10 + n),
                                   name=f"Herdeiro {n}", share=33)
        made.append(claim_id)
    return made


def run(count: int, rounds: int) -> None:
    from django.core.management import call_command
    from django.utils import timezone

    from claims import services
    from claims.models import Claim, DocumentRequirement
    from claims.services.moves import lock_claim
    from claims.services.recording import write_timeline_entry
    from claims.workflow import TimelineEntry
    from decisions import engine, facts as facts_module
    from decisions.models import RuleSet
    from decisions.services.evaluate import evaluate_claim
    from decisions.services.rules import published_version, rows_of, rule_set_for

    call_command("load_default_rules", mode="on", only=book.NATURE, stdout=io.StringIO())
    DocumentRequirement.objects.get_or_create(
        coverage_name=book.COVERAGE, nature=book.NATURE, doc_type=book.DOC_TYPE,
        defaults={"title": "Termo de rescisão (TRCT)"})
    facts_module.reading_facts = lambda claim: {
        "documentos_lidos": True, "documentos_integros": True, "leitura_incerta": False,
        "arquivo_repetido": False, "rescisao_confere": True, "rescisao_data_diverge_dias": 0}
    from django.conf import settings

    settings.AUTO_DECISION_SAMPLE_RATE = 0
    analyst = make_analyst()
    maker = book.Book(random.Random(1), timezone.localdate())
    figures: dict[str, list] = {}

    def note(name, samples):
        figures.setdefault(name, []).append((statistics.median(s[0] for s in samples),
                                             statistics.median(s[1] for s in samples)))

    def decide(claim_id):
        return lambda: evaluate_claim(claim_id=claim_id, trigger="documentos-completos")

    def by_hand(claim_id):
        def call():
            services.approve_documents(claim_id=claim_id, user=analyst)
            claim = Claim.objects.get(pk=claim_id)
            creditor = claim.beneficiaries.get(kind="credor")
            services.register_payment(claim_id=claim_id, beneficiary_id=creditor.pk, user=analyst,
                                      amount=claim.amount)
        return call

    def move(claim_id):
        def call():
            with transaction.atomic():
                claim = lock_claim(claim_id=claim_id)
                write_timeline_entry(claim, entry=TimelineEntry.RULES_EVALUATED, user=None,
                                     actor="bench", note="Medida")
        return call

    for _ in range(rounds):
        RuleSet.objects.update(mode=RuleSet.Mode.SHADOW)
        small, large = claims(maker, count, large=False), claims(maker, count, large=True)
        note("decide (shadow), 1 file", [timed(decide(c)) for c in small])
        note("decide (shadow), 10 files + 3 beneficiaries", [timed(decide(c)) for c in large])
        claim = Claim.objects.select_related("coverage", "channel", "sale").get(pk=small[0])
        version = published_version(rule_set_for(claim))
        facts = facts_module.collect(claim)
        note("floor: engine alone (same table, same facts)",
             [timed(lambda: engine.evaluate(rows_of(version), facts, key=version.pk))  # noqa: B023
              for _ in range(count)])
        note("floor: a move (lock + one history row)", [timed(move(c)) for c in small])
        RuleSet.objects.update(mode=RuleSet.Mode.ON)
        rules, people = claims(maker, count, large=False), claims(maker, count, large=False)
        note("decide and pay (on): the rules", [timed(decide(c)) for c in rules])
        note("same moves by an analyst (services)", [timed(by_hand(c)) for c in people])

    print(f"PostgreSQL, {count} claims per variant and round, medians of {rounds} rounds")
    rows = {name: (statistics.median(t for t, _ in values), statistics.median(q for _, q in values))
            for name, values in figures.items()}
    base = rows["floor: a move (lock + one history row)"][0]
    for name, (seconds, statements) in rows.items():
        print(f"{name:<48} {seconds * 1000:8.2f} ms  {statements:5.0f} statements  "
              f"×{seconds / base:6.2f} a move")
    small_q = rows["decide (shadow), 1 file"][1]
    large_q = rows["decide (shadow), 10 files + 3 beneficiaries"][1]
    print(f"statements per decision flat: {'yes' if small_q == large_q else 'NO'} "
          f"({small_q:.0f} and {large_q:.0f})")
    rules_s, people_s = rows["decide and pay (on): the rules"][0], rows["same moves by an analyst (services)"][0]
    print(f"decide and pay, rules/analyst's moves: ×{rules_s / people_s:.2f}")


def make_analyst():
    from tests.support.lifecycle import staff

    return staff("bench-supervisora", "Supervisor de sinistros")  # within her authority


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database's server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            from django.conf import settings

            settings.MEDIA_ROOT, settings.DOCUMENT_STORAGE = Path(scratch) / "media", "local"
            run(args.claims, args.rounds)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
