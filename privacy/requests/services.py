"""Registering and answering a person's requests (LGPD art. 18). One function per
change; answering locks the request row, so two operators cannot both answer it.

The term (LGPD art. 19, II): the complete answer within ``DATA_REQUEST_DAYS`` calendar
days of the request, counted in Brazil's calendar from the day it was received. The
simplified answer (art. 19, I) is the confirmation the operator sees at once: the
request's page, or the command's output."""

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from claims.models import Channel
from privacy.services.holds import cpf_digits
from privacy.errors import RequestRefused
from privacy.models import DataRequest, RequestKind, RequestOrigin


class State:
    """A request's state for people: open within the term, overdue, answered."""

    OPEN = "aberta"
    OVERDUE = "atrasada"
    ANSWERED = "respondida"


STATE_WORDS = {State.OPEN: "Aberta, no prazo", State.OVERDUE: "Atrasada",
               State.ANSWERED: "Respondida"}


def clean_cpf(value: str) -> str:
    """The CPF's 11 digits, or RequestRefused with the value as typed."""
    digits = cpf_digits(value)
    if digits is None:
        raise RequestRefused(f"CPF inválido: {value or '(vazio)'}.")
    return digits


def due_on(received_at: dt.datetime) -> dt.date:
    """The last day of the term: the day received (Brazil) plus the term in days."""
    return timezone.localdate(received_at) + dt.timedelta(days=settings.DATA_REQUEST_DAYS)


def state_words(request: DataRequest, *, today: dt.date | None = None) -> str:
    state = state_of(request, today=today)
    if state == State.ANSWERED and timezone.localdate(request.answered_at) > request.due_on:
        return "Respondida fora do prazo"
    return STATE_WORDS[state]


def state_of(request: DataRequest, *, today: dt.date | None = None) -> str:
    if request.status == DataRequest.Status.ANSWERED:
        return State.ANSWERED
    today = today or timezone.localdate()
    return State.OVERDUE if today > request.due_on else State.OPEN


@transaction.atomic
def register_request(*, cpf: str, kind: str, origin: str, channel: Channel | None = None,
                     details: str = "", registered_by: str,
                     received_at: dt.datetime | None = None) -> DataRequest:
    """Register what a person asked. ``registered_by``: "usuario:<username>" or
    "operacao:data_request". ``received_at``: when the person asked (a letter that
    arrived yesterday counts from yesterday); now by default."""
    digits = clean_cpf(cpf)
    if kind not in RequestKind.values:
        raise RequestRefused(f"Tipo de requisição desconhecido: {kind}. Tipos: "
                             f"{', '.join(RequestKind.values)}.")
    if origin not in RequestOrigin.values:
        raise RequestRefused(f"Origem desconhecida: {origin}. Origens: "
                             f"{', '.join(RequestOrigin.values)}.")
    if origin == RequestOrigin.CHANNEL and channel is None:
        raise RequestRefused("Informe o canal por onde a requisição chegou.")
    details = (details or "").strip()
    if kind == RequestKind.CORRECTION and not details:
        raise RequestRefused("Uma correção precisa do pedido: o que está errado e o "
                             "dado correto.")
    received_at = received_at or timezone.now()
    return DataRequest.objects.create(
        cpf=digits, kind=kind, origin=origin, channel=channel, details=details,
        received_at=received_at, due_on=due_on(received_at), registered_by=registered_by)


def _locked_open(request: DataRequest) -> DataRequest:
    locked = DataRequest.objects.select_for_update().get(pk=request.pk)
    if locked.status == DataRequest.Status.ANSWERED:
        raise RequestRefused("Esta requisição já foi respondida.")
    return locked


def _close(request: DataRequest, *, answered_by: str, answer: str) -> DataRequest:
    request.status = DataRequest.Status.ANSWERED
    request.answered_at, request.answered_by = timezone.now(), answered_by
    request.answer = answer
    request.save(update_fields=["status", "answered_at", "answered_by", "answer",
                                "export_json", "export_pdf"])
    return request


@transaction.atomic
def answer_request(request: DataRequest, *, answered_by: str, user=None,
                   corrected: str = "", today: dt.date | None = None) -> DataRequest:
    """Answer ``request`` according to its kind:

    - access, portability: the export (JSON and PDF) is written to storage and sent as
      a letter (privacy.requests.delivery);
    - correction: ``corrected`` says what the operator corrected (through the claim's
      own pages and services); it is recorded on the request and on each claim of the
      person's (an internal note);
    - anonymisation: what is kept, under which obligation and until when, and what is
      anonymised now (privacy.requests.keeping);
    - sharing: with whom the data were shared (the export's "compartilhamentos").
    """
    from privacy.requests import delivery, keeping  # the heavy parts, only when answering

    request = _locked_open(request)
    kind = request.kind
    if kind in (RequestKind.ACCESS, RequestKind.PORTABILITY):
        answer = delivery.deliver_export(request, user=user)
    elif kind == RequestKind.CORRECTION:
        corrected = (corrected or "").strip()
        if not corrected:
            raise RequestRefused("Descreva o que foi corrigido (e em qual sinistro), ou "
                                 "por que não havia o que corrigir.")
        answer = delivery.record_correction(request, corrected=corrected, user=user)
    elif kind == RequestKind.ANONYMISATION:
        answer = keeping.answer_anonymisation(request, today=today)
    else:
        answer = delivery.sharing_answer(request)
    return _close(request, answered_by=answered_by, answer=answer)
