"""Answering an anonymisation or deletion request (LGPD art. 18, IV and VI): what must
be kept, under which legal obligation and until when, and what is anonymised now.

- A claim is kept for its retention clock (Circular SUSEP 605/2020; LGPD art. 16, I:
  a legal obligation of the controller): until ``privacy.clock.clock_for``'s end, or
  for as long as a legal hold stands, or, while the claim is open, until its term
  starts (on closing).
- A claim with payments keeps its payment records for ``AML_RETENTION_YEARS`` after
  the last payment too, when that term is set (Circular SUSEP 612/2020, prevention of
  money laundering; a setting because it could not be verified): the clock counts it.
- A sale without claims is the contract: kept ``RETENTION_YEARS`` from its coverage's
  end (Circular SUSEP 605/2020, "the end of the contract").
- The request itself is kept (LGPD arts. 16, I and 37: the proof that it was answered).
- A claim whose clock ran out and that no hold keeps is anonymised now, through the
  forgetting service (``anonymise_now``), and so is a sale of the person's whose term
  ended with its claims; the evidence names the request. When nothing of the person is
  kept any more, their stored exports are deleted too.
"""

import datetime as dt

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone

from claims.models import Payment, Sale
from privacy.clock import State, clock_for, payment_years
from privacy.forgetting import services as forgetting
from privacy.models import Anonymisation, DataRequest
from privacy.requests import export
from privacy.requests.delivery import forget_exports

RETENTION_RULE = ("Circular SUSEP 605/2020 (guarda dos registros de regulação e "
                  "liquidação de sinistros) e LGPD art. 16, I (cumprimento de obrigação "
                  "legal)")
AML_RULE = ("Circular SUSEP 612/2020 (prevenção à lavagem de dinheiro) e LGPD art. 16, I; "
            "prazo configurado, não verificado no texto vigente da norma")


def _day(value: dt.date | None) -> str:
    return f"{value:%d/%m/%Y}" if value else "-"


def anonymise_now(claims: list, *, request: DataRequest, today: dt.date) -> list[str]:
    """Anonymise, through the forgetting service, these claims (their clock ran out, no
    hold keeps them) and then the person's sales whose term ended with them; the
    evidence (Anonymisation) names the request. Returns what was anonymised, in words."""
    rule = (f"LGPD art. 18, IV e VI: requisição nº {request.pk} do titular; prazo de "
            f"guarda vencido ({RETENTION_RULE}), sem retenção legal ativa.")
    done = [claim.number for claim in claims
            if forgetting.anonymise_claim(claim, data_request=request, rule=rule,
                                          today=today)]
    sales = Sale.objects.filter(insured_cpf=request.cpf).exclude(
        Exists(Anonymisation.objects.filter(sale=OuterRef("pk"))))
    for sale in sales:
        if forgetting.sale_may_end(sale, today=today) and forgetting.anonymise_sale(
                sale, data_request=request, rule=rule, today=today):
            done.append(f"seguro {sale.policy_number or sale.pk}")
    return done


def kept_and_ended(cpf: str, *, today: dt.date) -> tuple[list[str], list]:
    """(what is kept, in words; the claims whose clock ran out with no hold)."""
    kept, ended = [], []
    claims = list(export.claims_of(cpf).select_related("sale").order_by("notified_at"))
    paid = dict(Payment.objects.filter(claim__in=claims, paid_on__isnull=False)
                .values_list("claim_id").annotate(last=Max("paid_on")))
    for claim in claims:
        clock = clock_for(claim, today=today)
        if clock.state == State.ANONYMISED:
            continue
        if clock.state == State.RUN_OUT:
            ended.append(claim)
            continue
        if clock.state == State.HELD:
            references = ", ".join(hold.reference for hold in clock.holds)
            kept.append(f"Sinistro {claim.number}: mantido enquanto durar a retenção legal "
                        f"({references}); prazo suspenso ({RETENTION_RULE}).")
        elif clock.state == State.OPEN:
            kept.append(f"Sinistro {claim.number}: em aberto; mantido até o encerramento "
                        f"e, depois, por {settings.RETENTION_YEARS} anos ({RETENTION_RULE}).")
        else:
            kept.append(f"Sinistro {claim.number}: mantido até {_day(clock.ends_on)} "
                        f"({RETENTION_RULE}).")
        if claim.pk in paid and settings.AML_RETENTION_YEARS is not None:
            until = paid[claim.pk] + relativedelta(years=payment_years())
            if until > today:
                kept.append(f"Sinistro {claim.number}: registros de pagamento mantidos até "
                            f"{_day(until)} ({AML_RULE}).")
    with_claims = {claim.sale_id for claim in claims}
    for sale in Sale.objects.filter(insured_cpf=cpf).exclude(pk__in=with_claims):
        until = sale.valid_until + relativedelta(years=settings.RETENTION_YEARS)
        if until > today:
            kept.append(f"Seguro {sale.policy_number or sale.pk}: contrato mantido até "
                        f"{_day(until)} ({RETENTION_RULE}).")
    return kept, ended


def answer_anonymisation(request: DataRequest, *, today: dt.date | None = None) -> str:
    today = today or timezone.localdate()
    kept, ended = kept_and_ended(request.cpf, today=today)
    words = []
    if kept:
        words.append("Mantido por obrigação legal: " + " ".join(kept))
    done = anonymise_now(ended, request=request, today=today)
    if done:
        words.append(f"Anonimizados agora (prazo de guarda vencido, sem retenção): "
                     f"{', '.join(done)}.")
        if not kept:  # nothing of the person stays: neither do copies of it
            forget_exports(cpfs=[request.cpf])
    if not kept and not done:
        words.append("Nenhum dado pessoal ligado ao CPF a manter ou anonimizar.")
    words.append("A própria requisição fica registrada, como prova do atendimento "
                 "(LGPD arts. 16, I e 37).")
    return " ".join(words)
