# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
# Two stamps: what the service needs to run (`make run`, `make worker`), and the test and
# lint tools on top (`make test`, `make check`); `make run` never waits for the latter.
RUNTIME_STAMP := $(VENV)/.installed-runtime
STAMP := $(VENV)/.installed
RUN_PORT ?= 8000
REGISTRADORA_PORT ?= 8070
LOCAL_REGISTRADORA := http://127.0.0.1:$(REGISTRADORA_PORT)
# The local bank's folders: the defaults of BANK_OUTBOX_DIR and BANK_INBOX_DIR
# (config/settings/payouts.py); the local bank runs only while both are these.
LOCAL_BANK_OUTBOX := $(CURDIR)/var/bank/outbox
LOCAL_BANK_INBOX := $(CURDIR)/var/bank/inbox
LOCAL_BANK_DELAY ?= 5
RUN_LOG_DIR ?= var/log
DEMO_SINISTROS ?= 300
# How long `make run` waits for the server to answer before showing its log: seconds on
# a quiet machine, past 60 s on one shared with other test suites (docs/running-locally.md).
SERVER_WAIT_SECONDS ?= 180

# One pytest-xdist worker per core (2 here); TEST_WORKERS=0 runs in one process.
TEST_WORKERS ?= auto
TEST_PG_URL ?= postgres://postgres@127.0.0.1:5432/claims_test
# make test: PostgreSQL and Redis on 127.0.0.1 when they answer and nothing else is set.
TEST_SERVICES = if [ -z "$$DATABASE_URL" ] && $(PY) -c "import socket; socket.create_connection(('127.0.0.1', 5432), 1)" 2>/dev/null; then \
	  export DATABASE_URL=$(TEST_PG_URL); \
	  if [ -z "$$CACHE_URL" ] && $(PY) -c "import socket; socket.create_connection(('127.0.0.1', 6379), 1)" 2>/dev/null; then \
	    export CACHE_URL=rediscache://127.0.0.1:6379/1 CELERY_BROKER_URL=redis://127.0.0.1:6379/2; fi; fi

.PHONY: run test test-sqlite test-fast migrate seed worker check clean screenshots schemathesis bench docs

$(RUNTIME_STAMP): requirements/base.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements/base.txt
	@touch $(RUNTIME_STAMP)

$(STAMP): $(RUNTIME_STAMP) requirements/dev.txt
	$(PY) -m pip install --quiet -r requirements/dev.txt
	@touch $(STAMP)

## Install, migrate, load the demo and serve API + admin on http://127.0.0.1:8000, with a
## Celery worker and beat on the embedded broker (webhooks, sweeps) and the local
## registradora (SRO); a quiet start that ends with the URLs and credentials, every log in
## var/log/. Ctrl-C, or SIGTERM to make, stops them all (also when started in the background).
run: export DJANGO_DEBUG ?= true
run: export WEBHOOK_ALLOWED_NETWORKS ?= 127.0.0.0/8
# Every address the service hands out (url-envio, letters' PDFs, problem types, the
# schema's token URL, hosted links) points at the port it serves on.
run: export BASE_URL ?= http://127.0.0.1:$(RUN_PORT)
# The SRO registrations go to the local registradora (localdev/registradora, B3's layout)
# unless SRO_API_URL names another one.
run: export SRO_API_URL ?= $(LOCAL_REGISTRADORA)
run: export SRO_TOKEN_URL ?= $(LOCAL_REGISTRADORA)/api/oauth/token
run: export SRO_CLIENT_ID ?= sro-local
run: export SRO_CLIENT_SECRET ?= sro-local-secret
# Remittances go to the local bank (localdev/localbank, docs/cnab240.md), which answers them
# into the inbox, unless BANK_OUTBOX_DIR / BANK_INBOX_DIR name a real bank's folders.
run: export BANK_OUTBOX_DIR ?= $(LOCAL_BANK_OUTBOX)
run: export BANK_INBOX_DIR ?= $(LOCAL_BANK_INBOX)
run: $(RUNTIME_STAMP)
	@mkdir -p var/broker var/broker-processed $(RUN_LOG_DIR)
	@echo "Preparando o banco e a demonstração (detalhes em $(RUN_LOG_DIR)/setup.log)..."
	@# The registradora first: the demo sends its past registrations at their own times.
	@registradora=; if [ "$$SRO_API_URL" = "$(LOCAL_REGISTRADORA)" ]; then \
	    $(PY) -m localdev.registradora.server --port $(REGISTRADORA_PORT) \
	      >$(RUN_LOG_DIR)/registradora.log 2>&1 & registradora=$$!; \
	    $(PY) -m api_common.wait_ready $(LOCAL_REGISTRADORA)/ 10 || true; fi; \
	  bank=; if [ "$$BANK_OUTBOX_DIR" = "$(LOCAL_BANK_OUTBOX)" ] && \
	            [ "$$BANK_INBOX_DIR" = "$(LOCAL_BANK_INBOX)" ]; then \
	    $(PY) -m localdev.localbank --outbox "$$BANK_OUTBOX_DIR" --inbox "$$BANK_INBOX_DIR" \
	      --delay $(LOCAL_BANK_DELAY) --refuse-accounts-ending 0 --schedule-above 100000 \
	      >$(RUN_LOG_DIR)/banco.log 2>&1 & bank=$$!; fi; \
	  { $(PY) manage.py migrate --no-input && \
	    $(PY) manage.py load_susep_codes --keep-existing sro/data/susep_codes.example.csv && \
	    $(PY) manage.py seed_demo --sinistros $(DEMO_SINISTROS) >$(RUN_LOG_DIR)/demo.txt; \
	  } >$(RUN_LOG_DIR)/setup.log 2>&1 || { tail -n 30 $(RUN_LOG_DIR)/setup.log; \
	    kill $$registradora $$bank 2>/dev/null; exit 1; }; \
	  $(PY) -m celery -A config worker --beat --pool=solo --loglevel=WARNING \
	    --schedule var/celerybeat-schedule >$(RUN_LOG_DIR)/worker.log 2>&1 & worker=$$!; \
	  $(PY) manage.py runserver 127.0.0.1:$(RUN_PORT) >$(RUN_LOG_DIR)/web.log 2>&1 & web=$$!; \
	  stop() { trap - INT TERM EXIT; pkill -P $$web 2>/dev/null; \
	           kill $$web $$worker $$registradora $$bank 2>/dev/null; wait 2>/dev/null; }; \
	  trap 'stop; exit 0' INT TERM; trap stop EXIT; \
	  $(PY) -m api_common.wait_ready http://127.0.0.1:$(RUN_PORT)/saude/vivo $(SERVER_WAIT_SECONDS) \
	    || { tail -n 30 $(RUN_LOG_DIR)/web.log; exit 1; }; \
	  cat $(RUN_LOG_DIR)/demo.txt; \
	  echo "Serviço: http://127.0.0.1:$(RUN_PORT)/admin/ (bancada) e /api/v1/docs/ (API)."; \
	  echo "Cartas: arquivos em var/mail/ (EMAIL_URL muda). Registros SRO: $$SRO_API_URL."; \
	  echo "Remessas CNAB 240: $$BANK_OUTBOX_DIR (retornos em $$BANK_INBOX_DIR)."; \
	  echo "Logs em $(RUN_LOG_DIR)/ (web, worker, registradora, banco, setup). Ctrl-C encerra tudo."; \
	  wait $$web

