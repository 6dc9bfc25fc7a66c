"""Benchmark (not a test): what recording who looked (LGPD art. 37, privacy.access)
costs the pages that read a claim's personal data, against the same pages without it,
in the same run: the analysts' claim page and a search by CPF, the channel's API claim
detail and a page of its claim list; and the access report itself, per claim and per
CPF, on a log already holding ``--log-per-claim`` records for every claim.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/access_log.py [--claims 100000] [--reload] [--log-per-claim 3]

PostgreSQL only, on a scratch database: the book is bench/claims_book.py's (the
workbench benchmark's: reused when it holds ``--claims`` claims). Each request runs
``RUNS`` times with the receiver connected and ``RUNS`` times without, interleaved; the
best of each is printed: the database time (the sum of the statements' times as the
client sees them, round trips included), the statements, and the whole request's time
in the test client (Django's rendering included)."""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from admin_claims_list import ANALYST, StatementTimer  # noqa: E402
from claims_book import count, load  # noqa: E402

RUNS = 7
SECRET = "bench-access-log-secret"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--reload", action="store_true", help="empty and load again")
    parser.add_argument("--log-per-claim", type=int, default=3,
                        help="access records already in the log for every claim")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database.")
    from django.contrib.auth.models import User
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if (args.reload or count("claims_claim") != args.claims
            or not User.objects.filter(username=ANALYST).exists()):
        started = time.perf_counter()
        load(args.claims)
        print(f"loaded {args.claims} claims in {time.perf_counter() - started:.0f} s")
    fill_log(args.log_per_claim * count("claims_claim"))
    measure()


def fill_log(wanted: int) -> None:
    """The log as a busy year leaves it: records of every claim, spread over a year."""
    have = count("privacy_accessrecord")
    if have >= wanted:
        return
    started = time.perf_counter()
    per_claim = -(-(wanted - have) // count("claims_claim"))
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO privacy_accessrecord (at, claim_id, kind, user_id, channel_id) "
            "SELECT now() - (random() * interval '365 days'), c.id, 'pagina', NULL, NULL "
            "FROM claims_claim c CROSS JOIN generate_series(1, %s)", [per_claim])
        cursor.execute("ANALYZE privacy_accessrecord")
    print(f"access log: {count('privacy_accessrecord')} records "
          f"({time.perf_counter() - started:.0f} s to fill)")


def channel_client(channel):
    """The channel's API client with a real token: its secret is reset to a known one."""
    from django.conf import settings
    from django.contrib.auth.hashers import make_password
    from rest_framework.test import APIClient

    application = channel.application
    type(application).objects.filter(pk=application.pk).update(client_secret=make_password(
        SECRET, hasher=settings.OAUTH2_PROVIDER["CLIENT_SECRET_HASHER"]))
    response = APIClient().post("/oauth/token", {
        "client_id": application.client_id, "client_secret": SECRET,
        "grant_type": "client_credentials"}, format="json")
    assert response.status_code == 200, response.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['access_token']}")
    return client


def requests_measured():
    from django.contrib.auth.models import Group, Permission, User
    from django.test import Client

    from claims.models import Claim
    from privacy import roles as privacy_roles

    claim = Claim.objects.select_related("sale", "channel").order_by("number")[
        count("claims_claim") // 2]
    analyst = Client()
    analyst.force_login(User.objects.get(username=ANALYST))
    privacy_roles.sync_roles(Group, Permission)
    officer_user, _ = User.objects.get_or_create(username="bench-privacidade",
                                                 defaults={"is_staff": True})
    officer_user.groups.add(Group.objects.get(name=privacy_roles.PRIVACY))
    officer = Client()
    officer.force_login(officer_user)
    api = channel_client(claim.channel)
    cpf = claim.sale.insured_cpf
    return [
        ("claim page (analyst)", analyst, f"/admin/claims/claim/{claim.pk}/change/"),
        ("search by CPF (analyst)", analyst, f"/admin/claims/claim/?fila=todos&q={cpf}"),
        ("search: one surname, 50 claims", analyst, "/admin/claims/claim/?fila=todos&q=Lima"),
        ("API: claim detail", api, f"/api/v1/sinistros/{claim.number}"),
        ("API: claim list, a page", api, "/api/v1/sinistros"),
        ("report: per claim", officer, f"/admin/privacy/accessrecord/?sinistro={claim.number}"),
        ("report: per CPF", officer, f"/admin/privacy/accessrecord/?cpf={cpf}"),
    ]


def timed(client, url):
    timer = StatementTimer()
    started = time.perf_counter()
    with connection.execute_wrapper(timer):
        response = client.get(url)
    wall = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    return timer, wall


def measure() -> None:
    from claims.signals import personal_data_read
    from privacy import access

    def best(results):
        return min(results, key=lambda r: r[0].seconds)[0], min(wall for _, wall in results)

    print(f"{'request':32} {'db, recording':>14} {'db, baseline':>13} {'ratio':>6} "
          f"{'statements':>11} {'request, rec/base':>18}")
    for label, client, url in requests_measured():
        client.get(url)  # the session, the permissions, the token, warm caches
        recording, baseline = [], []
        for _ in range(RUNS):
            recording.append(timed(client, url))
            personal_data_read.disconnect(dispatch_uid="privacy.access.record")
            try:
                baseline.append(timed(client, url))
            finally:
                personal_data_read.connect(access.record, dispatch_uid="privacy.access.record")
        (rec, rec_wall), (base, base_wall) = best(recording), best(baseline)
        insert = [s for s in rec.statements if s[1].startswith('INSERT INTO "privacy_accessrecord"')]
        insert_ms = min(s[0] for s in insert) * 1000 if insert else 0
        print(f"{label:32} {rec.seconds * 1000:11.1f} ms {base.seconds * 1000:10.1f} ms "
              f"{rec.seconds / base.seconds:6.2f} {len(rec.statements):5} / {len(base.statements):<4}"
              f" {rec_wall * 1000:7.1f} / {base_wall * 1000:.1f} ms"
              f"   (INSERT {insert_ms:.2f} ms)")
    print(f"claims: {count('claims_claim')}, access records: {count('privacy_accessrecord')}; "
          f"best of {RUNS} each, interleaved")


if __name__ == "__main__":
    main()
