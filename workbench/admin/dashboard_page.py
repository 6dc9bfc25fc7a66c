"""The admin home page of claims roles (see workbench.admin_site): figures from
workbench.dashboard, and its two pictures drawn on the server (workbench.charts)."""

from django.conf import settings
from django.utils import timezone

from workbench import dashboard
from workbench.admin import panels
from workbench.charts import bar_chart


def dashboard_context(request) -> dict:
    board = dashboard.build(request.user)
    weekly_total = sum(n for _, n in board.weekly)
    decided_total = sum(n for _, n in board.decision_days)
    return {
        "board": board,
        # Other apps' cards (the SRO's registrations), for supervisors only.
        "cards": panels.rendered_cards(request) if board.supervisor else [],
        "today": timezone.localdate(),
        # How often the shared figures are computed (workbench.dashboard_figures), in words.
        "figures_every": _interval(settings.DASHBOARD_FIGURES_SECONDS),
        "weekly_chart": bar_chart(
            board.weekly, title="Sinistros abertos por semana (últimas 12 semanas)",
            description=f"{weekly_total} sinistros avisados nas últimas 12 semanas, por semana "
                        "(segunda-feira de início)."),
        "decision_chart": bar_chart(
            board.decision_days, title="Dias do aviso até a decisão (últimos 90 dias)",
            description=f"{decided_total} decisões nos últimos 90 dias, por faixa de dias."),
    }



def _interval(seconds: int) -> str:
    """"minuto", "5 minutos", "90 segundos": after "a cada"."""
    if not seconds:
        return ""
    if seconds % 60:
        return f"{seconds} segundos"
    return "minuto" if seconds == 60 else f"{seconds // 60} minutos"
