"""The text of a file: a PDF's own text layer when it has one (born-digital
certificates, fast), else OCR with tesseract, page by page, up to a page limit.

Errors are :class:`Unreadable` (the file cannot be read: the reading is "ilegível") or
:class:`EngineMissing` (the OCR engine is not installed here: "erro"; the file may be
fine)."""

import functools
import io
import os
import statistics
from dataclasses import dataclass

import pypdfium2
import pytesseract
from PIL import Image, ImageOps, UnidentifiedImageError

# A page rendered for OCR: 300 dpi (PDF points are 1/72 in), tesseract's sweet spot.
RENDER_SCALE = 300 / 72
# Larger photos are scaled down first: OCR time grows with pixels, accuracy does not.
MAX_SIDE = 3500
# A text layer with fewer letters than this per page read is a scan's stray layer
# (a scanner's page number, an empty OCR layer): the page images are read instead.
MIN_TEXT_LAYER_CHARS = 40
PDF = "application/pdf"


class Unreadable(Exception):
    """The file is damaged, encrypted or not what its type says."""


class EngineMissing(Exception):
    """tesseract (or its language data) is not installed on this machine."""


@dataclass(frozen=True)
class ReadText:
    text: str
    pages: int
    # Mean word confidence of the OCR (0-100); None for a text layer (exact).
    confidence: float | None
    engine: str


@functools.cache
def tesseract_engine(language: str) -> str:
    """``"tesseract 5.3 por"``; raises EngineMissing without tesseract or the language."""
    # One thread per tesseract: a worker machine runs several worker processes, and
    # OpenMP's threads only fight over the cores (docs/performance.md, "Reading
    # documents": about twice as fast a page on a busy 2-core machine). An operator's
    # own OMP_THREAD_LIMIT stands.
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    try:
        version = pytesseract.get_tesseract_version()
        languages = pytesseract.get_languages()
    except (pytesseract.TesseractNotFoundError, OSError) as error:
        raise EngineMissing("tesseract não está instalado") from error
    if language not in languages:
        raise EngineMissing(f"tesseract sem o idioma {language}")
    return f"tesseract {version.major}.{version.minor} {language}"


def read(content: bytes, content_type: str, *, max_pages: int, language: str) -> ReadText:
    if content_type == PDF:
        return _read_pdf(content, max_pages=max_pages, language=language)
    if content_type in ("image/jpeg", "image/png"):
        return _ocr_pages([_open_image(content)], language=language)
    # HEIC/HEIF: Pillow has no decoder for the HEVC-coded image (see checks.py).
    raise Unreadable("formato sem leitura automática (HEIC/HEIF)")


def _open_image(content: bytes) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(content))
        image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as error:
        raise Unreadable("imagem ilegível") from error
    # Phones store the rotation apart from the pixels.
    return ImageOps.exif_transpose(image)


def _read_pdf(content: bytes, *, max_pages: int, language: str) -> ReadText:
    try:
        document = pypdfium2.PdfDocument(content)
    except pypdfium2.PdfiumError as error:
        raise Unreadable("PDF ilegível ou protegido por senha") from error
    try:
        count = min(len(document), max_pages)
        if count == 0:
            raise Unreadable("PDF sem páginas")
        texts = []
        for index in range(count):
            page = document[index]
            texts.append(page.get_textpage().get_text_range())
        layer = "\n".join(texts).replace("\r\n", "\n").replace("\r", "\n")
        if sum(not c.isspace() for c in layer) >= MIN_TEXT_LAYER_CHARS * count:
            return ReadText(text=layer, pages=count, confidence=None,
                            engine=f"pdfium {pypdfium2.PDFIUM_INFO.build} (texto do PDF)")
        images = [document[index].render(scale=RENDER_SCALE, grayscale=True).to_pil()
                  for index in range(count)]
    except pypdfium2.PdfiumError as error:
        raise Unreadable("PDF ilegível") from error
    finally:
        document.close()
    return _ocr_pages(images, language=language)


def _ocr_pages(images: list[Image.Image], *, language: str) -> ReadText:
    engine = tesseract_engine(language)
    texts, confidences = [], []
    for image in images:
        text, words = _ocr(_prepared(image), language)
        texts.append(text)
        confidences += words
    return ReadText(text="\n\n".join(texts), pages=len(images),
                    confidence=round(statistics.fmean(confidences), 1) if confidences else 0.0,
                    engine=engine)


def _prepared(image: Image.Image) -> Image.Image:
    image = image.convert("L")
    if max(image.size) > MAX_SIDE:
        image.thumbnail((MAX_SIDE, MAX_SIDE))
    return ImageOps.autocontrast(image)


def _ocr(image: Image.Image, language: str) -> tuple[str, list[float]]:
    """The page's text, line by line as tesseract found them, and each word's
    confidence (one tesseract run gives both)."""
    try:
        data = pytesseract.image_to_data(image, lang=language,
                                         output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError as error:
        raise Unreadable(f"OCR falhou: {error.message[:100]}") from error
    lines: dict[tuple, list[str]] = {}
    confidences = []
    for index, word in enumerate(data["text"]):
        confidence = float(data["conf"][index])
        if not word.strip() or confidence < 0:
            continue
        key = (data["block_num"][index], data["par_num"][index], data["line_num"][index])
        lines.setdefault(key, []).append(word)
        confidences.append(confidence)
    return "\n".join(" ".join(words) for words in lines.values()), confidences
