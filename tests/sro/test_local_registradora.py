"""The local registradora over real HTTP: what B3's Registro de Sinistro V3 would refuse, it
refuses; what it accepts, it records; and it fails or stalls when a test asks it to."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from jsonschema import Draft7Validator

from localdev.registradora import schema
from localdev.registradora.server import LocalRegistradora

REGISTRO = "/api/sinistros/v3/registro"
ALTERACAO = "/api/sinistros/v3/alteracao"


@pytest.fixture
def registradora():
    with LocalRegistradora(token_ttl=600) as server:
        yield server


@pytest.fixture
def token(registradora):
    answer = requests.post(registradora.token_url, data={"grant_type": "client_credentials"},
                           auth=("sro-local", "sro-local-secret"), timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()["access_token"]


def coverage(**changes):
    """One affected coverage of a life policy, in initial assessment (status 6)."""
    cov = {
        "cobertura_interna_seguradora": "cobertura/morte",
        "grupo_ramo": "0993",
        "cod_cobertura_sinistro": "0001",
        "data_aviso_cobertura": "2025-03-10",
        "data_registro_seguradora_cobertura": "2025-03-11",
        "data_ocorrencia": "2025-03-02",
        "forma_indenizacao": 1,
        "status": 6,
        "totalizacao_sinistro": {
            "valor_pendente_reais": 50000.0, "valor_pago_reais": 0.0, "valor_salvado": 0.0,
            "valor_ressarcimento": 0.0, "valor_despesa": 0.0, "valor_desp_fin": 0.0,
        },
    }
    cov.update(changes)
    return {key: value for key, value in cov.items() if value is not None}


def claim(codigo_sinistro="SIN-ABC", **changes):
    item = {
        "codigo_seguradora": "01234",
        "codigo_sinistro": codigo_sinistro,
        "apolice_codigo": "APO-2024-000123",
        "tipo_sinistro": 1,
        "moeda_apolice": "BRL",
        "possui_cosseguro": False,
        "retificacao_registro": False,
        "coberturas_afetadas": [coverage()],
    }
    item.update(changes)
    return item


def alteracao(sequence, codigo_sinistro="SIN-ABC"):
    item = claim(codigo_sinistro, alteracao_sinistro_codigo=sequence)
    item["coberturas_afetadas"] = [coverage(data_alteracao_sinistro="2025-03-20", status=1)]
    return item


def registro_body(*items):
    return {"data": {"sinistro": list(items or [claim()])}}


def alteracao_body(*items):
    return {"data": {"sinistro_alteracao": list(items)}}


def post(registradora, path, body, token, **kwargs):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.post(registradora.url + path, json=body, headers=headers,
                         timeout=kwargs.pop("timeout", 5), **kwargs)


def details(answer):
    return [erro["detalhe"] for erro in answer.json()["erros"]]


def test_a_valid_registro_is_accepted_with_a_24_character_batch_id_and_recorded(
        registradora, token):
    answer = post(registradora, REGISTRO, registro_body(), token)

    assert answer.status_code == 201, answer.text
    lote = answer.json()["data"]["identificador_lote"]
    assert len(lote) == 24
    assert registradora.registered["SIN-ABC"] == {"registro": claim(), "alteracoes": []}
    assert registradora.received == [{"path": REGISTRO, "body": registro_body(), "status": 201,
                                      "identificador_lote": lote}]


def test_a_token_is_issued_for_credentials_in_basic_auth_or_in_the_form(registradora):
    by_basic = requests.post(registradora.token_url, data={"grant_type": "client_credentials"},
                             auth=("sro-local", "sro-local-secret"), timeout=5)
    in_form = requests.post(registradora.token_url, timeout=5, data={
        "grant_type": "client_credentials", "client_id": "sro-local",
        "client_secret": "sro-local-secret"})

    for answer in (by_basic, in_form):
        assert answer.status_code == 200
        assert answer.json()["token_type"] == "Bearer"
        assert answer.json()["expires_in"] == 600
    assert registradora.tokens_issued == 2


def test_a_bad_secret_gets_401_invalid_client(registradora):
    answer = requests.post(registradora.token_url, data={"grant_type": "client_credentials"},
                           auth=("sro-local", "wrong"), timeout=5)

    assert answer.status_code == 401
    assert answer.json() == {"error": "invalid_client"}
    assert registradora.tokens_issued == 0


def test_a_grant_other_than_client_credentials_gets_no_token(registradora):
    answer = requests.post(registradora.token_url, data={"grant_type": "password"},
                           auth=("sro-local", "sro-local-secret"), timeout=5)

    assert answer.status_code == 400
    assert answer.json() == {"error": "unsupported_grant_type"}
    assert registradora.tokens_issued == 0


def test_a_claim_sent_without_a_token_gets_401_and_is_not_accepted(registradora):
    answer = post(registradora, REGISTRO, registro_body(), token=None)

    assert answer.status_code == 401
    assert answer.json()["erros"][0]["codigo"] == "SIN-401"
    assert registradora.registered == {}


def test_an_expired_token_gets_401_and_a_fresh_one_works(registradora, token):
    registradora.expire_tokens()

    assert post(registradora, REGISTRO, registro_body(), token).status_code == 401
    fresh = requests.post(registradora.token_url, data={"grant_type": "client_credentials"},
                          auth=("sro-local", "sro-local-secret"), timeout=5).json()
    assert post(registradora, REGISTRO, registro_body(), fresh["access_token"]).status_code == 201


def test_a_claim_missing_a_required_field_is_refused_naming_it(registradora, token):
    item = claim()
    del item["apolice_codigo"]

    answer = post(registradora, REGISTRO, registro_body(item), token)

    assert answer.status_code == 422
    assert details(answer) == [
        "Item 0 (codigo_sinistro SIN-ABC): sinistro[0].apolice_codigo: obrigatório"]
    assert answer.json()["erros"][0]["codigo"] == "SIN-422"


def test_a_date_not_written_yyyy_mm_dd_is_refused(registradora, token):
    item = claim(coberturas_afetadas=[coverage(data_ocorrencia="02/03/2025")])

    answer = post(registradora, REGISTRO, registro_body(item), token)

    assert answer.status_code == 422
    assert "coberturas_afetadas[0].data_ocorrencia: \"02/03/2025\" não é uma data válida" \
        in details(answer)[0]


CLOSED = {"data_liquidacao": "2025-04-01", "data_conclusao": "2025-04-10"}
DENIED_UNDOCUMENTED = {"status": 3, "justificativa_negativa": {"justificativa": 3}, **CLOSED}
OWNER = {"nome": "Maria Souza", "tipo_documento": 1, "documento": "12345678909",
         "pais": "BRA", "codigo_postal": "01310100", "uf": "SP"}


@pytest.mark.parametrize(("item", "expected"), [
    (claim(coberturas_afetadas=[coverage(status=1, totalizacao_sinistro=None)]),
     "coberturas_afetadas[0].totalizacao_sinistro: obrigatório quando status = 1"),
    (claim(coberturas_afetadas=[coverage(**{**DENIED_UNDOCUMENTED, "data_liquidacao": None})]),
     "coberturas_afetadas[0].data_liquidacao: obrigatório quando status = 3"),
    (claim(coberturas_afetadas=[coverage(**{**DENIED_UNDOCUMENTED, "data_conclusao": None})]),
     "coberturas_afetadas[0].data_conclusao: obrigatório quando status = 3"),
    (claim(possui_beneficiario_final=False, coberturas_afetadas=[coverage(status=2, **CLOSED)]),
     "coberturas_afetadas[0].data_entrega: obrigatório quando status = 2"),
    (claim(coberturas_afetadas=[coverage(status=9, justificativa_negativa={"justificativa": 1},
                                         **CLOSED)]),
     "coberturas_afetadas[0].data_entrega: obrigatório quando status = 9"),
    (claim(coberturas_afetadas=[coverage(data_entrega="2025-03-09")]),
     "coberturas_afetadas[0].data_entrega: 2025-03-09 anterior à data_aviso_cobertura"),
    (claim(coberturas_afetadas=[coverage(**{**DENIED_UNDOCUMENTED, "justificativa_negativa": {
        "justificativa": 99}, "data_entrega": "2025-03-15"})]),
     "justificativa_negativa.descricao_justificativa: obrigatório quando justificativa = 99"),
    (claim(coberturas_afetadas=[coverage(cod_cobertura_sinistro="99999")]),
     "coberturas_afetadas[0].sinistro_cobertura_outros: obrigatório"),
    (claim(coberturas_afetadas=[coverage(status=7, data_entrega="2025-03-15", **CLOSED)]),
     "sinistro[0].possui_beneficiario_final: obrigatório quando status = 7"),
    (claim(beneficiario_final=[{**OWNER, "codigo_postal": "01310-100"}]),
     "beneficiario_final[0].codigo_postal: \"01310-100\" não tem os 8 dígitos do CEP"),
    (claim(beneficiario_final=[{**OWNER, "documento": "123.456.789-09"}]),
     "beneficiario_final[0].documento: somente números quando tipo_documento = 1"),
], ids=["totalizacao", "liquidacao", "conclusao", "entrega-encerrado", "entrega-indeferido",
        "entrega-antes-do-aviso", "descricao-justificativa", "cobertura-outros",
        "possui-beneficiario-final", "cep", "cpf"])
def test_each_rule_the_layout_states_in_a_description_refuses_the_claim(
        registradora, token, item, expected):
    answer = post(registradora, REGISTRO, registro_body(item), token)

    assert answer.status_code == 422
    assert any(expected in detail for detail in details(answer)), details(answer)
    assert registradora.registered == {}


@pytest.mark.parametrize("item", [
    claim(coberturas_afetadas=[coverage(**DENIED_UNDOCUMENTED)]),
    claim(possui_beneficiario_final=True, beneficiario_final=[OWNER],
          coberturas_afetadas=[coverage(status=2, data_entrega="2025-03-10", **CLOSED)]),
    claim(beneficiario_final=[{**OWNER, "pais": "PRT", "codigo_postal": "1000-001",
                               "tipo_documento": 3, "documento": "CA123456"}]),
], ids=["negado-sem-documentacao", "encerrado-com-indenizacao", "beneficiario-estrangeiro"])
def test_a_claim_with_what_its_status_asks_for_is_accepted(registradora, token, item):
    answer = post(registradora, REGISTRO, registro_body(item), token)

    assert answer.status_code == 201, answer.text


def test_a_second_registro_of_the_same_claim_is_refused(registradora, token):
    assert post(registradora, REGISTRO, registro_body(), token).status_code == 201

    answer = post(registradora, REGISTRO, registro_body(), token)

    assert answer.status_code == 422
    assert "sinistro já registrado pela seguradora 01234" in details(answer)[0]


def test_the_same_registro_sent_at_once_from_many_threads_is_accepted_once(registradora, token):
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda _: post(registradora, REGISTRO, registro_body(), token),
                                range(8)))

    assert sorted(answer.status_code for answer in answers) == [201] + [422] * 7
    assert list(registradora.registered) == ["SIN-ABC"]


def test_an_alteracao_of_a_claim_never_registered_is_refused(registradora, token):
    answer = post(registradora, ALTERACAO, alteracao_body(alteracao("1")), token)

    assert answer.status_code == 422
    assert details(answer)[0].startswith("Item 0 (codigo_sinistro SIN-ABC): "
                                         "sinistro_alteracao[0].codigo_sinistro: sinistro não "
                                         "registrado")


def test_alteracao_codes_out_of_order_are_refused_and_in_order_accepted(registradora, token):
    post(registradora, REGISTRO, registro_body(), token)
    assert post(registradora, ALTERACAO, alteracao_body(alteracao("2")), token).status_code == 201

    for late in ("2", "1", "abc"):
        answer = post(registradora, ALTERACAO, alteracao_body(alteracao(late)), token)
        assert answer.status_code == 422, late
        assert "alteracao_sinistro_codigo" in details(answer)[0]
    answer = post(registradora, ALTERACAO, alteracao_body(alteracao("3"), alteracao("10")), token)

    assert answer.status_code == 201
    codes = [item["alteracao_sinistro_codigo"]
             for item in registradora.registered["SIN-ABC"]["alteracoes"]]
    assert codes == ["2", "3", "10"]


def test_a_batch_with_one_bad_item_accepts_nothing(registradora, token):
    bad = claim("SIN-DEF", tipo_sinistro=3)

    answer = post(registradora, REGISTRO, registro_body(claim(), bad, claim("SIN-GHI")), token)

    assert answer.status_code == 422
    assert details(answer) == ["Item 1 (codigo_sinistro SIN-DEF): sinistro[1].tipo_sinistro: "
                               "valor 3 fora do domínio [1, 2]"]
    assert registradora.registered == {}
    assert registradora.received[-1]["identificador_lote"] is None


def test_a_429_from_fail_next_says_retry_after_and_the_retry_is_accepted(registradora, token):
    registradora.fail_next(429)

    refused = post(registradora, REGISTRO, registro_body(), token)
    retried = post(registradora, REGISTRO, registro_body(), token)

    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    assert refused.json()["erros"][0]["codigo"] == "SIN-429"
    assert retried.status_code == 201
    assert [seen["status"] for seen in registradora.received] == [429, 201]


def test_a_stalled_request_whose_client_timed_out_is_not_recorded_as_accepted(
        registradora, token):
    registradora.stall_next(1.5)

    with pytest.raises(requests.Timeout):
        post(registradora, REGISTRO, registro_body(), token, timeout=0.5)
    deadline = time.monotonic() + 5
    while not registradora.received and time.monotonic() < deadline:
        time.sleep(0.05)  # the server notices only once its stall is over

    assert registradora.received[0]["status"] is None
    assert registradora.registered == {}
    assert post(registradora, REGISTRO, registro_body(), token).status_code == 201


def test_a_stalled_request_whose_client_waits_is_accepted(registradora, token):
    registradora.stall_next(0.5)

    answer = post(registradora, REGISTRO, registro_body(), token, timeout=5)

    assert answer.status_code == 201
    assert "SIN-ABC" in registradora.registered


def test_malformed_json_gets_400_with_erros(registradora, token):
    answer = requests.post(registradora.url + REGISTRO, data=b'{"data": {', timeout=5, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})

    assert answer.status_code == 400
    assert answer.json()["erros"][0]["codigo"] == "SIN-400"


def test_an_unknown_path_gets_404_with_erros(registradora, token):
    answer = post(registradora, "/api/sinistros/v2/registro", registro_body(), token)

    assert answer.status_code == 404
    assert answer.json()["erros"][0]["codigo"] == "SIN-404"


def swagger_only_keys(node):
    """Every "id" or "example" keyword left in a schema (field names are not keywords)."""
    if isinstance(node, list):
        return [key for value in node for key in swagger_only_keys(value)]
    if not isinstance(node, dict):
        return []
    found = [key for key in node if key in ("id", "example")]
    for key, value in node.items():
        values = value.values() if key in ("properties", "definitions") else [value]
        found += [found_key for each in values for found_key in swagger_only_keys(each)]
    return found


def test_the_json_schema_of_a_registro_is_itself_a_valid_draft_7_schema():
    built = schema.json_schema("RegistroReqPost")

    Draft7Validator.check_schema(built)
    assert not swagger_only_keys(built)
    assert built["definitions"]["sinistro"]["properties"]["coberturas_afetadas"]["items"] == {
        "$ref": "#/definitions/coberturas_afetadas"}

