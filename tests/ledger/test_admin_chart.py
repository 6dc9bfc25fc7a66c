"""The triangles' chart (ledger.charts.development_chart) on hand-made figures: an
accessible SVG with no script, one line per recent occurrence month, the amounts in R$."""

from decimal import Decimal
from xml.etree import ElementTree

from ledger.charts import development_chart, nice_ceiling

SVG = "{http://www.w3.org/2000/svg}"


def chart(labels, rows, **kwargs):
    return development_chart(labels, rows, title="Pagos acumulados",
                             description="Cada linha é um mês de ocorrência.", **kwargs)


def test_each_occurrence_month_is_a_line_through_its_cumulative_amounts():
    rows = [[Decimal("0"), Decimal("100"), Decimal("400")],
            [Decimal("50"), Decimal("200"), None],
            [Decimal("300"), None, None]]

    svg = ElementTree.fromstring(str(chart(["set/26", "out/26", "nov/26"], rows)))

    assert svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "Pagos acumulados"
    assert svg.find(f"{SVG}desc").text == "Cada linha é um mês de ocorrência."
    lines = svg.findall(f".//{SVG}polyline")
    # The newest month has one point only: a dot, no line.
    assert [len(line.get("points").split()) for line in lines] == [3, 2]
    groups = [g.find(f"{SVG}title").text for g in svg.findall(f"{SVG}g")]
    assert groups == ["set/26: R$ 400,00 em 2 mes(es) de desenvolvimento",
                      "out/26: R$ 200,00 em 1 mes(es) de desenvolvimento",
                      "nov/26: R$ 300,00 em 0 mes(es) de desenvolvimento"]
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    # The axis: from zero to a round amount above the largest (R$ 400,00).
    assert {"R$ 0,00", "R$ 250,00", "R$ 500,00"} <= set(texts)
    assert ["set/26", "out/26", "nov/26"] == [t for t in texts if t and t.endswith("/26")]


def test_a_higher_amount_is_drawn_higher():
    rows = [[Decimal("100"), Decimal("400")]]
    points = ElementTree.fromstring(str(chart(["set/26"], rows))).find(
        f".//{SVG}polyline").get("points").split()
    (x0, y0), (x1, y1) = (tuple(map(float, p.split(","))) for p in points)

    assert x1 > x0 and y1 < y0


def test_only_the_most_recent_months_are_drawn():
    labels = [f"m{i}" for i in range(20)]
    rows = [[Decimal(i), Decimal(i + 1)] for i in range(20)]

    svg = ElementTree.fromstring(str(chart(labels, rows, lines=12)))

    titles = [g.find(f"{SVG}title").text.split(":")[0] for g in svg.findall(f"{SVG}g")]
    assert titles == labels[-12:]


def test_an_empty_book_says_so_and_escapes_nothing_it_should_not():
    svg = str(development_chart([], [], title="Pagos <acumulados>", description="a & b"))

    assert "Nenhum sinistro no período." in svg
    assert "<title>Pagos &lt;acumulados&gt;</title><desc>a &amp; b</desc>" in svg
    assert "<script" not in svg


def test_the_axis_ends_on_a_round_amount():
    assert [nice_ceiling(Decimal(v)) for v in ("49581.33", "12000", "180", "0.4", "0")] == [
        Decimal(50000), Decimal(20000), Decimal(200), Decimal(1), Decimal(1)]
