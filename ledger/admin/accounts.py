"""The chart of accounts and the mapping of movements to it ("Contas contábeis",
"Regras de contabilização"): finance keeps them (docs/ledger-entries.md says where the
shipped codes come from). Accounts are never deleted: rules and exported entries name
them."""

from django.contrib import admin

from ledger.admin.common import branch_words, is_finance
from ledger.models import Account, AccountRule


class FinanceEdits:
    """Finance (and superusers) read and edit; the group's permissions say which of
    add, change and delete (ledger.roles)."""

    def has_module_permission(self, request):
        return is_finance(request.user)

    def has_view_permission(self, request, obj=None):
        return is_finance(request.user)

    def has_add_permission(self, request):
        return is_finance(request.user) and super().has_add_permission(request)

    def has_change_permission(self, request, obj=None):
        return is_finance(request.user) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return is_finance(request.user) and super().has_delete_permission(request, obj)


@admin.register(Account)
class AccountAdmin(FinanceEdits, admin.ModelAdmin):
    list_display = ["code", "name"]
    search_fields = ["code", "name"]
    search_help_text = "Código ou parte do nome da conta."

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AccountRule)
class AccountRuleAdmin(FinanceEdits, admin.ModelAdmin):
    list_display = ["kind", "component", "figure", "branch", "debit", "credit", "history"]
    list_filter = ["kind", "component", "figure"]
    list_select_related = ["debit", "credit"]
    autocomplete_fields = ["debit", "credit"]
    fields = ["kind", "component", "figure", "group_branch", "debit", "credit", "history"]

    def get_form(self, request, obj=None, **kwargs):
        kwargs["help_texts"] = {
            "group_branch": "Quatro dígitos (p. ex. 0977). Em branco: todo ramo sem regra "
                            "própria.",
            "figure": "Qual valor do movimento esta regra contabiliza.",
            "debit": "Débito de um valor positivo; um valor negativo troca débito e crédito.",
        }
        return super().get_form(request, obj, **kwargs)

    @admin.display(description="ramo", ordering="group_branch")
    def branch(self, obj):
        return branch_words(obj.group_branch) if obj.group_branch else "Qualquer ramo"
