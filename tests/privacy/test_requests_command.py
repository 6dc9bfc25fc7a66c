"""``manage.py data_request``: registers the request, answers access at once and prints
the export's paths, in Portuguese; a bad CPF or kind is a clear error."""

import datetime as dt
import io
import json

import pytest
from django.core.management import CommandError, call_command

from correspondence.models import Letter, Message
from privacy.models import DataRequest
from tests.privacy.requests_support import PAULA, paula_two_claims

pytestmark = pytest.mark.usefixtures("local_media")


def run(*args, **options) -> str:
    out = io.StringIO()
    call_command("data_request", *args, stdout=out, **options)
    return out.getvalue()


def test_access_registers_answers_and_prints_the_paths(channel, tmp_path):
    heir_claim, own_claim = paula_two_claims(channel)
    cpf = f"{PAULA[:3]}.{PAULA[3:6]}.{PAULA[6:9]}-{PAULA[9:]}"

    output = run(cpf, kind="acesso", out=str(tmp_path / "saida"))

    request = DataRequest.objects.get()
    assert (request.cpf, request.origin, request.status) == (PAULA, "carta", "respondida")
    assert f"Requisição nº {request.pk} registrada" in output
    assert f"Prazo da resposta completa: {request.due_on:%d/%m/%Y}." in output
    assert f"JSON: {request.export_json}" in output and f"PDF: {request.export_pdf}" in output
    copy = tmp_path / "saida" / f"dados-pessoais-{request.pk}.json"
    assert f"Cópia: {copy}" in output
    numbers = {row["numero"] for row in json.loads(copy.read_text())["sinistros"]}
    assert numbers == {heir_claim.number, own_claim.number}
    assert (tmp_path / "saida" / f"dados-pessoais-{request.pk}.pdf").read_bytes()[:4] == b"%PDF"
    assert Message.objects.filter(letter=Letter.DATA_REQUEST_ANSWER).count() == 1


def test_other_kinds_are_registered_and_left_for_the_admin(db):
    output = run("52998224725", kind="compartilhamento", origin="pagina")

    request = DataRequest.objects.get()
    assert (request.kind, request.origin, request.status) == ("compartilhamento", "pagina",
                                                              "aberta")
    assert "Responda pelo admin" in output


def test_a_request_from_a_channel_names_the_channel(channel):
    run("52998224725", kind="acesso", origin="canal", channel=channel.slug)

    assert DataRequest.objects.get().channel == channel
    with pytest.raises(CommandError, match="precisa do canal: --channel"):
        run("52998224725", kind="acesso", origin="canal")
    with pytest.raises(CommandError, match="Canal desconhecido: nenhum."):
        run("52998224725", kind="acesso", origin="canal", channel="nenhum")


@pytest.mark.parametrize("cpf, kind, words", [
    ("123.456.789-00", "acesso", "CPF inválido: 123.456.789-00."),
    ("52998224725", "tudo", "Tipo de requisição desconhecido: tudo."),
])
def test_a_bad_cpf_or_kind_stops_with_a_clear_message(db, cpf, kind, words):
    with pytest.raises(CommandError, match=words.replace(".", r"\.")):
        run(cpf, kind=kind)
    assert not DataRequest.objects.exists()


def test_the_demo_has_an_access_request_waiting_for_its_answer(db, settings):
    from django.utils import timezone

    settings.DEBUG = True
    out = io.StringIO()
    call_command("seed_demo", "--sinistros", "6", stdout=out, stderr=io.StringIO())

    request = DataRequest.objects.get()
    assert (request.kind, request.status) == ("acesso", "aberta")
    assert request.due_on == timezone.localdate() + dt.timedelta(days=5)
    assert f"a requisição de acesso nº {request.pk}, aberta" in out.getvalue()
