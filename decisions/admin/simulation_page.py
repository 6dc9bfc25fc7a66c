"""The "Simular" page of a version (supervisors who write rules): the version, a draft
too, over the claims people decided in the last months (decisions.services.simulation),
as a report: how many it would decide alone, how often it agrees with people, the money
it would pay differently, and up to 20 claims where it disagrees."""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse

from api_common.problem_types import ProblemError
from claims.models import Claim
from decisions import engine
from decisions.admin.common import EDIT, share_words
from decisions.models import Decision, RuleSetVersion
from decisions.services.simulation import PEOPLE, simulate

PEOPLE_WORDS = {"aprovar": "Pessoas aprovaram", "recusar": "Pessoas recusaram"}
RULES_WORDS = {Decision.APPROVE: "Regras aprovariam e pagariam",
               Decision.ROUTE: "Regras encaminhariam a uma pessoa",
               Decision.PROPOSE_DENIAL: "Regras proporiam a recusa"}


class SimulationForm(forms.Form):
    months = forms.IntegerField(label="Meses de sinistros decididos", min_value=1,
                                max_value=36, initial=6)


def simulation_view(model_admin, request, version_id):
    if not request.user.has_perm(EDIT):
        raise PermissionDenied
    version = get_object_or_404(RuleSetVersion.objects.select_related("rule_set"), pk=version_id)
    form = SimulationForm(request.GET if "months" in request.GET else None)
    result = None
    if form.is_bound and form.is_valid():
        try:
            result = simulate(version=version, months=form.cleaned_data["months"])
        except engine.RulesInvalid as problem:
            messages.error(request, f"A versão não pode ser simulada: {problem}")
        except ProblemError as refusal:
            messages.error(request, refusal.detail)
    context = {
        **model_admin.admin_site.each_context(request), "opts": model_admin.opts,
        "title": f"Simular {version.rule_set.name} — versão {version.number}",
        "version": version, "form": form, "result": result,
    }
    if result is not None:
        context.update(report(result))
    return TemplateResponse(request, "admin/decisions/rulesetversion/simulation.html", context)


def report(result) -> dict:
    """The simulation in words: the table's rows and the examples with their claims."""
    table = [(RULES_WORDS[decision], [result.table[decision][people] for people in PEOPLE],
              sum(result.table[decision].values())) for decision in Decision.values]
    ids = dict(Claim.objects.filter(number__in=[e["sinistro"] for e in result.examples])
               .values_list("number", "pk"))
    examples = [{**example, "claim_id": ids.get(example["sinistro"]),
                 "regras_words": RULES_WORDS[example["regras"]],
                 "pessoas_words": PEOPLE_WORDS[example["pessoas"]]}
                for example in result.examples]
    return {"columns": [PEOPLE_WORDS[p] for p in PEOPLE], "table": table,
            "examples": examples, "share_words": share_words(result.share_alone),
            "agreement_words": share_words(result.agreement)}
