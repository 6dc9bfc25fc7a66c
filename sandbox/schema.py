"""The sandbox's OpenAPI links: from a claim the channel opened or read to moving it."""

from api_common.openapi_hooks import add_links, link

SIMULATE = {
    "SimularMovimentoSandbox": link(
        "simular-movimento-sandbox",
        "Só canais de sandbox: mover o sinistro como a seguradora faria.",
        **{"numero-sinistro": "$response.body#/numero-sinistro"}),
}
LINKS = {
    ("abrir-sinistro", "200"): SIMULATE,
    ("consultar-sinistro", "200"): SIMULATE,
    ("simular-movimento-sandbox", "200"): SIMULATE,
}


def operation_links(result, generator, request, public):
    return add_links(result, LINKS)
