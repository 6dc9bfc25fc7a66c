"""Benchmark (not a test): SQL statements per API operation, as a channel makes them.

    python bench/api_statements.py                 # SQLite (a scratch file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench python bench/api_statements.py

A scratch database like the test suite's (migrated, destroyed at the end); each call
goes through Django's test client with a real token, in real transactions. Counted:
every statement but transaction control (BEGIN/COMMIT, logged differently by each
backend); savepoints are counted and also shown apart. tests/claims/test_write_statements.py
asserts the limits of the writes.
"""

import os
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("CELERY_BROKER_URL", "memory://")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def main() -> None:
    scratch = tempfile.TemporaryDirectory()
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = str(Path(scratch.name) / "bench.db")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with tempfile.TemporaryDirectory() as media:
            from django.conf import settings

            settings.MEDIA_ROOT, settings.DOCUMENT_STORAGE = Path(media), "local"
            run()
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
        scratch.cleanup()


def run() -> None:
    from rest_framework.test import APIClient

    from claims import roles, services
    from claims.models import Claim, DocumentRequirement
    from tests.support.documents import OPEN_BODY, PDF, upload_body
    from tests.support.lifecycle import HEIR_DETAILS, staff
    from tests.support.factories import CoverageFactory, SaleFactory, make_channel

    channel = make_channel("Banco Contagem")
    for doc_type, title in (("certidao-de-obito", "Certidão de óbito"), ("cpf-cnpj", "CPF")):
        DocumentRequirement.objects.create(coverage_name="cobertura/morte", doc_type=doc_type,
                                           title=title)
    sale = SaleFactory(channel=channel)
    CoverageFactory(sale=sale, name="cobertura/morte")
    anonymous, api = APIClient(), APIClient()
    rows = []

    def count(label, call, status=200):
        with CaptureQueriesContext(connection) as captured:
            response = call()
        assert response.status_code == status, (label, response.status_code, response.content)
        sql = [q["sql"] for q in captured.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
        savepoints = sum("SAVEPOINT" in s for s in sql)
        rows.append((label, len(sql), savepoints))
        return response

    token = count("POST /oauth/token", lambda: anonymous.post("/oauth/token", {
        "client_id": channel.application.client_id, "client_secret": channel.plain_secret,
        "grant_type": "client_credentials"}, format="json")).json()["access_token"]
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    count("GET /vendas", lambda: api.get("/api/v1/vendas"))
    count("GET /vendas/{id}", lambda: api.get(f"/api/v1/vendas/{sale.id}"))
    number = count("POST /vendas/{id}/abrir-sinistro", lambda: api.post(
        f"/api/v1/vendas/{sale.id}/abrir-sinistro", {**OPEN_BODY, "saldo-devedor": 15000},
        format="json")).json()["numero-sinistro"]
    count("GET /sinistros/{n}", lambda: api.get(f"/api/v1/sinistros/{number}"))
    count("POST /sinistros/{n}/saldo-devedor", lambda: api.post(
        f"/api/v1/sinistros/{number}/saldo-devedor", {"saldo-devedor": 14000}, format="json"))
    for doc_type in ("cpf-cnpj", "certidao-de-obito"):
        url = count("POST /sinistros/{n}/enviar-documento", lambda doc_type=doc_type: api.post(
            f"/api/v1/sinistros/{number}/enviar-documento", upload_body(tipo=doc_type),
            format="json")).json()["url-envio"]
        path = urlparse(url).path
        label = ("PUT /uploads/{token} (completes the claim)" if doc_type == "certidao-de-obito"
                 else "PUT /uploads/{token}")
        count(label, lambda path=path: anonymous.generic("PUT", path, PDF,
                                                         content_type="application/pdf"))
    claim = Claim.objects.get(number=number)
    analyst = staff("analista-contagem", roles.ANALYST)
    services.approve_documents(claim_id=claim.pk, user=analyst, request_payment_data=True)
    count("POST /sinistros/{n}/detalhes-pagamento", lambda: api.post(
        f"/api/v1/sinistros/{number}/detalhes-pagamento", HEIR_DETAILS, format="json"))
    count("POST /sinistros/whitelabel/gerar-url", lambda: api.post(
        "/api/v1/sinistros/whitelabel/gerar-url", {"id-venda": str(sale.id),
                                                   "id-usuario": "cliente-1"}, format="json"))
    count("GET /webhooks", lambda: api.get("/api/v1/webhooks"))

    print(f"database: {connection.vendor}; statements per call (transaction control left out)")
    for label, statements, savepoints in rows:
        extra = f"  ({savepoints} of them savepoint statements)" if savepoints else ""
        print(f"  {label:46} {statements:3}{extra}")


if __name__ == "__main__":
    main()
