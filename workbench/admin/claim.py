"""The claim list and the claim page of the analysts, with one button per allowed
action. Nothing here edits a claim: every change is a service call."""


from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from api_common.problem_types import ProblemError
from claims import errors, selectors, services
from workbench.selectors import claim_for_analyst
from claims.signals import ReadKind, data_read
from workbench.admin import panels
from claims.permissions import Permission
from claims.serializers.common import unrequested_title
from workbench.admin.actions import ACTIONS
from workbench.admin.actions.base import pending_proposal
from workbench.admin.actions.payments import proposal_facts
from workbench.admin.export import ExportView
from workbench.admin.filters import (
    AlertsFilter,
    ChannelFilter,
    CoverageFilter,
    DeadlineFilter,
    DecisionFilter,
    OpenFilter,
    OwnerFilter,
    QueueFilter,
    RequirementsFilter,
    queue_shown,
)
from workbench.admin.pagination import LongListAdmin
from workbench.admin.search import claim_search
from workbench.admin.workbench import WorkbenchViews
from workbench.admin.workbench_forms import NoteForm, ProposalDecisionForm, ToDoForm
from claims.coverages import coverage_label
from claims.denials import lateness_words
from claims.documents import storage
from claims.documents.readings import display as readings_display
from claims.formatting import brl, person
from claims.models import Claim, DocumentFile, DocumentReading
from workbench.queues import MINE, QUEUE_LABELS, QUEUE_ORDER, team_ids
from claims.regulatory_clock import ClockKind
from claims.shares import total_share
from claims.workflow import CLOSED_STATUSES, ClaimStatus
from workbench import services as workbench_services

# Refusals that mean "look again": the claim moved on while the analyst decided. Every
# other refusal (limits, authority, missing reason) is shown on the form, in Portuguese.
STALE = (errors.ClaimChangedConcurrently, errors.TransitionNotAllowed)


