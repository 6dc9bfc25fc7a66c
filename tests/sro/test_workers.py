"""Real Celery workers register claims at the local registradora: the beat job sends a
new claim within one interval and its changes after it; two workers at once register
each claim once; a worker killed mid-send loses nothing and sends nothing twice.

Needs PostgreSQL (the workers are other processes and must see the test database, and
SKIP LOCKED is what keeps two workers apart) and a networked broker; `.ci/run` runs it in
its PostgreSQL pass.
"""

import signal
import time

import pytest
from django.conf import settings
from django.utils import timezone

from claims.models import Payment
from sro.models import Submission
from localdev.registradora.schema import validate
from localdev.registradora.server import LocalRegistradora
from sro.tasks import send_registrations
from tests.support.concurrency import postgres_only
from tests.support.factories import CoverageFactory, SaleFactory
from tests.support.lifecycle import (
    DENIAL, HEIR_DETAILS, VALID_PIX, act, acted, claim_under_review, open_claim,
    send_document,
)
from tests.support.workers import CeleryWorkers, wait_until

INTERVAL = 2

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("local_media", "codes"),
]


@pytest.fixture
def registradora(settings):
    with LocalRegistradora() as server:
        settings.SRO_API_URL = ""  # the test process never sends: only the workers do
        yield server


@pytest.fixture
def workers(registradora, tmp_path):
    made = []

    def make(**env):
        made.append(CeleryWorkers(
            "sro", schedule_dir=tmp_path, SRO_API_URL=registradora.url,
            SRO_TOKEN_URL=registradora.token_url, SRO_CLIENT_ID=registradora.client_id,
            SRO_CLIENT_SECRET=registradora.client_secret, SUSEP_CODIGO_SEGURADORA="01234",
            SRO_SEND_INTERVAL_SECONDS=str(INTERVAL), **env))
        return made[-1]
    yield make
    for group in made:
        group.stop()




def accepted_alterations(server, claim) -> list[dict]:
    return list(server.registered.get(claim.number, {}).get("alteracoes", []))


def test_the_beat_registers_a_new_claim_within_one_interval_and_its_changes_follow(
        workers, registradora, api, sale, analyst, supervisor):
    group = workers()
    group.start("beat", beat=True)
    group.wait_ready()  # the worker is up, and its beat with it

    claim = claim_under_review(api, sale)
    opened = time.monotonic()
    assert wait_until(lambda: claim.number in registradora.registered, INTERVAL * 5)
    took = time.monotonic() - opened
    registro = registradora.registered[claim.number]["registro"]
    assert validate("RegistroReqPost", {"data": {"sinistro": [registro]}}) == []
    # One interval, plus the worker's own time to take the tick, build its batch and
    # send it (a second here, more on a loaded machine).
    assert took < INTERVAL + 3, f"registered {took:.1f} s after the notice"

    acted(supervisor, claim, "recusar", {**DENIAL, "reason": "Doença preexistente.",
                                        "note": "x"})
    assert wait_until(lambda: any(a["coberturas_afetadas"][0]["status"] == 3
                                  for a in accepted_alterations(registradora, claim)))
    denial = accepted_alterations(registradora, claim)[-1]["coberturas_afetadas"][0]
    assert denial["justificativa_negativa"] == {"justificativa": 1}
    assert denial["data_conclusao"] == timezone.localdate().isoformat()

    # A paid closing on another claim of the sale: settled payment, then status 2.
    details = {**HEIR_DETAILS, "beneficiario": {
        **HEIR_DETAILS["beneficiario"], "endereco": {"cep": "01310100", "uf": "SP"}}}
    second = SaleFactory(channel=sale.channel)
    CoverageFactory(sale=second, name="cobertura/morte", max_indemnity="50000.00")
    paid = open_claim(api, second, **{"detalhes-pagamento": details})
    send_document(api, paid, "certidao-de-obito")
    send_document(api, paid, "cpf-cnpj")
    paid = acted(analyst, paid, "aprovar-documentacao")
    paid = acted(analyst, paid, "ajustar-reserva", {"amount": "2500,00", "reason": "Laudo."})
    heir = paid.beneficiaries.get()
    act(supervisor, paid, "registrar-pagamento",
        {"amount": "2500,00", "beneficiary": str(heir.pk), **VALID_PIX})
    acted(supervisor, paid, "liquidar-pagamento", {
        "payment": str(Payment.objects.get(claim=paid).pk), "transaction_id": "E-SRO-1",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})
    acted(analyst, paid, "finalizar", {"note": "Pago."})

    assert wait_until(lambda: Submission.objects.filter(
        registration__claim=paid).exclude(status="enviado").count() == 0)
    final = accepted_alterations(registradora, paid)[-1]
    coverage = final["coberturas_afetadas"][0]
    assert coverage["status"] == 2
    assert coverage["totalizacao_sinistro"]["valor_pago_reais"] == 2500.0
    assert coverage["totalizacao_sinistro"]["valor_pendente_reais"] == 0.0
    assert final["beneficiario_final"][0]["documento"] == "52998224725"
    codes = [int(a["alteracao_sinistro_codigo"]) for a in accepted_alterations(registradora,
                                                                               paid)]
    assert codes == sorted(codes) == list(range(1, len(codes) + 1))


def test_two_workers_at_once_register_each_claim_once(workers, registradora, api, channel):
    claims = []
    for _ in range(12):
        other = SaleFactory(channel=channel)
        CoverageFactory(sale=other, name="cobertura/morte", max_indemnity="1000.00")
        claims.append(open_claim(api, other))
    group = workers(SRO_BATCH_SIZE="3")
    group.start("um"), group.start("dois")

    for _ in range(4):  # each asked of both workers, several times
        send_registrations.apply_async(queue=group.queue)

    assert wait_until(lambda: not Submission.objects.exclude(status="enviado").exists())
    group.wait_idle()  # every task asked for has run: no duplicate can come later
    assert {claim.number for claim in claims} <= set(registradora.registered)
    answers = [r["status"] for r in registradora.received]
    assert 422 not in answers  # a second registro of a claim would be refused
    assert set(Submission.objects.values_list("attempts", flat=True)) == {1}


def test_a_worker_killed_mid_send_loses_nothing_and_it_is_sent_once(workers, registradora,
                                                                   api, sale):
    group = workers(SRO_LEASE_SECONDS="3")
    first = group.start("primeiro")
    claim = open_claim(api, sale)
    registradora.stall_next(6)  # the registradora holds the request, unanswered

    send_registrations.apply_async(queue=group.queue)
    assert wait_until(lambda: Submission.objects.filter(attempts=1).exists())
    assert wait_until(lambda: registradora.stalls_left() == 0)  # held by the registradora
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)

    [registro] = Submission.objects.all()
    assert registro.status == "pendente" and claim.number not in registradora.registered

    group.start("segundo")
    # The dead worker's lease runs out (3 s).
    assert wait_until(lambda: Submission.objects.filter(
        pk=registro.pk, lease_until__lt=timezone.now()).exists())
    send_registrations.apply_async(queue=group.queue)

    assert wait_until(lambda: Submission.objects.filter(status="enviado").exists())
    # The stalled request ends (6 s after it came), its caller gone: dropped unprocessed.
    assert wait_until(lambda: any(r["status"] is None for r in registradora.received))
    registro.refresh_from_db()
    assert registro.attempts == 2
    assert [r["status"] for r in registradora.received if r["status"] == 201] == [201]
    assert claim.number in registradora.registered
