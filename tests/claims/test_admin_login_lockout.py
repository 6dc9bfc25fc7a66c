"""Admin login is protected against password guessing without becoming a weapon:
django-axes locks a (username, address) pair; an address alone is refused only past a
far higher count of failures (workbench.admin_login). Each case from separate addresses."""

import pytest
from django.core.management import call_command
from django.test import Client

from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db


def login(password: str, username: str = "ana", address: str = "203.0.113.7"):
    return Client(REMOTE_ADDR=address).post(
        "/admin/login/?next=/admin/", {"username": username, "password": password,
                                       "next": "/admin/"})


@pytest.fixture
def ana(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS = 6
    return staff("ana", "Analista de sinistros")


def test_repeated_failures_lock_the_account_even_with_the_right_password(ana):
    assert [login("errada").status_code for _ in range(3)] == [200, 200, 429]  # locked at 3

    locked = login("senha-forte-123")

    assert locked.status_code == 429
    assert "Acesso temporariamente bloqueado" in locked.content.decode()


def test_someone_elsewhere_who_knows_the_login_cannot_lock_its_owner_out(ana):
    for _ in range(5):
        login("errada", address="198.51.100.9")  # a stranger's guesses

    assert login("errada", address="198.51.100.9").status_code == 429  # they are locked
    assert login("senha-forte-123", address="203.0.113.7").status_code == 302  # ana is not


def test_one_persons_typos_behind_a_shared_address_lock_only_them(ana):
    staff("bruno", "Analista de sinistros")
    for _ in range(3):
        login("errada", username="ana", address="192.0.2.50")  # the office's NAT

    assert login("senha-forte-123", username="ana", address="192.0.2.50").status_code == 429
    assert login("senha-forte-123", username="bruno", address="192.0.2.50").status_code == 302


def test_an_address_guessing_many_usernames_is_refused_past_its_higher_count(ana):
    for name in ("a", "b", "c", "d", "e", "f"):  # six failures, a different login each
        assert login("x", username=name, address="198.51.100.66").status_code == 200

    refused = login("senha-forte-123", username="ana", address="198.51.100.66")

    assert refused.status_code == 429
    assert "Acesso temporariamente bloqueado" in refused.content.decode()
    assert login("senha-forte-123", username="ana", address="203.0.113.99").status_code == 302


def test_ops_unlock_a_user_with_the_documented_command(ana):
    for _ in range(3):
        login("errada")

    call_command("axes_reset_username", "ana")
    call_command("axes_reset_ip", "203.0.113.7")

    assert login("senha-forte-123").status_code == 302


def test_a_successful_login_is_not_affected_by_earlier_failures_below_the_limit(ana):
    login("errada")
    login("errada")

    assert login("senha-forte-123").status_code == 302


def test_a_locked_out_address_costs_no_password_hashing(ana, monkeypatch):
    """Every login attempt, even for an unknown username, runs the slow password hasher
    (Django evens out timing); once an address is locked, django-axes refuses before any
    backend runs, so guessing cannot keep the CPU busy."""
    from django.contrib.auth.hashers import MD5PasswordHasher

    calls = []
    for name in ("encode", "verify"):
        original = getattr(MD5PasswordHasher, name)
        monkeypatch.setattr(MD5PasswordHasher, name,
                            lambda self, *a, _o=original, **k: calls.append(1) or _o(self, *a, **k))
    for name in ("a", "b", "c", "d", "e", "f"):
        login("x", username=name)
    assert calls  # unknown usernames were hashed too, below the limit
    calls.clear()

    for name in ("g", "h", "ana"):
        assert login("senha-forte-123", username=name).status_code == 429

    assert calls == []
