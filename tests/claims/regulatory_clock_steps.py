"""Histories for the regulatory clock's tests: steps built in America/Sao_Paulo from a
fixed start, and the clock they give."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from claims.regulatory_clock import ClockKind, RegulatoryClock, Step, compute_clock
from claims.workflow import Action, ClaimStatus

SP = ZoneInfo("America/Sao_Paulo")
T0 = datetime(2026, 1, 10, 12, 0, tzinfo=SP)
MINIMUM_WAGE = Decimal("1518.00")
SMALL, LARGE = 1, 2  # suspensions allowed: up to / above 500 minimum wages



def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def step(at: datetime, action: str, to_status: str = "") -> Step:
    return Step(at=at, action=action, to_status=to_status)


def opened(at=T0, *, pending=False) -> Step:
    status = ClaimStatus.PENDING_DOCUMENTS if pending else ClaimStatus.CREATED
    return step(at, Action.OPEN, status)


def request_documents(at) -> Step:
    return step(at, Action.REQUEST_DOCUMENTS, ClaimStatus.PENDING_DOCUMENTS)


def complete_documents(at) -> Step:
    return step(at, Action.COMPLETE_DOCUMENTS, ClaimStatus.DOCUMENTS_UNDER_REVIEW)


def approve(at) -> Step:
    return step(at, Action.APPROVE_DOCUMENTS, ClaimStatus.UNDER_REGULATION)


def clock(*steps: Step, allowed: int = SMALL) -> RegulatoryClock:
    return compute_clock(steps, suspensions_allowed=allowed)


def assert_running(result, kind, started_at, deadline):
    assert (result.kind, result.started_at, result.deadline) == (kind, started_at, deadline)
    assert not result.paused
    assert result.remaining_when_paused is None


def assert_no_clock(result):
    assert result.kind == ClockKind.NONE
    assert (result.started_at, result.deadline, result.remaining_when_paused) == (None,) * 3
    assert not result.paused