@admin.register(Claim)
class ClaimAdmin(ExportView, WorkbenchViews, LongListAdmin, admin.ModelAdmin):
    # The deadline right after the number: the queues are ordered by it. The status rides
    # under the number (as channel and coverage under the insured person), so the columns
    # and a supervisor's checkboxes fit 1280 px beside the filters.
    list_display = ["number_and_status", "deadline", "insured", "awaiting_label", "owner_name",
                    "amount_brl", "days_open"]
    list_display_links = ["number_and_status"]
    list_filter = [QueueFilter, OwnerFilter, "awaiting", DeadlineFilter, AlertsFilter,
                   RequirementsFilter, OpenFilter, "status", DecisionFilter,
                   ("channel", ChannelFilter), CoverageFilter, "nature", "notified_at"]
    actions = ["reassign_selected"]
    # Searched by workbench.admin.search.claim_search (every word in the folded search text);
    # listed only so the admin shows the search box.
    search_fields = ["search_text"]
    search_help_text = ("Nome do segurado, do solicitante ou do contato (qualquer palavra, "
                        "com ou sem acento), número do sinistro (inteiro ou parte, com ou "
                        "sem SIN-), CPF (com ou sem pontuação) ou id da venda.")
    list_select_related = ["sale", "channel", "coverage", "owner"]
    # The queues' order (workbench.queues): the deadline, overdue first, then age.
    ordering = QUEUE_ORDER
    list_per_page = 50

    class Media:
        css = {"all": ["claims/admin.css"]}

    # --- the list -------------------------------------------------------------------

    def get_list_display(self, request):
        # In "Meus sinistros" every owner is the reader: the column would repeat their name.
        if queue_shown(request) == MINE:
            return [name for name in self.list_display if name != "owner_name"]
        return self.list_display

    def changelist_view(self, request, extra_context=None):
        response = super().changelist_view(request, extra_context)
        changelist = getattr(response, "context_data", {}).get("cl")
        if changelist is not None:
            if changelist.query.strip():  # a search shows people's data: the page's claims
                data_read([claim.pk for claim in changelist.result_list],
                          kind=ReadKind.SEARCH, user=request.user)
            # Headed by the queue shown ("Meus sinistros"), not "Selecione sinistro...".
            queue = next((f for f in changelist.filter_specs if isinstance(f, QueueFilter)), None)
            if queue is not None:
                response.context_data["list_title"] = QUEUE_LABELS[queue.value()]
        return response

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        return queryset.filter(claim_search(search_term)), False

    @admin.display(description="segurado, cobertura e canal", ordering="sale__insured_name")
    def insured(self, claim):
        # One cell, so the list fits 1280 px with the queue's columns.
        return format_html('{}<br><small class="quiet">{} · {}</small>', claim.sale.insured_name,
                           coverage_label(claim.coverage.name), claim.channel.name)

    @admin.display(description="número e status", ordering="number")
    def number_and_status(self, claim):
        return format_html('<span class="claim-number">{}</span><br>'
                           '<small class="quiet">{}</small>', claim.number,
                           claim.get_status_display())

    @admin.display(description="aguardando", ordering="awaiting")
    def awaiting_label(self, claim):
        return claim.get_awaiting_display()

    @admin.display(description="responsável", ordering="owner__first_name")
    def owner_name(self, claim):
        return person(claim.owner) if claim.owner_id else "Sem responsável"

    @admin.display(description="valor", ordering="amount")
    def amount_brl(self, claim):
        return format_html('<span class="money">{}</span>', brl(claim.amount))

    @admin.display(description="dias em aberto", ordering="notified_at")
    def days_open(self, claim):
        if claim.status in CLOSED_STATUSES:
            return "encerrado"
        return (timezone.localdate() - timezone.localdate(claim.notified_at)).days

    @admin.display(description="prazo regulatório", ordering="clock_deadline")
    def deadline(self, claim):
        # Which clock, always; the days as the claim page counts them. A paused clock's
        # frozen days come from the history, which the list does not read.
        kind = "decisão" if claim.clock_kind == ClockKind.DECISION else "pagamento"
        if claim.clock_paused:
            return f"suspenso ({kind})"
        if claim.clock_deadline is None:
            # A closed claim: how its first decision went (art. 86).
            if claim.status not in CLOSED_STATUSES or claim.decided_late_days is None:
                return "—"
            if claim.decided_late_days:
                return format_html('<strong class="prazo-vencido">decidido com {} d<br>'
                                   '<small>de atraso</small></strong>', claim.decided_late_days)
            return "decidido no prazo"
        days = (timezone.localdate(claim.clock_deadline) - timezone.localdate()).days
        label = f"{timezone.localtime(claim.clock_deadline):%d/%m/%Y}"
        # The date, then which clock and how far on a second line: a narrow column.
        if days < 0:
            return format_html('<strong class="prazo-vencido">{}<br><small>{}, vencido</small>'
                               '</strong>', label, kind)
        return format_html('{}<br><small class="quiet">{}, {}</small>', label, kind,
                           "vence hoje" if days == 0 else f"{days} d")

    # --- no edits by hand ------------------------------------------------------------

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # --- the claim page and its actions ----------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<path:object_id>/acoes/<slug:action>/", wrap(self.action_view),
                 name="claims_claim_action"),
            *self.workbench_urls(),
            *self.export_urls(),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method != "GET":
            raise PermissionDenied
        claim = self._claim_or_404(request, object_id)
        data_read([claim.pk], kind=ReadKind.CLAIM_PAGE, user=request.user)
        return TemplateResponse(request, "admin/claims/claim/detail.html",
                                self._page_context(request, claim))

    def history_view(self, request, object_id, extra_context=None):
        """The claim's own timeline is its history (Django's log is never written)."""
        return HttpResponseRedirect(self._claim_url(object_id) + "#linha-do-tempo")

    def action_view(self, request, object_id, action):
        claim = self._claim_or_404(request, object_id)
        claim_action = ACTIONS.get(action)
        if claim_action is None:
            raise Http404
        if not request.user.has_perm(claim_action.permission.perm):
            raise PermissionDenied
        why_not = claim_action.why_not(claim, request.user)
        if why_not is not None:
            messages.warning(request, f"{claim_action.label}: "
                                      f"{why_not or 'não disponível agora'}.")
            return HttpResponseRedirect(self._claim_url(claim.pk))
        form_class, kwargs = claim_action.form_class, claim_action.form_kwargs(claim)
        chosen = request.GET.get("para", "")
        if request.method == "POST":
            form = form_class(request.POST, **kwargs)
            if form.is_valid():
                try:
                    done = claim_action.run(claim, request.user, form.cleaned_data)
                except STALE as refusal:
                    messages.error(request, refusal.detail)
                    return HttpResponseRedirect(self._claim_url(claim.pk))
                except ProblemError as refusal:
                    form.add_error(None, refusal.detail)
                else:
                    messages.success(request, done)
                    return HttpResponseRedirect(self._claim_url(claim.pk))
        else:
            form = form_class(initial={"version": claim.version,
                                       **claim_action.initial(claim, chosen=chosen)}, **kwargs)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts, "claim": claim, "action": claim_action, "form": form,
            "help_lines": claim_action.help(claim, chosen=chosen),
            "attachments": _with_download_links(claim_action.attachments(claim)),
            "action_label": claim_action.label_for(request.user, claim),
            "title": f"{claim_action.label_for(request.user, claim)}: {claim.number}",
        }
        return TemplateResponse(request, "admin/claims/claim/action.html", context)

    def _claim_or_404(self, request, object_id) -> Claim:
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            claim = claim_for_analyst(claim_id=object_id)
        except ValidationError:  # not a UUID
            claim = None
        if claim is None:
            raise Http404("Sinistro não encontrado.")
        return claim

    def _claim_url(self, claim_id) -> str:
        return reverse("admin:claims_claim_change", args=[claim_id])

    def _page_context(self, request, claim: Claim) -> dict:
        history = list(claim.history.all())
        files = claim.page_rows.shown_files
        payments = list(claim.payments.all())
        shares = services.entitlements_of(claim)
        requests = list(claim.document_requests.all())
        clock, now = services.regulatory_clock(claim, history), timezone.now()
        received = [f for f in files if f.status == DocumentFile.Status.RECEIVED]
        titles = {r.doc_type: r.title for r in requests}
        pending = [r for r in requests if r.approved_at is None]
        # The pending item a received file answered (as the service that completes the
        # documentation counts it): an older file of the same type does not answer it.
        answered = {f.request_id for f in received}
        for item in pending:
            item.situation = _pending_situation(claim, answered=item.pk in answered)
        for document in files:
            document.type_title = titles.get(document.doc_type) or unrequested_title(
                document.doc_type)
        _with_download_links(received)
        _with_readings(received, claim)
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Sinistro {claim.number}",
            "claim": claim,
            "limits": selectors.limits_of(claim),
            "clock": clock,
            "clock_text": clock.describe(now),
            "clock_overdue": bool(clock.kind) and clock.is_overdue(now),
            "days_open": self.days_open(claim),
            "lateness": lateness_words(claim.decided_late_days),
            **self._workbench_context(request, claim),
            "pending": pending,
            "closed": claim.status in CLOSED_STATUSES,
            "approved": _approved_once_per_type(requests),
            "received": received,
            "rejected": [f for f in files if f.status == DocumentFile.Status.REJECTED],
            "payments": payments,
            "expenses": list(claim.expenses.select_related("registered_by", "proposed_by")),
            "people": [(share, [_document_state(item, answered) for item in requests
                                if item.beneficiary_id == share.beneficiary.pk])
                       for share in shares],
            "shares_total": total_share(b.beneficiary for b in shares),
            "missing_payment_data": services.missing_payment_data(
                claim, [e.beneficiary for e in shares]) if claim.status not in CLOSED_STATUSES else [],
            "history": sorted([*history, *panels.timeline_rows(claim)],
                              key=lambda row: row.created_at, reverse=True),
            "panels": panels.rendered(request, claim),
            "top_panels": panels.rendered(request, claim, top=True),
        }

    def _workbench_context(self, request, claim: Claim) -> dict:
        user = request.user
        offered, unavailable = [], []
        for action in ACTIONS.values():
            why_not = action.why_not(claim, user)
            if why_not is None:
                offered.append((action, action.label_for(user, claim)))
            elif why_not:
                unavailable.append(f"{action.label_for(user, claim)}: {why_not}")
        proposal = pending_proposal(claim)
        is_open = claim.status not in CLOSED_STATUSES
        return {
            "actions": offered,
            "action_slugs": {action.slug for action, _ in offered},
            "unavailable": unavailable,
            "can_take": is_open and claim.owner_id is None
                        and user.has_perm(Permission.WORK_CLAIM.perm)
                        and workbench_services.team_lets_take(claim, user, team_ids(user)),
            "can_reassign": is_open and user.has_perm(Permission.ASSIGN_CLAIM.perm)
                            and workbench_services.may_reassign(user, claim,
                                                      workbench_services.reassignment_scope(user)),
            "proposal": proposal,
            "proposal_facts": proposal_facts(claim, proposal) if proposal else [],
            "proposal_stale": proposal is not None and proposal.claim_version != claim.version,
            "can_decide_proposal": proposal is not None
                                   and user.has_perm(Permission.APPROVE_PROPOSAL.perm)
                                   and proposal.proposed_by_id != user.pk
                                   and workbench_services.may_decide(user, claim),
            "proposal_form": ProposalDecisionForm(),
            "todos": [_with_links(todo) for todo in claim.todos.all()],
            "today": timezone.localdate(),
            "note_form": NoteForm(),
            "todo_form": ToDoForm(user=user),
        }

