"""claims.shares: what each beneficiary is owed, from the claim's value, the creditor's
balance and the shares (pure arithmetic)."""

from dataclasses import dataclass
from decimal import Decimal

import pytest

from claims.shares import entitlements, split

D = Decimal


@dataclass
class Person:
    pk: int
    kind: str = "outro"
    share: Decimal | None = None
    held_at: object = None

    @property
    def is_held(self):
        return self.held_at is not None


@dataclass
class Paid:
    beneficiary_id: int
    amount: Decimal


def test_thirds_give_the_left_over_cent_to_the_largest_remainder():
    assert split(D("100.00"), [D("33.33"), D("33.33"), D("33.34")]) == [
        D("33.33"), D("33.33"), D("33.34")]
    assert split(D("100.00"), [D("50"), D("25"), D("25")]) == [D("50.00"), D("25.00"), D("25.00")]
    # 10.00 in three equal parts of 33.33%... plus the 0.01% of the third: exact.
    parts = split(D("10.00"), [D("33.33"), D("33.33"), D("33.34")])
    assert sum(parts) == D("10.00") and parts == [D("3.33"), D("3.33"), D("3.34")]


@pytest.mark.parametrize("rest", [D("0.01"), D("1.00"), D("99999.99"), D("60000.00")])
def test_at_100_percent_the_amounts_make_the_rest_exactly(rest):
    shares = [D("12.5"), D("12.5"), D("25"), D("50")]
    assert sum(split(rest, shares)) == rest


def test_below_100_percent_each_amount_is_rounded_down_and_the_rest_waits():
    assert split(D("100.00"), [D("33.333")]) == [D("33.33")]
    assert split(D("100.00"), [D("50")]) == [D("50.00")]


def test_the_creditor_takes_the_balance_first_and_the_shares_split_what_is_left():
    creditor, spouse, child = Person(1, "credor"), Person(2, share=D("50")), Person(3, share=D("50"))

    owed = entitlements(amount=D("20000.00"), outstanding_balance=D("8000.00"),
                        beneficiaries=[creditor, spouse, child],
                        payments=[Paid(1, D("8000.00")), Paid(2, D("1000.00"))])

    assert [(e.due, e.paid, e.left, e.done) for e in owed] == [
        (D("8000.00"), D("8000.00"), D("0.00"), True),
        (D("6000.00"), D("1000.00"), D("5000.00"), False),
        (D("6000.00"), D("0.00"), D("6000.00"), False),
    ]


def test_the_creditor_never_takes_more_than_the_claims_value():
    [creditor] = entitlements(amount=D("5000.00"), outstanding_balance=D("8000.00"),
                              beneficiaries=[Person(1, "credor")], payments=[])
    assert creditor.due == D("5000.00")


def test_a_held_share_has_nothing_left_and_counts_as_done():
    [held] = entitlements(amount=D("1000.00"), outstanding_balance=None,
                          beneficiaries=[Person(1, share=D("100"), held_at="ontem")],
                          payments=[])
    assert (held.due, held.left, held.done) == (D("1000.00"), D("0.00"), True)


def test_someone_without_a_share_is_owed_nothing_yet():
    [unknown] = entitlements(amount=D("1000.00"), outstanding_balance=None,
                             beneficiaries=[Person(1)], payments=[])
    assert (unknown.due, unknown.done) == (D("0.00"), True)
