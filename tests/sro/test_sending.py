"""The sender against the local registradora (real HTTP, B3's layout validated on every
body): tokens reused and renewed, each answer handled as its kind asks, changes in
order and never before their registro, one bad claim never holding the others."""

import datetime as dt

import pytest
from django.utils import timezone

from sro import sending, services
from sro.models import Batch, Submission
from localdev.registradora.server import LocalRegistradora
from tests.support.lifecycle import DENIAL, acted, claim_under_review, open_claim

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_media", "codes")]


@pytest.fixture
def registradora(settings):
    with LocalRegistradora() as server:
        settings.SRO_API_URL = server.url
        settings.SRO_TOKEN_URL = server.token_url
        settings.SRO_CLIENT_ID = server.client_id
        settings.SRO_CLIENT_SECRET = server.client_secret
        settings.SUSEP_CODIGO_SEGURADORA = "01234"
        settings.SRO_RETRY_SECONDS = 60
        yield server


def of(claim) -> list[Submission]:
    return list(Submission.objects.filter(registration__claim=claim).order_by("sequence"))


def later(minutes: int) -> dt.datetime:
    return timezone.now() + dt.timedelta(minutes=minutes)


def test_a_new_claim_is_registered_with_its_batch_id_and_the_body_kept(api, sale,
                                                                      registradora):
    claim = open_claim(api, sale)

    assert sending.send_due() == {"accepted": 1, "refused": 0, "retry": 0}

    [registro] = of(claim)
    assert registro.status == "enviado" and len(registro.batch_id) == 24
    assert registro.sent_at is not None and registro.attempts == 1
    assert registradora.registered[claim.number]["registro"] == registro.body
    evidence = Batch.objects.get()
    assert evidence.http_status == 201 and evidence.batch_id == registro.batch_id
    assert evidence.body == {"data": {"sinistro": [registro.body]}}
    assert list(evidence.submissions.all()) == [registro]


def test_nothing_is_sent_while_no_registradora_is_configured(api, sale, settings):
    settings.SRO_API_URL = ""
    claim = open_claim(api, sale)

    assert sending.send_due() == {"accepted": 0, "refused": 0, "retry": 0}
    assert of(claim)[0].status == "pendente" and not Batch.objects.exists()


def test_the_token_is_reused_until_it_expires_then_renewed_once(api, sale, registradora,
                                                               other_api):
    open_claim(api, sale)
    sending.send_due()
    open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    sending.send_due()
    assert registradora.tokens_issued == 1

    registradora.expire_tokens()
    open_claim(api, sale, cobertura="cobertura/perda-de-renda", natureza=(
        "perda-de-renda-desemprego"))
    counts = sending.send_due()

    assert counts["accepted"] == 1
    assert registradora.tokens_issued == 2


def test_changes_go_in_order_after_their_registro_in_one_run(api, sale, analyst,
                                                            registradora):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "aprovar-documentacao")

    sending.send_due()

    submissions = of(claim)
    assert [s.status for s in submissions] == ["enviado"] * len(submissions)
    accepted = registradora.registered[claim.number]["alteracoes"]
    assert [item["alteracao_sinistro_codigo"] for item in accepted] == ["1", "2"]


def test_a_refused_body_keeps_the_registradoras_errors_and_waits_for_a_correction(
        api, sale, analyst, registradora):
    claim = claim_under_review(api, sale)
    registro = of(claim)[0]
    # A fact the layout refuses (a delivery date before the notice), as a bug would write.
    body = registro.body
    body["coberturas_afetadas"][0]["data_ocorrencia"] = "25/11/2026"
    Submission.objects.filter(pk=registro.pk).update(body=body)

    counts = sending.send_due()

    registro.refresh_from_db()
    assert counts["refused"] == 1 and registro.status == "recusado"
    assert registro.errors and "data_ocorrencia" in registro.last_error
    # Its changes wait behind it; a later run tries nothing again.
    assert {s.status for s in of(claim)[1:]} == {"pendente"}
    assert sending.send_due(now=later(600)) == {"accepted": 0, "refused": 0, "retry": 0}

    services.retry(submission_id=registro.pk)
    sending.send_due()

    assert {s.status for s in of(claim)} == {"enviado"}


def test_one_bad_claim_in_a_batch_does_not_hold_the_others(api, sale, registradora):
    good = open_claim(api, sale)
    bad = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    Submission.objects.filter(registration__claim=bad).update(
        body={**of(bad)[0].body, "moeda_apolice": "REAIS"})

    counts = sending.send_due()

    assert counts == {"accepted": 1, "refused": 1, "retry": 0}
    assert of(good)[0].status == "enviado" and of(bad)[0].status == "recusado"
    assert good.number in registradora.registered and bad.number not in registradora.registered


