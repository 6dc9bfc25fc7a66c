"""Registering a person's request and its 15-day clock (LGPD art. 19, II); answering a
correction, an anonymisation request (what is kept, why, until when) and a question
about sharing."""

import datetime as dt

import pytest
from dateutil.relativedelta import relativedelta
from django.utils import timezone

from claims.models import ClaimHistory
from privacy.errors import RequestRefused
from privacy.models import Anonymisation, DataRequest, RequestKind
from privacy.requests import keeping, services
from privacy.services.holds import place_hold
from tests.privacy.requests_support import PAULA, paula_two_claims
from tests.support.concurrency import postgres_only, run_together
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory
from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db


def at(day: dt.date, hour: int = 23) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 30)))


def register(kind=RequestKind.ACCESS, **extra) -> DataRequest:
    return services.register_request(cpf=extra.pop("cpf", "529.982.247-25"), kind=kind,
                                     origin="carta", registered_by="usuario:teste", **extra)


def test_the_answer_is_due_15_calendar_days_after_the_day_received_in_brazil():
    # 23:30 in São Paulo on 1 December is already 2 December in UTC: the day counts
    # in Brazil's calendar.
    request = register(received_at=at(dt.date(2026, 12, 1)))

    assert request.cpf == "52998224725"
    assert request.due_on == dt.date(2026, 12, 16)
    assert services.state_of(request, today=dt.date(2026, 12, 16)) == services.State.OPEN
    assert services.state_of(request, today=dt.date(2026, 12, 17)) == services.State.OVERDUE


def test_an_answered_request_is_never_overdue(settings, local_media):
    request = register(received_at=at(dt.date(2026, 1, 5)))
    request = services.answer_request(request, answered_by="usuario:teste")

    assert services.state_of(request, today=dt.date(2027, 1, 1)) == services.State.ANSWERED
    with pytest.raises(RequestRefused, match="já foi respondida"):
        services.answer_request(request, answered_by="usuario:teste")


@pytest.mark.parametrize("field, value, words", [
    ("cpf", "111.111.111-11", "CPF inválido: 111.111.111-11"),
    ("kind", "apagar-tudo", "Tipo de requisição desconhecido: apagar-tudo"),
])
def test_a_bad_cpf_or_kind_is_refused_in_words(field, value, words):
    arguments = {"cpf": "52998224725", "kind": RequestKind.ACCESS, field: value}
    with pytest.raises(RequestRefused, match=words):
        services.register_request(origin="carta", registered_by="usuario:teste", **arguments)


def test_a_correction_records_what_was_corrected_on_each_of_the_persons_claims(channel):
    heir_claim, own_claim = paula_two_claims(channel)
    with pytest.raises(RequestRefused, match="o que está errado"):
        register(RequestKind.CORRECTION, cpf=PAULA)
    request = register(RequestKind.CORRECTION, cpf=PAULA, details="Meu e-mail mudou.")
    with pytest.raises(RequestRefused, match="Descreva o que foi corrigido"):
        services.answer_request(request, answered_by="usuario:priscila")

    request = services.answer_request(request, answered_by="usuario:priscila",
                                      corrected="E-mail de contato no sinistro atualizado.")

    assert request.status == DataRequest.Status.ANSWERED
    notes = ClaimHistory.objects.filter(note__contains=f"requisição nº {request.pk}")
    assert {note.claim_id for note in notes} == {heir_claim.pk, own_claim.pk}
    assert "E-mail de contato no sinistro atualizado." in request.answer


