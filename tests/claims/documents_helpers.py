"""Shared by the document tests: real file headers and a claim waiting for documents."""

PDF = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64
HEIC = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 32

OPEN_BODY = {
    "cobertura": "cobertura/morte",
    "natureza": "morte-acidental",
    "data-ocorrencia": "2026-11-01T10:00:00-03:00",
    "solicitante": {"nome": "Pedro da Silva"},
    "pessoa-para-contato": {"nome": "Pedro da Silva", "email": "pedro@example.com"},
}


def upload_body(file_name="certidao.pdf", tipo="certidao-de-obito", **extra):
    body = {"nome-arquivo": file_name, "data-envio": "2026-11-21T12:00:00-03:00", **extra}
    if tipo:
        body["tipo"] = tipo
    return body
