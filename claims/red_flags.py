"""Red flags on who is paid: warnings an analyst and a supervisor weigh, never blocks.

- ``favorecido-diferente``: a payment's payee is not the beneficiary whose share it
  pays (a legal representative is expected; anyone else is worth a look);
- ``destino-compartilhado``: the PIX key or bank account receives for someone else too,
  in another claim (``RED_FLAG_PEOPLE_PER_DESTINATION`` people in all);
- ``sinistro-precoce``: the claim was notified within ``RED_FLAG_EARLY_CLAIM_DAYS`` of
  the sale's start;
- ``cpf-em-varios-canais``: the insured person's CPF has claims through
  ``RED_FLAG_CHANNELS_PER_CPF`` channels or more;
- ``falecido-como-favorecido``: on a death coverage, a beneficiary, representative,
  payee or PIX key carries the deceased insured person's tax id. The services refuse
  that since migration 0034, which raised this flag on the rows stored before; the
  flag stays while such a row does;
- ``arquivo-repetido``: a file received for this claim has the same content (SHA-256,
  from its reading: docs/document-readings.md) as one received for a claim of another
  insured person. Computed when a reading finishes (on both claims); the other refreshes
  keep it as it was, so they read no file rows.

Each claim keeps its flags (``Claim.alerts``, refreshed by the services that change what
they read), so the list filters "Com alertas" without recomputing them. A claim is only
ever compared with claims of its own kind: a partner's sandbox claims never raise a flag
on a real one, nor the other way round.
"""

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from claims.banks import bank_by_code
from claims.coverages import pays_on_death
from claims.models import Beneficiary, Claim, DocumentFile, DocumentReading, Payment
from claims.payment_words import masked_destination
from claims.validators import mask_tax_id, same_tax_id


def destination_of(payment_method: dict | None) -> str:
    """Where money goes, as one comparable string: ``pix:<key>`` or
    ``conta:<bank>:<branch>:<account>`` (bank by ISPB where the table knows it, so a TED
    and a PIX to one account compare equal); blank for boletos and BR Codes."""
    if not payment_method:
        return ""
    kind = payment_method.get("method", "")
    detail = payment_method.get(kind.replace("-", "_"), {})
    if kind == "pix" and "key" in detail:
        return f"pix:{detail['key'].lower()}"
    if kind in ("pix", "ted"):
        account = detail.get("bank_account", detail)
        bank = bank_by_code(account.get("bank", ""))
        number = account.get("account", "").lstrip("0") + account.get("account_check_digit", "")
        return (f"conta:{bank.ispb if bank else account.get('bank', '')}:"
                f"{account.get('branch', '').lstrip('0')}:{number.upper()}")
    return ""


def pays_to_tax_id(destination: str, tax_id: str) -> bool:
    """Whether a destination (``destination_of``) is a PIX key that is ``tax_id``,
    however typed: money there goes to that person's account."""
    return destination.startswith("pix:") and same_tax_id(destination[len("pix:"):], tax_id)


def for_payment(claim, *, beneficiary, payee: dict, payment_method: dict | None) -> list[str]:
    """The flags of one payment (registered or proposed), in words."""
    warnings = []
    if beneficiary is not None and payee["tax_id"] != beneficiary.tax_id and \
            payee["tax_id"] != beneficiary.representative_tax_id:
        warnings.append(
            f"O favorecido {payee['name']} ({mask_tax_id(payee['tax_id'])}) não é o "
            f"beneficiário {beneficiary.name} ({mask_tax_id(beneficiary.tax_id)}) nem seu "
            "representante legal.")
    shared = _shared_destination(claim, destination_of(payment_method), payee["tax_id"])
    if shared:
        warnings.append(shared)
    return warnings


def _shared_destination(claim, destination: str, tax_id: str) -> str:
    if not destination:
        return ""
    others = {}
    for number, other_tax_id in (
        Payment.objects.filter(destination=destination, claim__is_sandbox=claim.is_sandbox)
        .exclude(claim=claim).exclude(beneficiary_tax_id=tax_id)
        .values_list("claim__number", "beneficiary_tax_id")[:20]
    ):
        others.setdefault(other_tax_id, number)
    for number, other_tax_id in (
        Beneficiary.objects.filter(destination=destination, claim__is_sandbox=claim.is_sandbox)
        .exclude(claim=claim).exclude(Q(tax_id=tax_id) | Q(representative_tax_id=tax_id))
        .values_list("claim__number", "tax_id")[:20]
    ):
        others.setdefault(other_tax_id, number)
    if len(others) + 1 < settings.RED_FLAG_PEOPLE_PER_DESTINATION:
        return ""
    named = ", ".join(f"{mask_tax_id(t)} no sinistro {n}" for t, n in list(others.items())[:3])
    return (f"{masked_destination(destination)} também recebe por outra(s) pessoa(s): "
            f"{named}.")


REPEATED_FILE = "arquivo-repetido"


