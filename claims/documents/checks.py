"""Is a stored file complete, and is it what its media type says?

A caller that sends fewer bytes than the file has (a ``Content-Length`` shorter than the
body, a dropped connection the client did not notice) leaves a file that starts right
and ends wrong, so the first bytes alone prove little. Each check here reads what it
needs to tell a cut file from a whole one, and no more:

- PDF: the header, and in the last 1 KiB (trailing whitespace padding skipped) the
  ``%%EOF`` marker after a ``startxref`` whose offset lies inside the file (a cut PDF
  loses its trailer). A few KiB whatever the file's size; no object is parsed.
- JPEG: decoded by Pillow at 1/8 scale (``draft``): every entropy-coded byte is read, so
  a cut scan is an error, while pixels stay few. Bytes after the end-of-image marker
  (phones append motion photos there) are ignored.
- PNG: Pillow's ``verify`` reads every chunk and checks its CRC without decompressing,
  and the file must end with the exact ``IEND`` chunk.
- HEIC/HEIF: the top-level ISO BMFF boxes, from their headers only, must tile the file
  exactly (a cut file's last box claims more bytes than remain), start with ``ftyp``
  and include ``meta``. The HEVC-coded image itself is not decoded (Pillow has no HEIF
  decoder), so a file cut exactly at a box boundary, or with damaged coded data,
  passes.

``stored`` is a ``claims.documents.storage.StoredObject``: its size, and ``open(whole=...)`` giving
a seekable binary file (a local file, or the ranged S3 reader, which then fetches only
what is read).
"""

import re
import struct

from PIL import Image, UnidentifiedImageError

from claims.formatting import media_type_label

TAIL_BYTES = 1024  # PDF readers look for %%EOF within the last 1 KiB
PDF_MAX_PADDING = 64 * 1024
PDF_WHITESPACE = b"\x00\t\n\x0c\r "
MAX_HEIF_BOXES = 64
WHOLE_FILE_TYPES = {"image/jpeg", "image/png"}
PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF")


def problem_with(content_type: str, stored) -> str:
    """'' when the stored file looks complete and of ``content_type``; otherwise why not."""
    check = _CHECKS.get(content_type)
    if check is None:
        return f"Arquivos {media_type_label(content_type)} não são aceitos."
    # Images are read to the end; PDF and HEIF only where their structure is.
    with stored.open(whole=content_type in WHOLE_FILE_TYPES) as file:
        return check(file, stored.size)


def _not_of_type(content_type: str) -> str:
    return f"O conteúdo não é um arquivo {media_type_label(content_type)} válido."


def _incomplete(kind: str, why: str) -> str:
    return f"O arquivo {kind} está incompleto ou corrompido ({why}). Envie o arquivo inteiro."


def _read_at(file, offset: int, length: int) -> bytes:
    file.seek(offset)
    return file.read(length)


# --- PDF --------------------------------------------------------------------------------


def _pdf(file, size: int) -> str:
    if not _read_at(file, 0, 8).startswith(b"%PDF-"):
        return _not_of_type("application/pdf")
    tail = _pdf_tail(file, size)
    if b"%%EOF" not in tail:
        return _incomplete("PDF", "sem o marcador final %%EOF")
    found = _STARTXREF.findall(tail)
    if not found or int(found[-1]) >= size:
        return _incomplete("PDF", "sem a referência startxref ao índice de objetos")
    return ""


def _pdf_tail(file, size: int) -> bytes:
    """The last 1 KiB before trailing whitespace (padding some producers add, which
    readers skip), looking back through at most ``PDF_MAX_PADDING`` of it."""
    end = size
    while end > 0 and size - end <= PDF_MAX_PADDING:
        start = max(0, end - TAIL_BYTES)
        block = _read_at(file, start, end - start)
        content = block.rstrip(PDF_WHITESPACE)
        if len(content) == len(block):
            return block
        if content:
            end = start + len(content)
            return _read_at(file, max(0, end - TAIL_BYTES), min(end, TAIL_BYTES))
        end = start
    return b""


# --- images (Pillow) ---------------------------------------------------------------------


def _jpeg(file, size: int) -> str:
    if not _read_at(file, 0, 3) == b"\xff\xd8\xff":
        return _not_of_type("image/jpeg")
    file.seek(0)
    try:
        with Image.open(file, formats=["JPEG"]) as image:
            image.draft("RGB", (max(1, image.width // 8), max(1, image.height // 8)))
            image.load()
    except Image.DecompressionBombError:
        return "A imagem tem pixels demais."
    except UnidentifiedImageError:
        return _not_of_type("image/jpeg")
    except (OSError, SyntaxError, ValueError, EOFError, struct.error):
        return _incomplete("JPEG", "a imagem não pôde ser lida até o fim")
    return ""


def _png(file, size: int) -> str:
    if _read_at(file, 0, 8) != b"\x89PNG\r\n\x1a\n":
        return _not_of_type("image/png")
    if size < len(PNG_END) or _read_at(file, size - len(PNG_END), len(PNG_END)) != PNG_END:
        return _incomplete("PNG", "sem o bloco final IEND")
    file.seek(0)
    try:
        with Image.open(file, formats=["PNG"]) as image:
            image.verify()
    except Image.DecompressionBombError:
        return "A imagem tem pixels demais."
    except UnidentifiedImageError:
        return _not_of_type("image/png")
    except (OSError, SyntaxError, ValueError, EOFError, struct.error):
        return _incomplete("PNG", "um bloco da imagem está cortado ou alterado")
    return ""


# --- HEIC/HEIF (ISO BMFF boxes) ----------------------------------------------------------

HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}


def _heif(content_type: str):
    def check(file, size: int) -> str:
        head = _read_at(file, 0, 12)
        if head[4:8] != b"ftyp" or head[8:12] not in HEIF_BRANDS:
            return _not_of_type(content_type)
        boxes, offset = [], 0
        while offset < size:
            if len(boxes) == MAX_HEIF_BOXES:
                return _incomplete("HEIC/HEIF", "estrutura de caixas inesperada")
            header = _read_at(file, offset, 16)
            if len(header) < 8:
                return _incomplete("HEIC/HEIF", "a última caixa está cortada")
            box_size, box_type = struct.unpack(">I4s", header[:8])
            if box_size == 1:  # 64-bit size follows the type
                if len(header) < 16:
                    return _incomplete("HEIC/HEIF", "a última caixa está cortada")
                box_size = struct.unpack(">Q", header[8:16])[0]
            elif box_size == 0:  # the box runs to the end of the file
                box_size = size - offset
            if box_size < 8 or offset + box_size > size:
                return _incomplete("HEIC/HEIF", f"a caixa {box_type.decode('latin-1')!r} está cortada")
            boxes.append(box_type)
            offset += box_size
        if b"meta" not in boxes:
            return _incomplete("HEIC/HEIF", "sem a caixa meta")
        return ""

    return check


_CHECKS = {
    "application/pdf": _pdf,
    "image/jpeg": _jpeg,
    "image/png": _png,
    "image/heic": _heif("image/heic"),
    "image/heif": _heif("image/heif"),
}
