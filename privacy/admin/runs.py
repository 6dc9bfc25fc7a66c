"""Privacy admin: the retention runs and their evidence (docs/privacy-forgetting.md), read
only, for the privacy role (privacy.roles): what each run anonymised, when and under which
rule; what each claim or sale lost, in words and counts. No personal data here."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from claims.formatting import local_moment
from privacy.admin.common import PrivacyReads
from privacy.models import Anonymisation, RetentionRun

# The categories of Anonymisation.removed, as a person reads them.
REMOVED_WORDS = {
    "arquivos": "Arquivos apagados do armazenamento (documentos e PDFs de cartas)",
    "arquivos_cnab_linhas": "Linhas mascaradas em arquivos do banco (CNAB 240)",
    "avaliacoes": "Avaliações de regras automáticas",
    "beneficiarios": "Beneficiários",
    "cartas": "Cartas e e-mails",
    "decisao_automatica": "Decisão automática",
    "despesas": "Despesas",
    "downloads_pagina": "Downloads pela página do segurado",
    "eventos": "Eventos do canal",
    "historico": "Notas do histórico",
    "lancamentos_contabeis": "Notas de lançamentos contábeis",
    "leituras": "Leituras de documentos",
    "links_de_acesso": "Links de acesso à página do segurado",
    "ordens_de_pagamento": "Ordens de pagamento",
    "pagamentos": "Pagamentos",
    "pedidos_de_documento": "Pedidos de documento",
    "propostas": "Propostas de decisão",
    "reconsideracoes": "Pedidos de reconsideração",
    "registros_de_acesso": "Registros de quem acessou (apagados)",
    "respostas_idempotentes": "Respostas guardadas da API (apagadas)",
    "retencoes_liberadas": "CPFs de retenções legais já liberadas",
    "retorno_linhas": "Linhas de retorno do banco",
    "revisoes_amostrais": "Revisões amostrais",
    "sinistro": "Dados do sinistro (solicitante, contato, relato, busca)",
    "sro_envios": "Envios ao SRO",
    "sro_lotes": "Lotes do SRO",
    "tarefas": "Tarefas",
    "venda": "Dados do segurado na venda",
    "webhooks": "Entregas de webhooks",
    "webhooks_respostas": "Respostas às entregas de webhooks",
}

STARTED_BY_WORDS = {"beat": "Agendamento diário",
                    "operacao:retention_run": "Comando retention_run"}


def removed_words(removed: dict) -> list[tuple[str, int]]:
    return [(REMOVED_WORDS.get(key, key.replace("_", " ").capitalize()), count)
            for key, count in sorted(removed.items()) if count]


@admin.register(RetentionRun)
class RetentionRunAdmin(PrivacyReads, admin.ModelAdmin):
    list_display = ["started_words", "today_words", "kind_words", "status_words",
                    "claims_anonymised", "sales_anonymised", "files_deleted", "held",
                    "started_by_words"]
    list_filter = ["status", "dry_run"]
    ordering = ["-started_at", "-id"]
    empty_value_display = "—"
    fields = ["started_words", "finished_words", "today_words", "kind_words", "status_words",
              "started_by_words", "retention_years", "rule", "claims_anonymised",
              "sales_anonymised", "files_deleted", "held", "error", "evidence"]
    readonly_fields = fields

    @admin.display(description="iniciada em", ordering="started_at")
    def started_words(self, run):
        return local_moment(run.started_at)

    @admin.display(description="concluída em")
    def finished_words(self, run):
        return local_moment(run.finished_at) if run.finished_at else "—"

    @admin.display(description="situação", ordering="status")
    def status_words(self, run):
        return run.get_status_display()

    @admin.display(description="data de referência", ordering="today")
    def today_words(self, run):
        return f"{run.today:%d/%m/%Y}"

    @admin.display(description="tipo")
    def kind_words(self, run):
        return "Simulação (nada alterado)" if run.dry_run else "Anonimização"

    @admin.display(description="iniciada por")
    def started_by_words(self, run):
        by = run.started_by
        if by.startswith("usuario:"):
            return f"Usuário {by.split(':', 1)[1]}"
        return STARTED_BY_WORDS.get(by, by)

    @admin.display(description="anonimizações desta execução")
    def evidence(self, run):
        url = reverse("admin:privacy_anonymisation_changelist") + f"?run__id__exact={run.pk}"
        count = run.anonymisations.count()
        return format_html('<a href="{}">{} registro(s) de anonimização</a>', url, count)


@admin.register(Anonymisation)
class AnonymisationAdmin(PrivacyReads, admin.ModelAdmin):
    list_display = ["anonymised_words", "record_words", "clock_words", "origin_words",
                    "removed_total"]
    list_filter = ["run"]
    list_select_related = ["claim", "run", "data_request"]
    search_fields = ["claim__number"]
    search_help_text = "Número do sinistro."
    ordering = ["-anonymised_at", "-id"]
    empty_value_display = "—"
    fields = ["anonymised_words", "record_words", "clock_words", "origin_words", "rule",
              "removed_list"]
    readonly_fields = fields

    @admin.display(description="anonimizado em", ordering="anonymised_at")
    def anonymised_words(self, evidence):
        return local_moment(evidence.anonymised_at)

    @admin.display(description="registro")
    def record_words(self, evidence):
        if evidence.claim_id:
            return f"Sinistro {evidence.claim.number}"
        return f"Venda {evidence.sale_id}"

    @admin.display(description="prazo de guarda terminou em")
    def clock_words(self, evidence):
        return f"{evidence.clock_ended_on:%d/%m/%Y}" if evidence.clock_ended_on else "—"

    @admin.display(description="origem")
    def origin_words(self, evidence):
        if evidence.data_request_id:
            return f"Requisição do titular {evidence.data_request_id}"
        if evidence.run_id:
            return f"Execução de retenção {evidence.run_id} ({evidence.run.today:%d/%m/%Y})"
        return "—"

    @admin.display(description="itens tratados")
    def removed_total(self, evidence):
        return sum(evidence.removed.values())

    @admin.display(description="o que foi removido")
    def removed_list(self, evidence):
        rows = removed_words(evidence.removed)
        if not rows:
            return "—"
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{}: {}</li>", rows))
