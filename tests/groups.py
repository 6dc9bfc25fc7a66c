"""Where each test runs (docs/testing.md): the whole suite on PostgreSQL, the production
database; on SQLite, the embedded default of ``make run``, only what proves that default
works. And which tests are too slow for the inner loop (``make test-fast``).

Entries are files or folders under ``tests/``, or one test (``file::name``); each says
why it is in its group."""

# On SQLite too (``make test`` without PostgreSQL, and the first phase of .ci/run).
SQLITE_PART = {
    "tests/system/test_first_run.py": "a fresh checkout starts on the embedded defaults",
    "tests/system/test_make_run.py": "`make run` is the SQLite default itself",
    "tests/system/test_readme_session.py": "the README's session runs on `make run`",
    "tests/system/test_browser_claim_lifecycle.py":
        "a claim opened and moved through the analysts' actions in a browser",
    "tests/system/test_browser_hosted_pages.py": "the hosted pages, as a person meets them",
    "tests/claims/test_every_event.py": "every action of the workflow, every event written",
    "tests/claims/test_open_claim_api.py": "opening a claim through the API",
    "tests/claims/test_write_statements.py": "statement counts stated for both databases",
    "tests/privacy/test_access_statements.py":
        "the access log's one INSERT per request, on both databases",
    "tests/claims/test_admin_claim_search.py": "search that runs through SQLite's own path",
    "tests/claims/test_admin_sale_search.py": "search that runs through SQLite's own path",
    "tests/claims/test_beneficiaries_migration.py": "a data migration on SQLite's schema",
    "tests/claims/test_claim_channel_migration.py": "a data migration on SQLite's schema",
    "tests/claims/test_deceased_flag_migration.py": "a data migration on SQLite's schema",
    "tests/claims/test_decided_late_days_migration.py": "a data migration on SQLite's schema",
    "tests/claims/test_search_migrations.py": "search migrations, SQLite's branch",
    "tests/webhooks/test_engine.py":
        "a webhook delivered by the engine through the ORM leasing SQLite uses",
    "tests/webhooks/test_fan_out.py": "events fanned out to deliveries",
    "tests/whitelabel/test_pages.py": "the hosted pages",
    "tests/whitelabel/test_hosted_forms.py": "the hosted forms",
    "tests/privacy/test_forgetting.py": "retention runs on the embedded default (its lock)",
    "tests/privacy/test_requests_export.py":
        "a person's data export, its lookups in every role on the embedded default",
    "tests/privacy/test_requests_command.py": "manage.py data_request on the embedded default",
}

# Left out of ``make test-fast``: subprocess servers and workers, browsers, nginx.
SLOW = {
    "tests/system": "browsers, gunicorn, nginx, redis-server and `make run` in subprocesses",
    "tests/webhooks/test_delivery_worker.py": "real Celery workers",
    "tests/workbench/test_sweep_workers.py": "real Celery workers",
    "tests/claims/test_celery_worker.py": "a real Celery worker",
    "tests/claims/test_document_readings_worker.py": "a real Celery worker doing OCR",
    "tests/claims/test_document_readings_ocr.py": "OCR, 1 to 2 s a page",
    "tests/correspondence/test_sending_workers.py": "real Celery workers and SMTP",
    "tests/sro/test_workers.py": "real Celery workers",
    "tests/claims/test_move_consequence_workers.py": "real Celery workers",
    "tests/sro/test_local_registradora.py": "the local registradora's server",
    "tests/payouts/test_localbank.py": "the local bank as a subprocess, its delay waited",
    "tests/payouts/test_round_trip.py": "the local bank as a subprocess",
    "tests/payouts/test_workers.py": "real Celery workers",
    "tests/payouts/test_demo.py": "seeds the demo's workload through the bank",
    "tests/webhooks/test_metrics.py": "worker processes writing the shared counters",
    "tests/claims/test_document_upload_s3.py": "moto's S3 server in a subprocess",
    # Migrations run back and forth: 1 to 12 s each, a third of the inner loop's time.
    "tests/claims/test_search_migrations.py": "migrations run back and forth",
    "tests/claims/test_beneficiaries_migration.py": "migrations run back and forth",
    "tests/claims/test_decided_late_days_migration.py": "migrations run back and forth",
    "tests/claims/test_claim_channel_migration.py": "migrations run back and forth",
    "tests/claims/test_deceased_flag_migration.py": "migrations run back and forth",
    "tests/claims/test_admin.py::test_seed_demo_keeps_what_other_apps_granted_the_roles":
        "seeds the whole demo (20 s)",
    "tests/claims/test_seed_demo_command.py": "seeds the demo's workload",
    "tests/ledger/test_rebuild.py":
        "seeds the demo into a database of its own, copies it, migrates the copy back and forth",
}


def in_group(nodeid: str, group: dict) -> bool:
    """Whether the test is in ``group``: its file or a folder above it, or the test
    itself (``file::name``, its parametrized cases included)."""
    path = nodeid.split("::", 1)[0]
    return any(path == entry or path.startswith(entry.rstrip("/") + "/")
               or nodeid == entry or nodeid.startswith((entry + "[", entry + "::"))
               for entry in group)