def _with_download_links(files: list) -> list:
    """Each received file with a short-lived link to open it, made when the page is
    shown; never a public URL."""
    for document in files:
        document.download_url = storage.current().download_url(
            document.storage_key, file_name=document.file_name,
            content_type=document.content_type)
    return files


def _with_readings(files: list, claim: Claim) -> None:
    """What was read in each received file (claims.documents.readings), beside it."""
    for document in files:
        try:
            reading = document.reading  # loaded with the files (claim_for_analyst)
        except DocumentReading.DoesNotExist:  # received before files were read
            reading = None
        document.shown_reading = readings_display.for_page(reading, claim)


def _with_links(todo):
    todo.links = panels.todo_links(todo) if todo.status == todo.Status.OPEN else []
    return todo


# On a closed claim nothing is awaited any more: a pending item says what became of it.
_CLOSED_WORDS = {
    ClaimStatus.DENIED: "sinistro recusado",
    ClaimStatus.FINALIZED: "sinistro finalizado",
    ClaimStatus.OPENING_REJECTED: "abertura rejeitada",
}


# One person's documents, named short in the "Quem recebe" table (the line says whose).
PERSON_DOCUMENT_WORDS = {"identidade": "identidade", "parentesco": "parentesco",
                         "representante": "representante legal"}


def _document_state(item, answered: set) -> str:
    """One person's requested document and where it stands, in a few words."""
    what = PERSON_DOCUMENT_WORDS.get(item.doc_type.split("-")[0], item.title)
    if item.approved_at is not None:
        return f"{what}: aprovado"
    return f"{what}: {'recebido, em análise' if item.pk in answered else 'pendente'}"


def _pending_situation(claim: Claim, *, answered: bool) -> str:
    if claim.status in CLOSED_STATUSES:
        closed = _CLOSED_WORDS[ClaimStatus(claim.status)]
        return f"Não analisado: {closed}" if answered else f"Não enviado: {closed}"
    return "Arquivo recebido, aguardando análise" if answered else "Aguardando envio"


def _approved_once_per_type(requests: list) -> list:
    """Each document type once, as last approved. A type asked for again (its file
    rejected for replacement) is approved again or is pending: its earlier approval is
    history, not a second approved document."""
    latest = {}
    for item in requests:  # oldest first (the model's ordering)
        latest[item.doc_type] = item
    return [item for item in latest.values() if item.approved_at is not None]
