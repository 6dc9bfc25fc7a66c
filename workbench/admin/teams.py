"""Teams, their assignment rules, tasks ("Minhas tarefas") and proposals in the admin.

Supervisors configure teams and rules here. Tasks and proposals are read here and
acted on from the claim page (each change is a service call that writes the timeline)."""

from django.contrib import admin
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from workbench.admin.base import ReadOnlyMixin
from claims.coverages import coverage_label
from claims.formatting import person
from workbench.models import AssignmentRule, Proposal, Team, TeamMember, ToDo
from workbench.services.todos import escalated_todos_for


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    extra = 1
    fields = ["user", "role", "receives_claims", "last_assigned_at"]
    readonly_fields = ["last_assigned_at"]
    autocomplete_fields = []


class AssignmentRuleInline(admin.TabularInline):
    model = AssignmentRule
    extra = 1
    fields = ["channel", "coverage_name"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "analysts", "supervisors", "rules_text"]
    inlines = [TeamMemberInline, AssignmentRuleInline]
    search_fields = ["name"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(
            "memberships__user", "rules__channel")

    @admin.display(description="analistas")
    def analysts(self, team):
        return ", ".join(person(m.user) for m in team.memberships.all()
                         if m.role == TeamMember.Role.ANALYST) or "—"

    @admin.display(description="supervisores")
    def supervisors(self, team):
        return ", ".join(person(m.user) for m in team.memberships.all()
                         if m.role == TeamMember.Role.SUPERVISOR) or "—"

    @admin.display(description="recebe")
    def rules_text(self, team):
        return "; ".join(
            f"{r.channel.name if r.channel_id else 'qualquer canal'}, "
            f"{coverage_label(r.coverage_name) if r.coverage_name else 'qualquer cobertura'}"
            for r in team.rules.all()) or "nenhuma regra: não recebe sinistros novos"


@admin.register(AssignmentRule)
class AssignmentRuleAdmin(admin.ModelAdmin):
    list_display = ["channel_text", "coverage_text", "team"]
    list_select_related = ["channel", "team"]
    list_filter = ["team"]

    @admin.display(description="canal", ordering="channel__name")
    def channel_text(self, rule):
        return rule.channel.name if rule.channel_id else "Qualquer canal"

    @admin.display(description="cobertura", ordering="coverage_name")
    def coverage_text(self, rule):
        return coverage_label(rule.coverage_name) if rule.coverage_name else "Qualquer cobertura"


class ToDoScopeFilter(admin.SimpleListFilter):
    """"Minhas tarefas" (open, mine) by default; the escalated ones a supervisor answers
    for (as the dashboard counts them); everyone's open or closed."""

    title = "tarefas"
    parameter_name = "de"

    def lookups(self, request, model_admin):
        return [("minhas", "Minhas tarefas abertas"), ("escaladas", "Escaladas (vencidas)"),
                ("abertas", "Todas as abertas"), ("todas", "Todas")]

    def value(self):
        return super().value() or "minhas"

    def choices(self, changelist):
        for value, label in self.lookup_choices:
            yield {"selected": self.value() == value, "display": label,
                   "query_string": changelist.get_query_string({self.parameter_name: value})}

    def queryset(self, request, queryset):
        if self.value() == "minhas":
            return queryset.filter(owner=request.user, status=ToDo.Status.OPEN)
        if self.value() == "escaladas":
            return queryset.filter(pk__in=escalated_todos_for(request.user).values("pk"))
        if self.value() == "abertas":
            return queryset.filter(status=ToDo.Status.OPEN)
        return queryset


@admin.register(ToDo)
class ToDoAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["due", "subject", "claim_link", "owner_name", "status", "kind", "escalated"]
    list_filter = [ToDoScopeFilter, "kind", "status"]
    list_select_related = ["claim", "owner"]
    ordering = ["due_on", "id"]
    list_display_links = None
    show_full_result_count = False

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "list_title": "Minhas tarefas"
                         if request.GET.get("de", "minhas") == "minhas" else "Tarefas"}
        return super().changelist_view(request, extra_context)

    @admin.display(description="vence em", ordering="due_on")
    def due(self, task):
        text = f"{task.due_on:%d/%m/%Y}"
        if task.status == ToDo.Status.OPEN and task.due_on < timezone.localdate():
            return format_html('<strong class="overdue">{} (vencida)</strong>', text)
        return text

    @admin.display(description="sinistro", ordering="claim__number")
    def claim_link(self, task):
        return format_html('<a href="{}#tarefas">{}</a>',
                           reverse("admin:claims_claim_change", args=[task.claim_id]),
                           task.claim.number)

    @admin.display(description="responsável")
    def owner_name(self, task):
        return person(task.owner) if task.owner_id else "Sem responsável"

    @admin.display(description="escalada")
    def escalated(self, task):
        # Words, not Django's boolean icon (whose alt text reads "True").
        if task.escalated_at is None:
            return "—"
        return f"em {timezone.localtime(task.escalated_at):%d/%m/%Y}"


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["proposed_at", "claim_link", "kind", "summary", "proposer", "status"]
    list_filter = ["status", "kind"]
    list_select_related = ["claim", "proposed_by"]
    ordering = ["-proposed_at"]
    list_display_links = None

    def get_ordering(self, request):
        # Waiting proposals are answered in turn: the oldest first, as on the dashboard.
        if request.GET.get("status__exact") == "pendente":
            return ["proposed_at", "id"]
        return super().get_ordering(request)

    @admin.display(description="sinistro", ordering="claim__number")
    def claim_link(self, proposal):
        return format_html('<a href="{}#proposta">{}</a>',
                           reverse("admin:claims_claim_change", args=[proposal.claim_id]),
                           proposal.claim.number)

    @admin.display(description="proposta por")
    def proposer(self, proposal):
        return person(proposal.proposed_by)