## The whole suite on PostgreSQL (and Redis) when they answer on 127.0.0.1, else the
## SQLite part, saying so (docs/testing.md); in parallel, one worker per core, each
## worker's test database kept between runs and rebuilt when a migration changes
test: $(STAMP)
	@$(TEST_SERVICES); $(PY) -m pytest -n $(TEST_WORKERS) --reuse-db $(PYTEST_ARGS)

## The SQLite part alone (the embedded default of make run), whatever answers
test-sqlite: $(STAMP)
	env -u DATABASE_URL -u CACHE_URL -u CELERY_BROKER_URL \
	  $(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

## The inner loop, under 2 minutes: unit, service and API tests on SQLite, no browser,
## no subprocess servers or workers. ARGS=tests/claims or a file narrows it.
test-fast: $(STAMP)
	env -u DATABASE_URL -u CACHE_URL -u CELERY_BROKER_URL \
	  $(PY) -m pytest -q -n $(TEST_WORKERS) --fast --whole-suite-on-sqlite $(ARGS)

## Schemathesis over every operation of the OpenAPI schema, against a live gunicorn on
## PostgreSQL (a fresh database, dropped afterwards); CI runs it too (.ci/schemathesis)
schemathesis: $(STAMP)
	.ci/schemathesis

## The docs written from the code: docs/problems.md (the problem classes),
## docs/workflow.md (claims/workflow.py), the events table of docs/webhooks.md
## (webhooks/events.py) and docs/configuration.md (the settings' declarations in
## config/settings/); the suite fails while any is stale
docs: $(RUNTIME_STAMP)
	DJANGO_DEBUG=true $(PY) manage.py problem_docs
	DJANGO_DEBUG=true $(PY) manage.py workflow_docs
	DJANGO_DEBUG=true $(PY) manage.py event_docs
	DJANGO_DEBUG=true $(PY) manage.py settings_docs

## The docs' screenshots of the hosted pages, the workbench and the letters (taken by their browser tests)
screenshots: $(STAMP)
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q tests/system/test_browser_hosted_pages.py -k local
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q tests/system/test_browser_workbench.py -k seeded
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q tests/system/test_browser_beneficiaries.py
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q tests/system/test_browser_denial.py
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q tests/system/test_browser_decisions.py
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q tests/system/test_browser_readings.py
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q tests/privacy/test_requests_browser.py

migrate: export DJANGO_DEBUG ?= true
migrate: $(RUNTIME_STAMP)
	@mkdir -p var
	$(PY) manage.py migrate --no-input

worker: export DJANGO_DEBUG ?= true
worker: $(RUNTIME_STAMP)
	@mkdir -p var/broker var/broker-processed
	$(PY) -m celery -A config worker --beat --loglevel=INFO --schedule var/celerybeat-schedule

## Benchmarks on PostgreSQL (docs/performance.md): BENCH_DATABASE_URL names a scratch
## database (the admin benchmark loads 100,000 claims into it); ports 8830-8831.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/claims_bench
bench: $(STAMP)
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) bench/api_statements.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) bench/api_requests.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) bench/admin_claims_list.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) bench/payouts_files.py
	$(PY) bench/document_readings.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) bench/decisions_evaluation.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) bench/decisions_book.py --claims 500

## Static checks CI runs too
check: export DJANGO_DEBUG ?= true
check: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) manage.py check

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache
