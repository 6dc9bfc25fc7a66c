"""Migration 0003 on a copy of a seeded database (docs/ledger-rebuild.md): the demo's
claims, their ledger emptied, a few of them made to contradict their own history by SQL,
then the rebuild. ``manage.py`` runs as a deploy runs it, in a process of its own, on
scratch databases this test creates and drops."""

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.support.concurrency import postgres_only

ROOT = Path(__file__).resolve().parents[2]
# Enough claims for every state the tampering needs (the demo's scenarios are seeded).
CLAIMS = 40

pytestmark = postgres_only


def _url(name: str) -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{name}"


def _manage(database: str, *arguments: str, check: bool = True):
    env = {**os.environ, "DATABASE_URL": _url(database), "DJANGO_DEBUG": "true"}
    env.pop("DJANGO_SETTINGS_MODULE", None)  # the test settings name the test database
    done = subprocess.run([sys.executable, "manage.py", *arguments], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    if check:
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done


def _admin(*statements: str) -> None:
    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        for statement in statements:
            admin.execute(statement)


def _scratch(suffix: str) -> str:
    """A scratch database named after the test database (its worker's, under xdist), so
    parallel runs never share one: ``claims_ci_gw0_rebuild_copy``."""
    return f"{connection.settings_dict['NAME'].removeprefix('test_')}_rebuild_{suffix}"


@pytest.fixture(scope="module")
def copy(django_db_setup):
    """A seeded database, and a copy of it (the copy is what the test changes)."""
    seeded, copied = _scratch("seeded"), _scratch("copy")
    drop = [f"DROP DATABASE IF EXISTS {name} WITH (FORCE)" for name in (copied, seeded)]
    _admin(*drop, f"CREATE DATABASE {seeded}")
    try:
        _manage(seeded, "migrate", "--no-input")
        _manage(seeded, "seed_demo", f"--sinistros={CLAIMS}")
        _admin(f"CREATE DATABASE {copied} TEMPLATE {seeded}")
        with psycopg.connect(_url(copied), autocommit=True) as db:
            yield db, copied
    finally:
        _admin(*drop)


def _one(db, sql: str, *params):
    return db.execute(sql, params).fetchone()


def _claim(db, where: str):
    """A claim of the seeded book (id, amount, settled indemnity), by a condition."""
    return _one(db, f"""
        SELECT c.id, c.amount, COALESCE((SELECT SUM(p.amount) FROM claims_payment p
                                         WHERE p.claim_id = c.id AND p.status = 'concluido'), 0)
          FROM claims_claim c WHERE NOT c.is_sandbox AND {where} ORDER BY c.number LIMIT 1""")


def test_the_rebuild_writes_the_history_and_one_adjustment_per_contradicted_claim(copy):
    db, name = copy
    booked_by_the_seeding = _one(db, "SELECT count(*) FROM ledger_movement")[0]
    assert booked_by_the_seeding > CLAIMS  # the services booked the demo's moves

    # The demo closes its past months (localdev.demo.ledger): a ledger built before the service
    # kept one had no month closed, and going back is refused while one is.
    db.execute("TRUNCATE ledger_monthclose CASCADE")
    _manage(name, "migrate", "ledger", "0002")
    assert _one(db, "SELECT count(*) FROM ledger_movement")[0] == 0

    # Contradictions the history cannot explain, each with the difference it leaves.
    expected = {}
    # Finalized by SQL, no step in the history: the rebuilt notice is still owed.
    closed, amount, _ = _claim(db, "status = 'em-regulacao' AND NOT EXISTS (SELECT 1 FROM "
                                   "claims_payment p WHERE p.claim_id = c.id)")
    db.execute("UPDATE claims_claim SET status = 'finalizado' WHERE id = %s", [closed])
    expected[closed] = -amount
    # A denied claim put back under regulation by SQL: owed again, released in the history.
    reopened, amount, _ = _claim(db, "status = 'recusado'")
    db.execute("UPDATE claims_claim SET status = 'em-regulacao' WHERE id = %s", [reopened])
    expected[reopened] = amount
    # A payment of a finalized claim said to be settled after the claim was finalized:
    # the closing released it too, and then it was paid.
    late, _, _ = _claim(db, "status = 'finalizado' AND EXISTS (SELECT 1 FROM claims_payment "
                            "p WHERE p.claim_id = c.id AND p.status = 'concluido')")
    payment, paid = _one(db, "SELECT id, amount FROM claims_payment WHERE claim_id = %s AND "
                             "status = 'concluido' ORDER BY id LIMIT 1", late)
    db.execute("UPDATE claims_payment SET settled_at = (SELECT max(created_at) FROM "
               "claims_claimhistory WHERE claim_id = %s) + interval '1 hour' WHERE id = %s",
               [late, payment])
    expected[late] = paid
    # A value changed by SQL before the ledger existed reads as the estimate (the rebuild
    # takes today's value): no difference to show.
    revalued, amount, _ = _claim(db, "status = 'em-regulacao' AND c.id NOT IN (%s, %s)"
                                 % (_lit(closed), _lit(reopened)))
    db.execute("UPDATE claims_claim SET amount = amount - 1000 WHERE id = %s", [revalued])
    # A claim marked sandbox: no insurance fact, nothing rebuilt.
    sandbox, _, _ = _claim(db, "status = 'pendente-de-documentacao'")
    db.execute("UPDATE claims_claim SET is_sandbox = true WHERE id = %s", [sandbox])

    started = time.monotonic()
    migrated = _manage(name, "migrate", "ledger", "0003")
    took = time.monotonic() - started
    assert "Livro de sinistros reconstruído" in migrated.stdout

    checked = _manage(name, "ledger_check", check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    adjustments = dict(db.execute(
        "SELECT claim_id, reserve FROM ledger_movement WHERE kind = 'ajuste-de-abertura'"
    ).fetchall())
    assert adjustments == expected
    assert _one(db, "SELECT count(*) FROM ledger_movement WHERE kind = 'ajuste-de-abertura' "
                    "GROUP BY claim_id ORDER BY 1 DESC LIMIT 1")[0] == 1
    note = _one(db, "SELECT note FROM ledger_movement WHERE claim_id = %s AND kind = "
                    "'ajuste-de-abertura'", closed)[0]
    assert note.startswith("Ajuste de abertura do livro: os movimentos reconstruídos do "
                           "histórico somam R$ ")
    assert "o sinistro deve hoje R$ 0,00" in note

    # Every settled payment, once, on its payment date, its indemnity out of the reserve.
    settled = db.execute("""
        SELECT p.id, p.amount, p.paid_on, m.reserve, m.paid, m.fact_on, m.booked_on
          FROM claims_payment p JOIN claims_claim c ON c.id = p.claim_id
          LEFT JOIN ledger_movement m ON m.payment_id = p.id AND m.kind = 'pagamento-liquidado'
         WHERE p.status = 'concluido' AND NOT c.is_sandbox""").fetchall()
    assert settled
    for _, amount, paid_on, reserve, paid, fact_on, booked_on in settled:
        assert paid_on is not None
        assert (reserve, paid, fact_on, booked_on) == (-amount, amount, paid_on, paid_on)
    assert _one(db, "SELECT count(*) FROM ledger_movement WHERE kind = 'pagamento-liquidado'"
                )[0] == len(settled)

    # The notice carries today's value, dated on the opening's local day.
    notice = _one(db, """
        SELECT m.reserve, m.fact_on, (h.created_at AT TIME ZONE 'America/Sao_Paulo')::date
          FROM ledger_movement m JOIN claims_claimhistory h ON h.id = m.history_id
         WHERE m.claim_id = %s AND m.kind = 'aviso'""", revalued)
    assert notice[0] == _claim(db, "c.id = %s" % _lit(revalued))[1]
    assert notice[1] == notice[2]
    assert _one(db, "SELECT count(*) FROM ledger_movement WHERE claim_id = %s", sandbox)[0] == 0
    assert _one(db, "SELECT count(*) FROM ledger_movement m JOIN claims_claim c ON "
                    "c.id = m.claim_id WHERE c.is_sandbox")[0] == 0

    # Running it again writes nothing: every claim has its movements.
    before = _one(db, "SELECT count(*), sum(reserve), sum(paid) FROM ledger_movement")
    again = _manage(name, "shell", "-c", (
        "from django.apps import apps; from django.db import connection, transaction; "
        "from ledger.rebuild import rebuild\n"
        "with transaction.atomic(): print(rebuild(apps, connection))"))
    assert again.stdout.strip().splitlines()[-1] == "{}"
    assert _one(db, "SELECT count(*), sum(reserve), sum(paid) FROM ledger_movement") == before
    print(f"\nrebuild of {CLAIMS} demo claims ({before[0]} movements): migrate took "
          f"{took:.1f} s")


def test_going_back_empties_the_ledger_unless_a_month_was_closed(copy):
    db, name = copy
    assert _one(db, "SELECT count(*) FROM ledger_movement")[0] > 0
    db.execute("INSERT INTO ledger_monthclose (month, status, frozen_at, actor, summary, "
               "problems) VALUES (%s, 'fechado', now(), 'teste', '{}', '[]')",
               [dt.date(2020, 1, 1)])
    refused = _manage(name, "migrate", "ledger", "0002", check=False)
    assert refused.returncode != 0
    assert "já tem meses fechados" in refused.stderr
    assert _one(db, "SELECT count(*) FROM ledger_movement")[0] > 0

    db.execute("TRUNCATE ledger_monthclose CASCADE")
    _manage(name, "migrate", "ledger", "0002")
    assert _one(db, "SELECT count(*) FROM ledger_movement")[0] == 0
    _manage(name, "migrate", "ledger")
    assert _one(db, "SELECT count(*) FROM ledger_movement WHERE kind = 'aviso'")[0] > 0


def _lit(value) -> str:
    """A UUID as an SQL literal (only for ids this test read from the database)."""
    return f"'{value}'"
