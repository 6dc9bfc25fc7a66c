""""Desligamentos": the kill switch. Adding one is ``switches.switch_off`` (the rules
stop acting at once for a coverage, a channel, or both; they go on recording, as in
shadow); "Religar" is ``switches.lift``. Lifted switches stay listed, after the active."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse

from api_common.problem_types import ProblemError
from claims.coverages import CATALOGUE, coverage_label
from decisions.admin.common import SWITCH, run, when
from decisions.models import KillSwitch, RuleSet
from decisions.services import switches


def coverage_choices():
    names = {*CATALOGUE, *RuleSet.objects.values_list("coverage_name", flat=True)}
    return [("", "Todas as coberturas"),
            *sorted(((name, coverage_label(name)) for name in names), key=lambda c: c[1])]


class SwitchForm(forms.ModelForm):
    coverage_name = forms.ChoiceField(label="Cobertura", required=False, choices=coverage_choices)

    class Meta:
        model = KillSwitch
        fields = ["coverage_name", "channel", "reason"]


@admin.register(KillSwitch)
class KillSwitchAdmin(admin.ModelAdmin):
    list_display = ["situation", "coverage_words", "channel_words", "reason", "switched_off",
                    "lifted"]
    list_select_related = ["channel", "created_by", "lifted_by"]
    form = SwitchForm
    change_form_template = "admin/decisions/killswitch/change_form.html"
    actions = ["lift_selected"]

    def has_module_permission(self, request):
        return request.user.has_perm("decisions.view_killswitch")

    def has_add_permission(self, request):
        return request.user.has_perm(SWITCH)

    def has_change_permission(self, request, obj=None):
        return False  # a switch is lifted, never edited: its record stays

    def has_delete_permission(self, request, obj=None):
        return False

    def has_lift_permission(self, request):
        return request.user.has_perm(SWITCH)

    def get_ordering(self, request):
        # The active ones first, newest first in each group.
        return [F("lifted_at").asc(nulls_first=True), "-created_at"]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Desligamentos das regras",
                                                 **(extra_context or {})})

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["coverage_words", "channel_words", "reason", "switched_off", "lifted"]

    def get_fields(self, request, obj=None):
        return self.get_readonly_fields(request, obj) or ["coverage_name", "channel", "reason"]

    @admin.display(description="situação")
    def situation(self, obj):
        return "Ativo: regras desligadas" if obj.lifted_at is None else "Religado"

    @admin.display(description="cobertura", ordering="coverage_name")
    def coverage_words(self, obj):
        return coverage_label(obj.coverage_name) if obj.coverage_name else "Todas as coberturas"

    @admin.display(description="canal", ordering="channel__name")
    def channel_words(self, obj):
        return obj.channel.name if obj.channel_id else "Todos os canais"

    @admin.display(description="desligado em / por", ordering="created_at")
    def switched_off(self, obj):
        who = obj.created_by.get_full_name() or obj.created_by.username
        return f"{when(obj.created_at)} · {who}"

    @admin.display(description="religado em / por", ordering="lifted_at")
    def lifted(self, obj):
        if obj.lifted_at is None:
            return "—"
        return f"{when(obj.lifted_at)} · {obj.lifted_by.get_full_name() or obj.lifted_by.username}"

    def save_model(self, request, obj, form, change):
        """Through the service: who and when are its to record."""
        try:
            made = switches.switch_off(user=request.user, reason=form.cleaned_data["reason"],
                                       coverage_name=form.cleaned_data["coverage_name"] or "",
                                       channel=form.cleaned_data["channel"])
        except ProblemError as refusal:
            messages.error(request, refusal.detail)
            return
        obj.pk, obj.created_at, obj.created_by = made.pk, made.created_at, made.created_by

    def save_related(self, request, form, formsets, change):
        pass  # no relations of its own

    def log_addition(self, request, obj, message):
        pass  # the switch itself is the record

    def response_add(self, request, obj, post_url_continue=None):
        if obj.pk is None:
            return HttpResponseRedirect(reverse("admin:decisions_killswitch_add"))
        messages.success(request, f"Regras desligadas: {obj}. Religue quando o motivo passar.")
        return HttpResponseRedirect(reverse("admin:decisions_killswitch_changelist"))

    @admin.action(description="Religar as regras dos desligamentos selecionados",
                  permissions=["lift"])
    def lift_selected(self, request, queryset):
        lifted = 0
        for switch in queryset.filter(lifted_at__isnull=True):
            try:
                switches.lift(switch_id=switch.pk, user=request.user)
            except ProblemError as refusal:
                messages.error(request, refusal.detail)
                return
            lifted += 1
        messages.success(request, f"{lifted} desligamento(s) religado(s).")

    def get_urls(self):
        return [path("<int:switch_id>/religar/", self.admin_site.admin_view(self.lift_view),
                     name="decisions_killswitch_lift"), *super().get_urls()]

    def lift_view(self, request, switch_id):
        if not request.user.has_perm(SWITCH):
            raise PermissionDenied
        switch = get_object_or_404(KillSwitch, pk=switch_id)
        return run(request, reverse("admin:decisions_killswitch_changelist"),
                   lambda: switches.lift(switch_id=switch.pk, user=request.user),
                   f"Regras religadas: {switch}.")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return super().change_view(request, object_id, form_url, {
            "can_lift": request.user.has_perm(SWITCH), **(extra_context or {})})
