"""What claim moves left for after their commit (claims.services.consequences): the
operators' list of the consequences not done, with "tentar novamente", and the claim
page's alert when one of its consequences failed."""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from claims import consequences as registry
from claims.models import MoveConsequence
from claims.services import consequences
from workbench.admin import panels
from workbench.admin.base import ReadOnlyMixin


class UnfinishedFilter(admin.SimpleListFilter):
    """By default the list shows what needs an operator: what is not done."""

    title = "situação"
    parameter_name = "situacao"

    def lookups(self, request, model_admin):
        return [("", "Não feitas (falhas e pendentes)"),
                *MoveConsequence.Status.choices, ("todas", "Todas")]

    def choices(self, changelist):
        for value, label in self.lookup_choices:
            yield {"selected": (self.value() or "") == value, "display": label,
                   "query_string": changelist.get_query_string(
                       {self.parameter_name: value} if value else {},
                       [] if value else [self.parameter_name])}

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset.exclude(status=MoveConsequence.Status.DONE)
        if value == "todas":
            return queryset
        return queryset.filter(status=value)


@admin.register(MoveConsequence)
class MoveConsequenceAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "claim_link", "move", "consumer_label", "status",
                    "attempts", "last_error_short", "next_try_at"]
    list_filter = [UnfinishedFilter, "consumer"]
    search_fields = ["claim__number"]
    search_help_text = "Número do sinistro."
    list_select_related = ["claim", "entry"]
    ordering = ["-created_at", "-id"]
    actions = ["try_again"]
    fields = ["claim_link", "move", "consumer_label", "status", "attempts", "last_error",
              "next_try_at", "created_at", "done_at", "facts"]

    def get_queryset(self, request):
        # A partner's sandbox claims are none of the insurer's people's (docs/sandbox.md).
        return super().get_queryset(request).exclude(claim__is_sandbox=True)

    def has_change_permission(self, request, obj=None):
        # No form: the only change is the action, for who may change these rows.
        return obj is None and request.user.has_perm("claims.change_moveconsequence")

    @admin.action(description="Tentar novamente", permissions=["change"])
    def try_again(self, request, queryset):
        count = consequences.try_again(list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{count} consequência(s) de volta à fila.",
                          messages.SUCCESS if count else messages.WARNING)

    @admin.display(description="sinistro", ordering="claim__number")
    def claim_link(self, row):
        return format_html('<a href="{}">{}</a>',
                           reverse("admin:claims_claim_change", args=[row.claim_id]),
                           row.claim.number)

    @admin.display(description="movimentação")
    def move(self, row):
        return f"{row.entry.get_action_display()} em {row.entry.created_at:%d/%m/%Y %H:%M}"

    @admin.display(description="consequência", ordering="consumer")
    def consumer_label(self, row):
        return registry.label_of(row.consumer)

    @admin.display(description="último erro")
    def last_error_short(self, row):
        return row.last_error[:120]


def claim_context(request, claim) -> dict:
    failed = list(MoveConsequence.objects.select_related("entry").filter(
        claim=claim, status=MoveConsequence.Status.FAILED).order_by("entry_id", "id"))
    for row in failed:
        row.label = registry.label_of(row.consumer)
    return {"claim": claim, "failed": failed,
            "can_retry": request.user.has_perm("claims.change_moveconsequence"),
            "list_url": reverse("admin:claims_moveconsequence_changelist")}


# At the top: a letter that was not written, a registration not built, is news for
# whoever acts on the claim next.
panels.register(panels.Panel(template="admin/claims/moveconsequence/claim_alert.html",
                             context=claim_context, top=True))