def test_no_connection_is_said_in_a_few_words_and_tried_again(api, sale, settings):
    settings.SRO_API_URL = "http://127.0.0.1:9"  # nothing listens there
    settings.SRO_TOKEN_URL = "http://127.0.0.1:9/api/oauth/token"
    claim = open_claim(api, sale)

    assert sending.send_due()["retry"] == 1

    registro = of(claim)[0]
    assert registro.last_error.startswith("Sem token da registradora") or \
        registro.last_error == "Sem conexão com a registradora (ConnectionError)."
    assert "HTTPConnectionPool" not in registro.last_error


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_busy_or_failing_registradora_is_tried_again_later(api, sale, registradora, status):
    claim = open_claim(api, sale)
    registradora.fail_next(status)

    assert sending.send_due() == {"accepted": 0, "refused": 0, "retry": 1}

    [registro] = of(claim)
    assert registro.status == "pendente" and registro.attempts == 1
    assert str(status) in registro.last_error or registro.last_error
    assert registro.next_try_at > timezone.now() + dt.timedelta(seconds=50)
    assert sending.send_due() == {"accepted": 0, "refused": 0, "retry": 0}  # waits
    assert sending.send_due(now=later(2))["accepted"] == 1
    assert claim.number in registradora.registered


def test_retries_back_off(api, sale, registradora):
    claim = open_claim(api, sale)
    registradora.fail_next(500, times=3)
    waits = []
    now = timezone.now()
    for _ in range(3):
        sending.send_due(now=now)  # the run's moment: the wait counts from it
        registro = of(claim)[0]
        waits.append(round((registro.next_try_at - now).total_seconds() / 60))
        now = registro.next_try_at + dt.timedelta(seconds=1)
    assert waits == [1, 2, 4]


def test_a_timeout_is_tried_again_and_registers_once(api, sale, registradora, settings):
    settings.SRO_TIMEOUT_SECONDS = 0.5
    claim = open_claim(api, sale)
    registradora.stall_next(1.5)

    assert sending.send_due()["retry"] == 1
    assert "não respondeu a tempo" in of(claim)[0].last_error

    assert sending.send_due(now=later(2))["accepted"] == 1
    accepted = [r for r in registradora.received if r["status"] == 201]
    assert len(accepted) == 1


def test_a_corrected_occurrence_date_is_sent_as_a_rectification(api, sale, registradora,
                                                                analyst):
    claim = open_claim(api, sale)
    sending.send_due()
    corrected = timezone.localdate(claim.occurred_at) - dt.timedelta(days=3)

    acted(analyst, claim, "corrigir-ocorrencia", {
        "occurred_on": corrected.isoformat(), "reason": "A certidão de óbito diz outro dia."})
    sending.send_due()

    claim.refresh_from_db()
    change = of(claim)[-1]
    assert change.status == "enviado" and change.trigger == "retificacao"
    [accepted] = registradora.registered[claim.number]["alteracoes"]
    assert accepted["retificacao_registro"] is True
    assert accepted["coberturas_afetadas"][0]["data_ocorrencia"] == corrected.isoformat()


def test_a_rectification_with_nothing_changed_is_not_written(api, sale, registradora):
    claim = open_claim(api, sale)
    sending.send_due()

    assert services.rectify(claim=claim) is None
    assert len(of(claim)) == 1


def test_an_operator_restates_a_claim_as_a_rectification(api, sale, registradora):
    claim = open_claim(api, sale)
    sending.send_due()
    sale.policy_number = "7700099999"  # the channel's import brought the policy's number
    sale.save()

    change = services.rectify(claim=claim)
    sending.send_due()

    change.refresh_from_db()
    assert change.status == "enviado" and change.body["retificacao_registro"] is True
    assert change.body["apolice_codigo"] == "7700099999"


def test_a_denial_follows_its_registro_with_its_reason(api, sale, supervisor, registradora):
    claim = claim_under_review(api, sale)
    acted(supervisor, claim, "recusar", {**DENIAL, "reason": "Doença preexistente.",
                                        "note": "x"})

    sending.send_due()

    last = registradora.registered[claim.number]["alteracoes"][-1]
    coverage = last["coberturas_afetadas"][0]
    assert coverage["status"] == 3 and coverage["justificativa_negativa"] == {"justificativa": 1}