def for_claim(claim, *, beneficiaries=None, payments=None, reread_files=False) -> list[dict]:
    """Every flag of ``claim`` as ``{"codigo", "texto"}``, from its rows as they are now
    (``beneficiaries`` and ``payments`` when the caller has them in hand);
    ``arquivo-repetido`` looked up again only with ``reread_files``."""
    alerts = []
    started = claim.sale.valid_from
    notified = timezone.localdate(claim.notified_at)
    days = (notified - started).days
    if 0 <= days < settings.RED_FLAG_EARLY_CLAIM_DAYS:
        alerts.append({"codigo": "sinistro-precoce", "texto": (
            f"Aviso {days} dia(s) depois do início da vigência ({started:%d/%m/%Y}); o alerta "
            f"vale abaixo de {settings.RED_FLAG_EARLY_CLAIM_DAYS} dias.")})
    channels = sorted(set(
        Claim.objects.filter(sale__insured_cpf=claim.sale.insured_cpf,
                             is_sandbox=claim.is_sandbox).order_by()
        .values_list("channel__name", flat=True).distinct()))
    if len(channels) >= settings.RED_FLAG_CHANNELS_PER_CPF:
        alerts.append({"codigo": "cpf-em-varios-canais", "texto": (
            f"O CPF do segurado tem sinistros por {len(channels)} canais: "
            f"{', '.join(channels)}.")})
    if beneficiaries is None:
        beneficiaries = list(claim.beneficiaries.all())
    payments = list(claim.payments.all() if payments is None else payments)
    deceased = _deceased_as_payee(claim, beneficiaries, payments)
    if deceased:
        alerts.append({"codigo": "falecido-como-favorecido", "texto": deceased})
    beneficiaries = {b.pk: b for b in beneficiaries}
    for payment in payments:
        for text in for_payment(claim, beneficiary=beneficiaries.get(payment.beneficiary_id),
                                payee={"name": payment.beneficiary_name,
                                       "tax_id": payment.beneficiary_tax_id},
                                payment_method=payment.payment_method_details):
            alerts.append({"codigo": "pagamento", "texto": text})
    for beneficiary in beneficiaries.values():
        shared = _shared_destination(claim, beneficiary.destination, beneficiary.tax_id)
        if shared:
            alerts.append({"codigo": "destino-compartilhado", "texto": (
                f"Dados de pagamento de {beneficiary.name}: {shared}")})
    if reread_files:
        alerts += [{"codigo": REPEATED_FILE, "texto": text} for text in _repeated_files(claim)]
    else:
        alerts += [alert for alert in claim.alerts or [] if alert["codigo"] == REPEATED_FILE]
    return alerts


def files_also_on_others(claim):
    """The received files, on claims of other insured people (of the claim's kind), with
    the content of one of ``claim``'s received files: (reading, other claim number,
    other claim id) rows, a few."""
    received = DocumentFile.Status.RECEIVED
    hashes = (DocumentReading.objects.filter(file__claim=claim, file__status=received)
              .exclude(content_sha256="").values("content_sha256"))
    return (DocumentReading.objects.filter(content_sha256__in=hashes, file__status=received,
                                           file__claim__is_sandbox=claim.is_sandbox)
            .exclude(file__claim=claim)
            .exclude(file__claim__sale__insured_cpf=claim.sale.insured_cpf)
            .order_by("file__claim__number")
            .values_list("file__file_name", "file__claim__number", "file__claim_id")[:5])


def _repeated_files(claim) -> list[str]:
    rows = list(files_also_on_others(claim))
    if not rows:
        return []
    named = ", ".join(f"{name} no sinistro {number}" for name, number, _ in rows)
    return [f"Arquivo com o mesmo conteúdo de um recebido para outra pessoa: {named}. "
            "Confira se o documento é mesmo deste segurado."]


def deceased_as_payee_text(names: list[str]) -> str:
    """The flag's words (migration 0034 writes the same)."""
    return ("O CPF do segurado falecido está como favorecido de: " + ", ".join(names) +
            ". Ninguém recebe com o CPF dele numa cobertura de morte: corrija ou remova "
            "antes de pagar (os pagamentos a ele são recusados).")


def _deceased_as_payee(claim, beneficiaries, payments) -> str:
    insured = claim.sale.insured_cpf
    names = [f"{b.name} (beneficiário)" for b in beneficiaries
             if same_tax_id(b.tax_id, insured) or same_tax_id(b.representative_tax_id, insured)
             or pays_to_tax_id(b.destination, insured)]
    names += [f"{p.beneficiary_name} (pagamento)" for p in payments
              if same_tax_id(p.beneficiary_tax_id, insured)
              or pays_to_tax_id(p.destination, insured)]
    # The coverage is read only when something matched: most claims never pay for it.
    if not names or not pays_on_death(claim.coverage.name):
        return ""
    return deceased_as_payee_text(names)


def refresh(claim, *, beneficiaries=None, payments=None, reread_files=False) -> None:
    """Store ``claim``'s flags (the caller's transaction); no version change: a flag is
    information, not a change an open form must see."""
    alerts = for_claim(claim, beneficiaries=beneficiaries, payments=payments,
                       reread_files=reread_files)
    if alerts != claim.alerts:
        claim.alerts = alerts
        Claim.objects.filter(pk=claim.pk).update(alerts=alerts, has_alerts=bool(alerts))


def refresh_same_insured(claim) -> None:
    """A new claim may raise ``cpf-em-varios-canais`` on the insured's other claims."""
    for other in (Claim.objects.select_related("sale").prefetch_related("payments", "beneficiaries")
                  .filter(sale__insured_cpf=claim.sale.insured_cpf, is_sandbox=claim.is_sandbox)
                  .exclude(pk=claim.pk)[:50]):
        refresh(other)


def refresh_sharing(claim, destination: str) -> None:
    """The other claims whose payees or beneficiaries use ``destination``: the flag is
    theirs too, now that someone else uses it."""
    if not destination:
        return
    same_world = {"destination": destination, "claim__is_sandbox": claim.is_sandbox}
    ids = set(Payment.objects.filter(**same_world).exclude(claim=claim)
              .values_list("claim_id", flat=True)[:20])
    ids |= set(Beneficiary.objects.filter(**same_world).exclude(claim=claim)
               .values_list("claim_id", flat=True)[:20])
    for other in (Claim.objects.select_related("sale").prefetch_related("payments", "beneficiaries")
                  .filter(pk__in=ids)):
        refresh(other)
