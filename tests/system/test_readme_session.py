"""The copy-paste curl sessions, run as written against a live server: the README's
"Try it", and the partners' sandbox session in docs/sandbox.md."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from oauth2_provider.models import AccessToken

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SANDBOX_DOC = ROOT / "docs" / "sandbox.md"


def readme_session() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Try it", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def run(script: str, tmp_path) -> str:
    environment = {**os.environ, "TMPDIR": str(tmp_path)}  # where the block keeps its token
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True,
                            text=True, timeout=60, env=environment)
    assert result.returncode == 0, result.stderr
    return result.stdout


def last_body(out: str) -> str:
    return [line for line in out.strip().splitlines() if line.startswith("{")][-1]


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
@pytest.mark.django_db(transaction=True)
def test_the_readme_curl_session_works_as_written_and_again(live_server, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"
    settings.BASE_URL = live_server.url  # url-envio points back at this server
    call_command("seed_demo", allow_production=True, stdout=open("/dev/null", "w"))
    script = readme_session().replace("BASE=http://127.0.0.1:8000", f"BASE={live_server.url}")
    assert f"BASE={live_server.url}" in script

    out = run(script, tmp_path)

    assert '{"dados":[{"id-venda":' in out
    number = re.search(r"numero-sinistro: (SIN-\w+)", out).group(1)
    assert f'"numero-sinistro":"{number}"' in out
    assert '"status":"pendente-de-documentacao"' in out
    assert '"saldo-devedor":14000.0' in out
    # sales, open, query, balance, three upload links and their PUTs, three payees,
    # letters, the last query
    assert out.count("HTTP 200") == 15
    assert '"carta":"aviso-recebido"' in out and '"url-pdf":"http' in out
    for doc_type in ("certidao-de-obito", "cpf-cnpj", "documentos-dos-beneficiarios"):
        assert f"PUT {doc_type}.pdf: HTTP 200" in out
    final = json.loads(last_body(out))
    assert final["status"] == "documentacao-em-analise"
    assert [(b["tipo"], b["nome"], b["cpf-ou-cnpj"], b["valor"]) for b in final["beneficiarios"]] == [
        ("credor", "Banco Exemplo S.A.", "11.222.333/****-**", 14000),
        ("outro", "Pedro da Silva", "***.654.321-**", 0),
        ("outro", "Ana da Silva", "***.813.579-**", 0)]
    documentation = final["documentacao"]
    assert {d["tipo"] for d in documentation["documentos-recebidos"]} == {
        "certidao-de-obito", "cpf-cnpj", "documentos-dos-beneficiarios"}
    # Received, and still pending until an analyst approves them, each marked received.
    assert {d["tipo"]: d["recebido"] for d in documentation["documentos-pendentes"]} == {
        "certidao-de-obito": True, "cpf-cnpj": True, "documentos-dos-beneficiarios": True}

    again = run(script, tmp_path)

    assert "HTTP 422" in again and '"problem-id":"claim-already-opened-for-coverage"' in again
    assert f"numero-sinistro: {number}" in again
    assert "PUT " not in again  # nothing missing: nothing sent twice
    assert json.loads(last_body(again))["status"] == "documentacao-em-analise"
    assert AccessToken.objects.count() == 1  # the second paste reused the saved token


def sandbox_doc_session() -> str:
    section = SANDBOX_DOC.read_text(encoding="utf-8").split("## Sandbox for partners", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
@pytest.mark.django_db(transaction=True)
def test_the_sandbox_doc_session_works_as_written_and_again(live_server, tmp_path):
    call_command("seed_demo", allow_production=True, sinistros=0, stdout=open("/dev/null", "w"))
    script = sandbox_doc_session().replace("BASE=http://127.0.0.1:8000",
                                           f"BASE={live_server.url}")
    assert f"BASE={live_server.url}" in script

    for _ in range(2):
        assert run(script, tmp_path).split() == ["pendente-de-documentacao", "recusado"]
