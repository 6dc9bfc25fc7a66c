""""Versões das regras": a version's table (its rows inline, editable only while it is a
draft, by a supervisor who writes rules), the catalogue of facts beside it, and the four
eyes (submit, approve, send back), simulation and the JDM export. Versions are made by
"Novo rascunho" on their rule set, never added here."""

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse

from decisions import engine
from claims.formatting import person
from decisions.admin.common import EDIT, PUBLISH, run, when
from decisions.facts import FACTS
from decisions.models import Rule, RuleSet, RuleSetVersion
from decisions.services import versions
from decisions.services.rules import rows_of


class RuleForm(forms.ModelForm):
    class Meta:
        model = Rule
        fields = ["position", "conditions", "decision", "reason"]
        widgets = {"conditions": forms.Textarea(attrs={"rows": 4, "cols": 32}),
                   "reason": forms.Textarea(attrs={"rows": 3, "cols": 24}),
                   "position": forms.NumberInput(attrs={"class": "rule-position"})}

    def clean_conditions(self):
        text = self.cleaned_data["conditions"]
        try:
            engine.parse_conditions(text)
        except engine.RulesInvalid as problem:
            raise forms.ValidationError(str(problem)) from None
        return text


class RuleInline(admin.TabularInline):
    model = Rule
    form = RuleForm
    extra = 0
    fields = ["position", "conditions", "decision", "reason"]
    ordering = ["position", "id"]

    def _draft_and_writer(self, request, obj) -> bool:
        return (obj is not None and obj.status == RuleSetVersion.Status.DRAFT
                and request.user.has_perm(EDIT))

    def has_add_permission(self, request, obj=None):
        return self._draft_and_writer(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._draft_and_writer(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._draft_and_writer(request, obj)

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("decisions.view_rule")

    def get_extra(self, request, obj=None, **kwargs):
        return 1 if self._draft_and_writer(request, obj) else 0


class SendBackForm(forms.Form):
    reason = forms.CharField(label="Por que volta a rascunho", max_length=1000)


@admin.register(RuleSetVersion)
class RuleSetVersionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "coverage_in_words", "status", "written_by", "published_on"]
    list_filter = ["status", "rule_set"]
    list_select_related = ["rule_set", "created_by"]
    inlines = [RuleInline]
    change_form_template = "admin/decisions/rulesetversion/change_form.html"
    actions = None

    class Media:
        css = {"all": ["decisions/decisions.css"]}

    def get_fields(self, request, obj=None):
        return ["rule_set", "number", "status", "note", "written_by", "submitted_words",
                "approved_words"]

    def get_readonly_fields(self, request, obj=None):
        fields = self.get_fields(request, obj)
        if obj is not None and obj.status == RuleSetVersion.Status.DRAFT:
            return [name for name in fields if name != "note"]
        return fields

    def has_add_permission(self, request):
        return False  # "Novo rascunho" on the rule set

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.status != RuleSetVersion.Status.DRAFT:
            return False
        return request.user.has_perm(EDIT)

    @admin.display(description="escrita por")
    def written_by(self, obj):
        if obj.created_by_id:
            return f"{person(obj.created_by)}, {when(obj.created_at)}"
        return f"Instalada pela operação, {when(obj.created_at)}" if obj.installed_by else "—"

    @admin.display(description="publicação pedida por")
    def submitted_words(self, obj):
        return f"{person(obj.submitted_by)}, {when(obj.submitted_at)}" if obj.submitted_by_id else "—"

    @admin.display(description="aprovada por")
    def approved_words(self, obj):
        if obj.approved_by_id:
            return f"{person(obj.approved_by)}, {when(obj.published_at)}"
        if obj.published_at:
            return f"Já instalada publicada, {when(obj.published_at)}"
        return "—"

    @admin.display(description="cobertura", ordering="rule_set__coverage_name")
    def coverage_in_words(self, obj):
        return obj.rule_set.coverage_words

    @admin.display(description="publicada em", ordering="published_at")
    def published_on(self, obj):
        return obj.published_at.strftime("%d/%m/%Y") if obj.published_at else "—"

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Versões das regras", **(extra_context or {})})

    def save_related(self, request, form, formsets, change):
        # A row saved while another supervisor asked to publish would change a frozen
        # table: the rule set's lock orders this save with the services'.
        RuleSet.objects.select_for_update().get(pk=form.instance.rule_set_id)
        status = RuleSetVersion.objects.values_list("status", flat=True).get(pk=form.instance.pk)
        if status != RuleSetVersion.Status.DRAFT:
            messages.error(request, "A versão deixou de ser rascunho: as regras não foram salvas.")
            return
        super().save_related(request, form, formsets, change)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        version = (RuleSetVersion.objects.select_related("rule_set").filter(pk=object_id).first()
                   if str(object_id).isdigit() else None)
        extra = {}
        if version is not None:
            user = request.user
            draft = version.status == RuleSetVersion.Status.DRAFT
            waiting = version.status == RuleSetVersion.Status.AWAITING_APPROVAL
            extra = {
                "version": version,
                "facts": [(name, fact.label, fact.kind) for name, fact in FACTS.items()],
                "can_submit": draft and user.has_perm(PUBLISH),
                "can_decide": waiting and user.has_perm(PUBLISH),
                "is_author": user.pk in (version.created_by_id, version.submitted_by_id),
                "can_simulate": user.has_perm(EDIT),
                "send_back_form": SendBackForm(),
                "title": f"{version.rule_set.name} — versão {version.number} "
                         f"({version.get_status_display().lower()})",
                "subtitle": None,
            }
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:version_id>/pedir-publicacao/", wrap(self.submit_view),
                 name="decisions_version_submit"),
            path("<int:version_id>/aprovar/", wrap(self.approve_view),
                 name="decisions_version_approve"),
            path("<int:version_id>/devolver/", wrap(self.send_back_view),
                 name="decisions_version_send_back"),
            path("<int:version_id>/jdm/", wrap(self.export_view), name="decisions_version_jdm"),
            path("<int:version_id>/simular/", wrap(self.simulate_view),
                 name="decisions_version_simulate"),
            *super().get_urls(),
        ]

    def _page(self, version_id) -> str:
        return reverse("admin:decisions_rulesetversion_change", args=[version_id])

    def _publisher(self, request, version_id) -> RuleSetVersion:
        if not request.user.has_perm(PUBLISH):
            raise PermissionDenied
        return get_object_or_404(RuleSetVersion, pk=version_id)

    def submit_view(self, request, version_id):
        version = self._publisher(request, version_id)
        return run(request, self._page(version.pk),
                   lambda: versions.submit(version_id=version.pk, user=request.user),
                   f"Publicação da versão {version.number} pedida: outro supervisor aprova.")

    def approve_view(self, request, version_id):
        version = self._publisher(request, version_id)
        return run(request, self._page(version.pk),
                   lambda: versions.approve(version_id=version.pk, user=request.user),
                   f"Versão {version.number} aprovada e publicada: as decisões novas a usam.")

    def send_back_view(self, request, version_id):
        version = self._publisher(request, version_id)
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        reason = request.POST.get("reason", "")
        return run(request, self._page(version.pk),
                   lambda: versions.send_back(version_id=version.pk, user=request.user,
                                              reason=reason),
                   f"Versão {version.number} devolvida ao rascunho.")

    def export_view(self, request, version_id):
        """The table as a JDM file, for GoRules' open editor (read it, draw it)."""
        if not request.user.has_perm("decisions.view_rulesetversion"):
            raise PermissionDenied
        version = get_object_or_404(RuleSetVersion.objects.select_related("rule_set"),
                                    pk=version_id)
        try:
            graph = engine.to_jdm(rows_of(version))
        except engine.RulesInvalid as problem:
            messages.error(request, f"A tabela não pôde ser exportada: {problem}")
            return HttpResponseRedirect(self._page(version.pk))
        response = HttpResponse(json.dumps(graph, ensure_ascii=False, indent=2),
                                content_type="application/json; charset=utf-8")
        slug = version.rule_set.coverage_name.removeprefix("cobertura/") or "regras"
        name = f"regras-{slug}{'-' + version.rule_set.nature if version.rule_set.nature else ''}"
        response["Content-Disposition"] = f'attachment; filename="{name}-v{version.number}.json"'
        return response

    def simulate_view(self, request, version_id):
        from decisions.admin.simulation_page import simulation_view

        return simulation_view(self, request, version_id)
