"""What the registradora must be told, built from the claim move that causes it.

``register_move`` runs after the move commits, from the move's consequence row
(sro.consequences), the claim's rows one at a time in the order of its moves:
the claim's notice writes the registro; any later move whose facts change what the
registradora holds (its status, dates, totals, the denial's reason) writes the next
alteracao. Each has a deadline of ``SRO_DEADLINE_BUSINESS_DAYS`` business days from the
day of the fact (claims.business_days). The beat job sends them (sro.sending)."""

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from claims.models import Claim
from claims.workflow import Action
from claims import business_days as calendar
from sro import layout
from sro.models import Registration, Submission

# Which move a change is about, in the operators' words; any other move that changes
# what the registradora holds (e.g. documents approved: the evaluation concluded) is an
# "alteração".
TRIGGER_OF_MOVE = {
    Action.COMPLETE_DOCUMENTS: Submission.Trigger.DOCUMENTS,
    Action.APPROVE_DOCUMENTS: Submission.Trigger.EVALUATION,
    Action.ADJUST_RESERVE: Submission.Trigger.RESERVE,
    Action.UPDATE_BALANCE: Submission.Trigger.RESERVE,
    Action.SETTLE_PAYMENT: Submission.Trigger.PAYMENT,
    Action.REGISTER_EXPENSE: Submission.Trigger.EXPENSE,
    Action.DENY: Submission.Trigger.DENIAL,
    Action.FINALIZE: Submission.Trigger.CLOSING,
    Action.REOPEN: Submission.Trigger.REOPENING,
}


def deadline_for(moment: dt.datetime) -> dt.date:
    return calendar.add_business_days(timezone.localdate(moment),
                                      settings.SRO_DEADLINE_BUSINESS_DAYS)


def register_move(*, claim, action, at: dt.datetime,
                  written_at: dt.datetime | None = None) -> Submission | None:
    """The registro of a new claim, or the alteracao a move makes necessary (None when
    the registradora already holds what the claim said after the move, ``claim`` as the
    move left it: its dated steps are read up to ``at``). The claim's changes are
    numbered one at a time under the registration's row lock (_next_change). A partner's
    sandbox claim is no insurance fact: never registered. ``written_at``: when the
    submission is written (now by default), after the move it tells of."""
    if claim.is_sandbox:
        return None
    written_at = written_at or timezone.now()
    if action == Action.OPEN:
        return _register(claim, layout.claim_facts(claim, new=True), at=at, written_at=written_at)
    # The latest submission with its registration: one query.
    last = (Submission.objects.select_related("registration")
            .filter(registration__claim=claim).order_by("-sequence").first())
    facts = layout.claim_facts(claim, until=at)
    if last is None:
        # A claim opened before this app existed: its first move registers it.
        return _register(claim, facts, at=at, written_at=written_at)
    if action == Action.CORRECT_OCCURRENCE:
        # A fact the registradora holds was wrong: the change says it corrects it.
        return _next_change(last.registration, facts, trigger=Submission.Trigger.RECTIFICATION,
                            at=at, written_at=written_at, rectification=True)
    if not _says_something_new(last, facts, at=at):
        return None
    return _next_change(last.registration, facts, trigger=TRIGGER_OF_MOVE.get(
        action, Submission.Trigger.CHANGE), at=at, written_at=written_at)


def _says_something_new(last: Submission, facts, *, at) -> bool:
    """Whether the claim now says something the last submission did not (its number,
    change date and rectification flag aside)."""
    now = layout.build_item(facts, sequence=last.sequence + 1,
                            changed_on=timezone.localdate(at))
    return layout.registered_content(last.body) != layout.registered_content(now)


def _register(claim, facts, *, at, written_at) -> Submission:
    registration = Registration.objects.create(claim=claim, created_at=written_at)
    return _write(registration, facts, kind=Submission.Kind.REGISTRATION, sequence=0,
                  trigger=Submission.Trigger.NOTICE, at=at, written_at=written_at)


@transaction.atomic
def rectify(*, claim, at: dt.datetime | None = None) -> Submission | None:
    """A registered fact was corrected outside a claim move (a policy number a later
    import brought): an alteracao with ``retificacao_registro`` that restates the claim as
    it now stands. None when the registradora already holds what the claim says."""
    at = at or timezone.now()
    # The claim's row lock, as a move takes it: its changes are numbered one at a time.
    claim = Claim.objects.select_for_update().select_related("sale", "coverage").get(
        pk=claim.pk)
    last = (Submission.objects.select_related("registration")
            .filter(registration__claim=claim).order_by("-sequence").first())
    facts = layout.claim_facts(claim)
    if last is None or not _says_something_new(last, facts, at=at):
        return None
    return _next_change(last.registration, facts, trigger=Submission.Trigger.RECTIFICATION,
                        at=at, written_at=at, rectification=True)


def _next_change(registration, facts, *, trigger, at, written_at,
                 rectification=False) -> Submission:
    """The next alteracao, numbered under the registration's row lock: a move's
    consequence and a rectification of the same claim never get the same number (and
    the unique constraint would refuse it)."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    registration.last_sequence += 1
    registration.save(update_fields=["last_sequence"])
    return _write(registration, facts, kind=Submission.Kind.CHANGE,
                  sequence=registration.last_sequence, trigger=trigger, at=at,
                  written_at=written_at, rectification=rectification)


def _write(registration, facts, *, kind, sequence, trigger, at, written_at,
           rectification=False):
    body = layout.build_item(facts, sequence=sequence, changed_on=timezone.localdate(at),
                             rectification=rectification)
    missing = layout.missing_facts(facts)
    return Submission.objects.create(
        registration=registration, kind=kind, sequence=sequence, trigger=trigger,
        sro_status=facts.status, rectification=rectification, occurred_at=at,
        deadline=deadline_for(at), body=body, missing=missing, created_at=written_at,
        status=Submission.Status.INCOMPLETE if missing else Submission.Status.PENDING)


@transaction.atomic
def retry(*, submission_id: int) -> Submission:
    """After a correction (the coverage's codes set, a beneficiary's CEP, the data the
    registradora refused): rebuild the item from the claim as it stands, keeping what
    the fact was (its kind, sequence, change date and SRO status), and send it again."""
    submission = Submission.objects.select_for_update().select_related(
        "registration__claim__sale", "registration__claim__coverage").get(pk=submission_id)
    if submission.status == Submission.Status.SENT:
        return submission
    facts = layout.claim_facts(submission.registration.claim)
    body = layout.build_item(facts, sequence=submission.sequence,
                             changed_on=timezone.localdate(submission.occurred_at),
                             rectification=submission.rectification)
    if facts.status != submission.sro_status:
        # The claim moved on since (its later changes wait behind this one): keep what
        # this fact said of the claim, with the corrected codes and identifiers.
        kept = dict(submission.body["coberturas_afetadas"][0])
        fresh = body["coberturas_afetadas"][0]
        kept.update({key: fresh[key] for key in ("grupo_ramo", "cod_cobertura_sinistro",
                                                 "data_ocorrencia")})
        body["coberturas_afetadas"] = [kept]
        for key in ("possui_beneficiario_final", "beneficiario_final"):
            body.pop(key, None)
            if key in submission.body:
                body[key] = submission.body[key]
    missing = layout.missing_facts(facts)
    Submission.objects.filter(pk=submission.pk).update(
        body=body, missing=missing, errors=[], last_error="", attempts=0,
        next_try_at=None, lease_until=None,
        status=Submission.Status.INCOMPLETE if missing else Submission.Status.PENDING)
    submission.refresh_from_db()
    return submission
