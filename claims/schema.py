"""The links between the sales and claims operations in the OpenAPI schema (a
post-processing hook)."""

from api_common.openapi_hooks import add_links, link


# --- links: follow the flow with values from the responses ------------------------------


def _claim_links(number: str) -> dict:
    return {
        "ConsultarSinistro": link("consultar-sinistro", "O sinistro.",
                                   **{"numero-sinistro": number}),
        "EnviarDocumento": link("enviar-documento", "Um documento pendente do sinistro.",
                                 **{"numero-sinistro": number}),
        "AtualizarSaldoDevedor": link("atualizar-saldo-devedor", "O saldo devedor.",
                                       **{"numero-sinistro": number}),
        "InformarDetalhesPagamento": link(
            "informar-detalhes-pagamento", "Beneficiário e método de pagamento.",
            **{"numero-sinistro": number}),
    }


CLAIM_NUMBER = "$response.body#/numero-sinistro"
LINKS = {
    ("listar-vendas", "200"): {
        "ConsultarVenda": link("consultar-venda", "A primeira venda da página.",
                                **{"id-venda": "$response.body#/dados/0/id-venda"}),
        "AbrirSinistro": link("abrir-sinistro", "Um sinistro na primeira venda da página.",
                               **{"id-venda": "$response.body#/dados/0/id-venda"}),
        "PaginaSeguinte": link("listar-vendas", "A página seguinte.",
                                **{"pagina-seguinte": "$response.body#/pagina-seguinte"}),
    },
    ("consultar-venda", "200"): {
        "AbrirSinistro": link("abrir-sinistro", "Um sinistro nesta venda.",
                               **{"id-venda": "$response.body#/id-venda"}),
    },
    ("abrir-sinistro", "200"): _claim_links(CLAIM_NUMBER),
    ("consultar-sinistro", "200"): _claim_links(CLAIM_NUMBER),
    ("atualizar-saldo-devedor", "200"): _claim_links(CLAIM_NUMBER),
    ("informar-detalhes-pagamento", "200"): _claim_links(CLAIM_NUMBER),
    ("enviar-documento", "200"): {
        "ConsultarSinistro": link(
            "consultar-sinistro", "O sinistro, com o arquivo em `documentos-recebidos` "
            "depois do PUT em `url-envio`.",
            **{"numero-sinistro": "$request.path.numero-sinistro"}),
    },
}


def operation_links(result, generator, request, public):
    return add_links(result, LINKS)
