"""The triangles as a picture drawn on the server (SVG: no script, no CDN, presentation
attributes only, as workbench.charts): one line per occurrence month, the cumulative
amount (paid or incurred) over the development months.

That is the picture an actuary reads a triangle by: lines that climb alike are a stable
development pattern (what chain ladder relies on); a line that climbs above its
neighbours is an occurrence month that develops worse. Sixty lines are unreadable, so
the chart draws the most recent occurrence months (``LINES``); the table beside it has
them all."""

from decimal import Decimal

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from claims.formatting import brl

WIDTH, HEIGHT = 560, 300
LEFT, RIGHT, TOP, BOTTOM = 92, 76, 16, 40
AXIS_COLOUR, GRID_COLOUR, TEXT_COLOUR = "#8a99a8", "#e1e6ea", "#333"
LINES = 12
# Twelve colours told apart by most readers (Paul Tol's "muted" and "bright" sets); a
# line's month is also written in the legend, in the same order, so colour is not the
# only cue.
COLOURS = ("#332288", "#88ccee", "#44aa99", "#117733", "#999933", "#ddcc77", "#cc6677",
           "#882255", "#aa4499", "#4477aa", "#ee6677", "#228833")


def development_chart(labels: list[str], rows: list[list], *, title: str,
                      description: str, lines: int = LINES) -> SafeString:
    """``labels[i]`` names occurrence month ``i``; ``rows[i][j]`` is its cumulative
    amount at development month ``j`` (None where the month has not come yet). The last
    ``lines`` occurrence months with any figure are drawn."""
    drawn = [(label, [value for value in row if value is not None])
             for label, row in zip(labels, rows, strict=True)]
    drawn = [(label, values) for label, values in drawn if values][-lines:]
    width_dev = max((len(values) for _, values in drawn), default=1)
    top = nice_ceiling(max((max(values) for _, values in drawn), default=Decimal(0)))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(width_dev - 1, 1)

    def x(j):
        return LEFT + j * step

    def y(value):
        return TOP + plot_h - float(plot_h * value / top)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>",
    ]
    for fraction in (0, Decimal("0.25"), Decimal("0.5"), Decimal("0.75"), 1):
        value = top * fraction
        parts.append(f'<line x1="{LEFT}" y1="{y(value):.1f}" x2="{LEFT + plot_w}" '
                     f'y2="{y(value):.1f}" stroke="{GRID_COLOUR if fraction else AXIS_COLOUR}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" font-size="11" '
                     f'text-anchor="end" fill="{TEXT_COLOUR}">{escape(brl(value))}</text>')
    every = max(1, width_dev // 12)
    for j in range(0, width_dev, every):
        parts.append(f'<text x="{x(j):.1f}" y="{TOP + plot_h + 16}" font-size="11" '
                     f'text-anchor="middle" fill="{TEXT_COLOUR}">{j}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" font-size="11" '
                 f'text-anchor="middle" fill="{TEXT_COLOUR}">Meses de desenvolvimento '
                 f'(0 = o mês da ocorrência)</text>')
    for index, (label, values) in enumerate(drawn):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(f"{x(j):.1f},{y(value):.1f}" for j, value in enumerate(values))
        parts.append(f'<g><title>{escape(label)}: {escape(brl(values[-1]))} em '
                     f'{len(values) - 1} mes(es) de desenvolvimento</title>')
        if len(values) > 1:
            parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                         f'stroke-width="2"/>')
        parts.append(f'<circle cx="{x(len(values) - 1):.1f}" cy="{y(values[-1]):.1f}" '
                     f'r="3" fill="{colour}"/></g>')
        legend_y = TOP + 6 + index * 18
        parts.append(f'<rect x="{WIDTH - RIGHT + 12}" y="{legend_y - 5}" width="14" height="4" '
                     f'fill="{colour}"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 30}" y="{legend_y + 1}" font-size="11" '
                     f'fill="{TEXT_COLOUR}">{escape(label)}</text>')
    if not drawn:
        parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + plot_h / 2:.1f}" '
                     f'font-size="13" text-anchor="middle" fill="{TEXT_COLOUR}">'
                     f'Nenhum sinistro no período.</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def nice_ceiling(value: Decimal) -> Decimal:
    """The axis' top: the first of 1, 2, 2.5, 5 times a power of ten at or above
    ``value`` (R$ 49.581,33 -> R$ 50.000,00), so its quarters read as round amounts."""
    if value <= 0:
        return Decimal(1)
    power = Decimal(10) ** (len(str(int(value))) - 1)
    for step in (1, 2, Decimal("2.5"), 5, 10):
        if power * step >= value:
            return power * step
    return power * 10
