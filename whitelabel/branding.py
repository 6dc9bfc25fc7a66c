"""A channel's look on the hosted pages: colours with readable text, and a logo that is
re-encoded before it is kept (what an admin uploads is never served as sent)."""

import io
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

from claims.models import Channel
from whitelabel.models import HostedPages

LOGO_MAX_BYTES = 1024 * 1024
LOGO_MAX_SIZE = (480, 160)  # shown at most 240 x 80 CSS pixels, 2x for sharp screens
DARK_TEXT = "#000000"  # with white, one of the two always reaches 4.58:1
LIGHT_TEXT = "#FFFFFF"


class InvalidLogo(ValueError):
    pass


def _luminance(hex_color: str) -> float:
    """WCAG 2.x relative luminance of ``#RRGGBB``."""
    channels = [int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def text_color_on(background: str) -> str:
    """White or black, whichever reads better on ``background`` (one of the two always
    reaches WCAG AA's 4.5:1)."""
    return max((LIGHT_TEXT, DARK_TEXT), key=lambda text: contrast_ratio(background, text))


def reencoded_logo(upload) -> bytes:
    """An uploaded image (PNG, JPEG, WebP or GIF) -> a PNG of at most LOGO_MAX_SIZE."""
    if upload.size > LOGO_MAX_BYTES:
        raise InvalidLogo("O logotipo pode ter até 1 MB.")
    try:
        with Image.open(upload) as image:
            if image.format not in ("PNG", "JPEG", "WEBP", "GIF"):
                raise InvalidLogo("Envie o logotipo em PNG, JPEG, WebP ou GIF.")
            if image.width * image.height > 40_000_000:
                raise InvalidLogo("Imagem grande demais.")
            image = image.convert("RGBA")
            image.thumbnail(LOGO_MAX_SIZE)
            out = io.BytesIO()
            image.save(out, format="PNG", optimize=True)
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError):
        raise InvalidLogo("O arquivo não é uma imagem válida.") from None
    return out.getvalue()


@dataclass(frozen=True)
class Brand:
    name: str
    color: str
    text_color: str
    logo_digest: str  # empty: no logo


def brand_of(channel: Channel) -> Brand:
    """Read from ``channel.hosted_pages`` when it was selected with the channel."""
    try:
        pages = channel.hosted_pages
    except HostedPages.DoesNotExist:
        pages = None
    color = pages.primary_color.upper() if pages else HostedPages.DEFAULT_COLOR
    return Brand(
        name=(pages.display_name if pages and pages.display_name else channel.name),
        color=color,
        text_color=text_color_on(color),
        logo_digest=pages.logo_digest if pages else "",
    )
