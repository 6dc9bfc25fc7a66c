"""Small bar charts drawn on the server as SVG: no script, no CDN, nothing the
Content-Security-Policy refuses (presentation attributes only, no inline styles)."""

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 560, 220
MARGIN_LEFT, MARGIN_BOTTOM, MARGIN_TOP = 36, 36, 16
BAR_COLOUR, AXIS_COLOUR, TEXT_COLOUR = "#417690", "#8a99a8", "#333"


def bar_chart(bars: list[tuple[str, int]], *, title: str, description: str) -> SafeString:
    """A titled, accessible bar chart: each bar's value above it, labels below."""
    top = max((value for _, value in bars), default=0) or 1
    plot_height = HEIGHT - MARGIN_BOTTOM - MARGIN_TOP
    slot = (WIDTH - MARGIN_LEFT) / max(len(bars), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>",
        f'<line x1="{MARGIN_LEFT}" y1="{HEIGHT - MARGIN_BOTTOM}" x2="{WIDTH}" '
        f'y2="{HEIGHT - MARGIN_BOTTOM}" stroke="{AXIS_COLOUR}"/>',
        f'<text x="{MARGIN_LEFT - 6}" y="{MARGIN_TOP + 4}" font-size="11" text-anchor="end" '
        f'fill="{TEXT_COLOUR}">{top}</text>',
    ]
    for index, (label, value) in enumerate(bars):
        height = plot_height * value / top
        x = MARGIN_LEFT + index * slot + slot * 0.15
        y = HEIGHT - MARGIN_BOTTOM - height
        centre = x + slot * 0.35
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" height="{height:.1f}" '
            f'fill="{BAR_COLOUR}"><title>{escape(label)}: {value}</title></rect>')
        parts.append(f'<text x="{centre:.1f}" y="{y - 4:.1f}" font-size="11" text-anchor="middle" '
                     f'fill="{TEXT_COLOUR}">{value}</text>')
        parts.append(f'<text x="{centre:.1f}" y="{HEIGHT - MARGIN_BOTTOM + 16}" font-size="11" '
                     f'text-anchor="middle" fill="{TEXT_COLOUR}">{escape(label)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
