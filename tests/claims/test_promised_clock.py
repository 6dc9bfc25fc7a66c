"""The clock the hosted pages promise (claims.regulatory_clock.promised_clock): approving
the documents does not yet recognise cover there; asking for payment data or
registering a payment does. Pure computations: no database."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from claims.regulatory_clock import CLOCK_DAYS, ClockKind, Step, compute_clock, promised_clock
from claims.workflow import Action, ClaimStatus

T0 = datetime(2026, 1, 10, 12, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
S = ClaimStatus


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


OPENED = Step(day(0), Action.OPEN, S.PENDING_DOCUMENTS)
COMPLETE = Step(day(2), Action.COMPLETE_DOCUMENTS, S.DOCUMENTS_UNDER_REVIEW)
APPROVED = Step(day(12), Action.APPROVE_DOCUMENTS, S.UNDER_REGULATION)


def test_approved_documents_keep_the_decision_deadline_from_the_complete_documents():
    steps = [OPENED, COMPLETE, APPROVED]

    promised = promised_clock(steps, suspensions_allowed=1)
    analysts = compute_clock(steps, suspensions_allowed=1)

    assert (promised.kind, promised.deadline) == (ClockKind.DECISION, day(2 + CLOCK_DAYS))
    assert (analysts.kind, analysts.deadline) == (ClockKind.PAYMENT, day(12 + CLOCK_DAYS))


def test_asking_for_payment_data_starts_the_deadline_to_pay():
    steps = [OPENED, COMPLETE, APPROVED,
             Step(day(15), Action.REQUEST_PAYMENT_DATA, S.PENDING_PAYMENT_DATA)]

    promised = promised_clock(steps, suspensions_allowed=1)

    assert (promised.kind, promised.deadline) == (ClockKind.PAYMENT, day(15 + CLOCK_DAYS))


def test_documents_asked_after_the_approval_suspend_the_decision_deadline():
    steps = [OPENED, COMPLETE, APPROVED,
             Step(day(14), Action.REQUEST_DOCUMENTS, S.PENDING_DOCUMENTS)]

    promised = promised_clock(steps, suspensions_allowed=1)

    assert (promised.kind, promised.paused) == (ClockKind.DECISION, True)
