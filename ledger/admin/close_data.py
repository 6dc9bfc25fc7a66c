"""What a close's page shows, read from the close: its kept reports (without their
bytes), the figures of its summary, the PSL per ramo, its problems, and the triangles
at the month's last day as tables and charts (ledger.charts)."""

from decimal import Decimal, InvalidOperation

from django.core.cache import cache

from ledger.admin.common import branch_names, branch_words, short_month
from ledger.calendar import last_day
from ledger.charts import development_chart
from ledger.models import MonthClose, Report
from ledger.reports.psl import NO_CODE
from ledger.services.closing import TRIANGLE_MONTHS


def _money(value) -> Decimal | None:
    try:
        return None if value is None else Decimal(str(value))
    except InvalidOperation:
        return None


def figures(close: MonthClose) -> dict:
    """The totals the list and the page show: PSL on the last day, paid in the month,
    the month's movements (None: the summary does not say)."""
    summary = close.summary or {}
    return {"psl": _money(summary.get("psl_total")),
            "claims": summary.get("psl_claims"),
            "paid": _money(summary.get("movements_paid")),
            "movements": summary.get("movements")}


def branch_rows(close: MonthClose) -> list[dict]:
    """The PSL per ramo, in words and R$, largest first."""
    names = branch_names()
    rows = [{"branch": branch_words("" if code == NO_CODE else code, names),
             "amount": _money(amount)}
            for code, amount in (close.summary or {}).get("psl_by_branch", {}).items()]
    return sorted(rows, key=lambda row: -(row["amount"] or 0))


def problem_lines(close: MonthClose) -> list[str]:
    """Why a close stopped, one sentence each (the summary keeps text or objects)."""
    lines = []
    for problem in close.problems or []:
        if isinstance(problem, dict):
            lines.append(problem.get("detail") or problem.get("message")
                         or "; ".join(f"{key}: {value}" for key, value in problem.items()))
        else:
            lines.append(str(problem))
    return lines


# A frozen month's triangles at its last day never change (a later fact is booked in
# the first open month), so a close's page builds them once and keeps them a week.
TRIANGLES_SECONDS = 7 * 24 * 3600


def triangles_at(as_of):
    from ledger.reports import triangles

    return triangles.build(as_of, months=TRIANGLE_MONTHS)


def close_triangles(close: MonthClose):
    key = f"ledger:close-triangles:{close.pk}:{close.month:%Y-%m}:{close.frozen_at.timestamp()}"
    result = cache.get(key)
    if result is None:
        result = triangles_at(last_day(close.month))
        cache.set(key, result, TRIANGLES_SECONDS)
    return result


def triangle_context(result) -> dict:
    """The paid and incurred triangles as table rows and as charts."""
    # The builder gives every one of the 60 months; the page starts at the first
    # occurrence month with any figure (a young book's first years are rows of zeros).
    first = next((i for i, (paid, incurred) in enumerate(
        zip(result.paid, result.incurred, strict=True)) if any(paid) or any(incurred)),
        len(result.paid))
    labels = [short_month(month) for month in result.occurrence_months[first:]]
    paid, incurred = result.paid[first:], result.incurred[first:]
    width = max((len(row) for row in paid), default=0)
    described = (f"{len(labels)} meses de ocorrência ({labels[0]} a {labels[-1]}); "
                 if labels else "Nenhum mês de ocorrência; ")
    return {
        "development": list(range(width)),
        "paid_rows": list(zip(labels, paid, strict=True)),
        "incurred_rows": list(zip(labels, incurred, strict=True)),
        "paid_chart": development_chart(
            labels, paid, title="Sinistros pagos acumulados por mês de ocorrência",
            description=described + "cada linha é um mês de ocorrência, o valor pago "
                        "acumulado ao longo dos meses de desenvolvimento."),
        "incurred_chart": development_chart(
            labels, incurred,
            title="Sinistros incorridos acumulados por mês de ocorrência",
            description=described + "incorrido = pago acumulado mais a reserva pendente "
                        "no fim de cada mês de desenvolvimento."),
    }


def report_rows(close: MonthClose) -> list[dict]:
    """One row per report, in the order finance reads them (the kinds' order), with
    its CSV and XLSX files; the bytes stay in the database until downloaded."""
    files = {}
    for report in Report.objects.filter(close=close).defer("content"):
        files.setdefault(report.kind, {})[report.file_format] = report
    rows = []
    for kind, label in Report.Kind.choices:
        if kind in files:
            kept = files[kind]
            first = next(iter(kept.values()))
            rows.append({"label": label, "rows": first.rows, "created_at": first.created_at,
                         "files": [kept[f] for f in ("csv", "xlsx") if f in kept]})
    return rows


def report_files(close: MonthClose) -> list[Report]:
    """The close's kept reports without their bytes, in the kinds' order."""
    order = [kind for kind, _ in Report.Kind.choices]
    kept = Report.objects.filter(close=close).defer("content")
    return sorted(kept, key=lambda report: (order.index(report.kind), report.file_format))


def page_context(close: MonthClose) -> dict:
    return {
        "reports": report_rows(close), "figures": figures(close), "branches": branch_rows(close),
        "problems": problem_lines(close),
        **triangle_context(close_triangles(close)),
    }
