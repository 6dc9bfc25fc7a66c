""""Conjuntos de regras": one per coverage (and nature), its mode and its versions. The
mode changes through ``versions.set_mode`` (a supervisor who may switch the rules),
never by saving the field; a new draft through ``versions.new_draft``."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse

from claims.coverages import CATALOGUE
from decisions.admin.common import EDIT, SWITCH, run
from decisions.models import RuleSet, RuleSetVersion
from decisions.services import versions


class RuleSetForm(forms.ModelForm):
    coverage_name = forms.ChoiceField(label="Cobertura", choices=lambda: [
        (name, known.label) for name, known in CATALOGUE.items()])

    class Meta:
        model = RuleSet
        fields = ["name", "coverage_name", "nature", "description"]


class ModeForm(forms.Form):
    mode = forms.ChoiceField(label="Modo", choices=RuleSet.Mode.choices)


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    list_display = ["name", "coverage_in_words", "mode", "published_version"]
    list_filter = ["mode"]
    search_fields = ["name", "coverage_name"]
    change_form_template = "admin/decisions/ruleset/change_form.html"
    actions = None

    class Media:
        css = {"all": ["decisions/decisions.css"]}

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(Prefetch(
            "versions", queryset=RuleSetVersion.objects.filter(
                status=RuleSetVersion.Status.PUBLISHED), to_attr="published"))

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:  # a new set picks its coverage from the catalogue
            kwargs["form"] = RuleSetForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["name", "coverage_name", "nature", "description"]
        return ["name", "coverage_in_words", "description"]

    def get_readonly_fields(self, request, obj=None):
        # The coverage a set decides is its identity: a new set rather than a moved one.
        return ["coverage_in_words"] if obj is not None else []

    def has_delete_permission(self, request, obj=None):
        return False  # its versions name every decision the rules took

    @admin.display(description="cobertura", ordering="coverage_name")
    def coverage_in_words(self, obj):
        return obj.coverage_words

    @admin.display(description="versão publicada")
    def published_version(self, obj):
        published = getattr(obj, "published", None)
        return f"v{published[0].number}" if published else "nenhuma"

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {"title": "Conjuntos de regras", **(extra_context or {})})

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:rule_set_id>/modo/", wrap(self.mode_view), name="decisions_ruleset_mode"),
            path("<int:rule_set_id>/novo-rascunho/", wrap(self.new_draft_view),
                 name="decisions_ruleset_new_draft"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        rule_set = get_object_or_404(RuleSet, pk=object_id) if str(object_id).isdigit() else None
        extra = {}
        if rule_set is not None:
            extra = {
                "rule_set": rule_set,
                "versions": list(rule_set.versions.select_related(
                    "created_by", "submitted_by", "approved_by")),
                "mode_form": ModeForm(initial={"mode": rule_set.mode}),
                "can_switch": request.user.has_perm(SWITCH),
                "can_edit": request.user.has_perm(EDIT),
            }
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    def mode_view(self, request, rule_set_id):
        if not request.user.has_perm(SWITCH):
            raise PermissionDenied
        rule_set = get_object_or_404(RuleSet, pk=rule_set_id)
        page = reverse("admin:decisions_ruleset_change", args=[rule_set.pk])
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        form = ModeForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Escolha o modo: desligado, sombra ou ligado.")
            return HttpResponseRedirect(page)
        mode = form.cleaned_data["mode"]
        return run(request, page,
                   lambda: versions.set_mode(rule_set_id=rule_set.pk, user=request.user, mode=mode),
                   f"{rule_set.name}: modo “{RuleSet.Mode(mode).label}”.")

    def new_draft_view(self, request, rule_set_id):
        if not request.user.has_perm(EDIT):
            raise PermissionDenied
        rule_set = get_object_or_404(RuleSet, pk=rule_set_id)
        made = {}

        def draft():
            made["version"] = versions.new_draft(rule_set_id=rule_set.pk, user=request.user,
                                                 note=request.POST.get("note", "").strip())

        answer = run(request, reverse("admin:decisions_ruleset_change", args=[rule_set.pk]),
                     draft, f"{rule_set.name}: novo rascunho criado.")
        if "version" in made:
            answer["Location"] = reverse("admin:decisions_rulesetversion_change",
                                         args=[made["version"].pk])
        return answer
