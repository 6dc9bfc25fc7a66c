"""The README's copy-paste curl session, run as written against a live server."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_session() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Try it", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
@pytest.mark.django_db(transaction=True)
def test_the_readme_curl_session_works_as_written(live_server, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"
    settings.BASE_URL = live_server.url  # url-envio points back at this server
    call_command("seed_demo", allow_production=True, stdout=open("/dev/null", "w"))
    script = readme_session().replace("BASE=http://127.0.0.1:8000", f"BASE={live_server.url}")
    assert f"BASE={live_server.url}" in script

    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True,
                            text=True, timeout=60)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert '{"dados":[{"id-venda":' in out
    number = re.search(r"opened (SIN-\w+)", out).group(1)
    assert f'"numero-sinistro":"{number}"' in out
    assert '"status":"pendente-de-documentacao"' in out
    assert '"saldo-devedor":14000.0' in out
    final = out.strip().splitlines()[-1]
    assert '"status":"documentacao-em-analise"' in final
    assert '"tipo":"certidao-de-obito"' in final and '"tipo":"cpf-cnpj"' in final