def test_an_anonymisation_request_names_what_is_kept_why_and_until_when(settings, channel):
    settings.RETENTION_YEARS, settings.AML_RETENTION_YEARS = 5, 5
    today = timezone.localdate()
    heir_claim, own_claim = paula_two_claims(channel)  # both open: kept until closed
    long_ago = today - relativedelta(years=7)
    old_sale = SaleFactory(channel=channel, insured_cpf=PAULA, valid_from=long_ago,
                           valid_until=long_ago)
    ended = ClaimFactory(coverage=CoverageFactory(sale=old_sale), status="finalizado",
                         closed_at=at(long_ago, 12))
    held_sale = SaleFactory(channel=channel, insured_cpf=PAULA, valid_from=long_ago,
                            valid_until=long_ago)
    held = ClaimFactory(coverage=CoverageFactory(sale=held_sale), status="finalizado",
                        closed_at=at(long_ago, 12))
    place_hold(user=staff("jurema", None), claim=held, reason="Ação de cobrança",
               reference="Processo 0001234-56.2026.8.26.0100")
    closed_recently = today - relativedelta(years=1)
    recent_sale = SaleFactory(channel=channel, insured_cpf=PAULA,
                              valid_from=closed_recently, valid_until=closed_recently)
    recent = ClaimFactory(coverage=CoverageFactory(sale=recent_sale), status="finalizado",
                          closed_at=at(closed_recently, 12))

    request = register(RequestKind.ANONYMISATION, cpf=PAULA)
    request = services.answer_request(request, answered_by="usuario:priscila", today=today)

    answer = request.answer
    assert f"Sinistro {heir_claim.number}: em aberto" in answer
    assert f"Sinistro {own_claim.number}: em aberto" in answer
    # Paula's own payment on the heir's claim was never paid: no AML term yet.
    assert "Circular SUSEP 612/2020" not in answer
    assert (f"Sinistro {recent.number}: mantido até "
            f"{closed_recently + relativedelta(years=5):%d/%m/%Y}") in answer
    assert f"Sinistro {held.number}: mantido enquanto durar a retenção legal " \
           "(Processo 0001234-56.2026.8.26.0100)" in answer
    assert "Circular SUSEP 605/2020" in answer and "LGPD art. 16, I" in answer
    # What need not be kept goes now: the claim past its clock, then its sale; the
    # evidence names the request.
    assert (f"Anonimizados agora (prazo de guarda vencido, sem retenção): {ended.number}, "
            f"seguro {old_sale.pk}.") in answer
    assert "A própria requisição fica registrada" in answer
    evidence = Anonymisation.objects.filter(data_request=request)
    assert {(a.claim_id, a.sale_id) for a in evidence} == {(ended.pk, None),
                                                           (None, old_sale.pk)}
    assert f"requisição nº {request.pk} do titular" in evidence.first().rule
    ended.refresh_from_db()
    assert PAULA not in (ended.requester_tax_id, ended.sale.insured_cpf)
    assert not Anonymisation.objects.filter(claim__in=[held, recent, heir_claim]).exists()


def test_paid_claims_keep_their_payment_records_for_the_aml_term(settings, channel):
    settings.AML_RETENTION_YEARS = 10
    heir_claim, _ = paula_two_claims(channel)
    paid_on = timezone.localdate() - dt.timedelta(days=30)
    heir_claim.payments.update(paid_on=paid_on)

    kept, _ = keeping.kept_and_ended(PAULA, today=timezone.localdate())

    assert (f"Sinistro {heir_claim.number}: registros de pagamento mantidos até "
            f"{paid_on + relativedelta(years=10):%d/%m/%Y} (Circular SUSEP 612/2020") in \
        " ".join(kept)


def test_sharing_names_the_channels_the_registradora_and_the_banks(channel):
    paula_two_claims(channel)
    request = register(RequestKind.SHARING, cpf=PAULA)

    request = services.answer_request(request, answered_by="usuario:priscila")

    assert request.answer == f"Dados compartilhados com: {channel.name} (1 envio(s))."


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_operators_answering_at_once_write_one_answer_and_one_letter(settings, tmp_path):
    from correspondence.models import Letter, Message
    from tests.support.factories import make_channel

    settings.DOCUMENT_STORAGE, settings.MEDIA_ROOT = "local", tmp_path / "media"
    paula_two_claims(make_channel())
    request = register(cpf=PAULA)

    def answer(who):
        def call():
            try:
                return services.answer_request(request, answered_by=f"usuario:{who}").answered_by
            except RequestRefused as error:
                return str(error)
        return call

    results = run_together([answer("priscila"), answer("renato")])

    assert sorted(results, key=len) in (
        ["usuario:priscila", "Esta requisição já foi respondida."],
        ["usuario:renato", "Esta requisição já foi respondida."])
    assert Message.objects.filter(letter=Letter.DATA_REQUEST_ANSWER).count() == 1
