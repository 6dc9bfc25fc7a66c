"""The claim page's workbench: take or reassign the claim, add a note, create and close
tasks, decide a proposal; and the list's bulk reassignment. Each is one service call;
a refusal comes back as a message on the claim page, in Portuguese."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from api_common.problem_types import ProblemError
from claims import services
from workbench.admin import workbench_forms as forms
from claims.models import Claim
from workbench.models import ToDo
from claims.permissions import Permission
from workbench.queues import INSURER_CLAIMS
from workbench import services as workbench_services


class WorkbenchViews:
    """Mixed into ClaimAdmin: its URLs and views."""

    def workbench_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<uuid:claim_id>/assumir/", wrap(self.take_view), name="claims_claim_take"),
            path("<uuid:claim_id>/reatribuir/", wrap(self.reassign_view),
                 name="claims_claim_reassign"),
            path("<uuid:claim_id>/notas/", wrap(self.note_view), name="claims_claim_note"),
            path("<uuid:claim_id>/tarefas/", wrap(self.todo_view), name="claims_claim_todo"),
            path("<uuid:claim_id>/tarefas/<int:todo_id>/<slug:outcome>/",
                 wrap(self.close_todo_view), name="claims_claim_close_todo"),
            path("<uuid:claim_id>/propostas/<uuid:proposal_id>/",
                 wrap(self.proposal_view), name="claims_claim_proposal"),
        ]

    # --- helpers --------------------------------------------------------------------

    def _back(self, claim_id, anchor: str = ""):
        return HttpResponseRedirect(
            reverse("admin:claims_claim_change", args=[claim_id]) + (f"#{anchor}" if anchor else ""))

    def _run(self, request, claim_id, call, *, anchor: str = ""):
        """Call the service; its success message or refusal goes to the claim page: a
        success back where the person was (``anchor``), a refusal at the top, where the
        messages are."""
        try:
            done = call()
        except ProblemError as refusal:
            messages.error(request, refusal.detail)
            return self._back(claim_id)
        messages.success(request, done)
        return self._back(claim_id, anchor)

    def _posted(self, request, form_class, claim_id, anchor):
        if request.method != "POST":
            return None, HttpResponseNotAllowed(["POST"])
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = form_class(request.POST)
        if not form.is_valid():
            for name, field_errors in form.errors.items():
                label = form.fields[name].label if name in form.fields else ""
                for error in field_errors:
                    messages.error(request, f"{label}: {error}" if label else error)
            return None, self._back(claim_id)  # the top, where the messages are
        return form.cleaned_data, None

    # --- owner ------------------------------------------------------------------------

    def take_view(self, request, claim_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        return self._run(request, claim_id, lambda: (
            workbench_services.take_claim(claim_id=claim_id, user=request.user)
            and "Sinistro assumido: agora está em Meus sinistros."))

    def reassign_view(self, request, claim_id):
        if not request.user.has_perm(Permission.ASSIGN_CLAIM.perm):
            raise PermissionDenied
        claim = (Claim.objects.select_related("owner", "team")
                 .filter(INSURER_CLAIMS, pk=claim_id).first())
        if claim is None:
            raise Http404("Sinistro não encontrado.")
        form = forms.ReassignForm(request.POST or None, user=request.user,
                                  initial={"to_user": str(claim.owner_id or "")})
        if request.method == "POST" and form.is_valid():
            try:
                changed = workbench_services.reassign_claims(
                    claim_ids=[claim_id], to_user=form.cleaned_data["to_user"],
                    user=request.user, reason=form.cleaned_data["reason"])
            except ProblemError as refusal:
                messages.error(request, refusal.detail)
            else:
                if changed.changed:
                    messages.success(request, "Responsável alterado.")
                elif changed.refused:
                    messages.error(request, f"Não reatribuído: o sinistro {changed.refused[0][1]}.")
                else:  # not a success: nothing happened
                    messages.info(request, f"Nada mudou: o sinistro {changed.skipped[0][1]}.")
            return self._back(claim_id)
        return self.reassign_page(request, form, [claim])

    def reassign_page(self, request, form, claims, *, bulk: bool = False):
        context = {
            **self.admin_site.each_context(request), "opts": self.opts, "form": form,
            "claims": claims, "bulk": bulk,
            "title": "Reatribuir sinistros" if bulk else f"Reatribuir: {claims[0].number}",
        }
        return TemplateResponse(request, "admin/claims/claim/reassign.html", context)

    @admin.action(description="Reatribuir os sinistros selecionados", permissions=["assign"])
    def reassign_selected(self, request, queryset):
        claims = list(queryset.select_related("owner")[:500])
        form = forms.ReassignForm(request.POST if "apply" in request.POST else None,
                                  user=request.user)
        if "apply" in request.POST and form.is_valid():
            try:
                changed = workbench_services.reassign_claims(
                    claim_ids=[c.pk for c in claims], to_user=form.cleaned_data["to_user"],
                    user=request.user, reason=form.cleaned_data["reason"])
            except ProblemError as refusal:
                messages.error(request, refusal.detail)
            else:
                messages.success(request, f"{changed.changed} sinistro(s) reatribuído(s).")
                left = [*changed.refused, *changed.skipped]
                if left:
                    messages.warning(request, f"{len(left)} sinistro(s) ficaram como estavam: "
                                              + "; ".join(f"{number}, {why}"
                                                          for number, why in left) + ".")
            return None
        return self.reassign_page(request, form, claims, bulk=True)

    def has_assign_permission(self, request):
        return request.user.has_perm(Permission.ASSIGN_CLAIM.perm)

    # --- notes and tasks --------------------------------------------------------------

    def note_view(self, request, claim_id):
        data, refused = self._posted(request, forms.NoteForm, claim_id, "linha-do-tempo")
        if refused:
            return refused
        return self._run(request, claim_id, lambda: (
            services.add_note(claim_id=claim_id, user=request.user, text=data["text"])
            and "Nota registrada na linha do tempo."), anchor="linha-do-tempo")

    def todo_view(self, request, claim_id):
        data, refused = self._posted(request, forms.ToDoForm, claim_id, "tarefas")
        if refused:
            return refused
        return self._run(request, claim_id, lambda: (
            f"Tarefa criada: {workbench_services.create_todo(claim_id=claim_id, user=request.user, **data)}."),
            anchor="tarefas")

    def close_todo_view(self, request, claim_id, todo_id, outcome):
        if outcome not in ("concluir", "cancelar"):
            raise Http404
        data, refused = self._posted(request, forms.CloseToDoForm, claim_id, "tarefas")
        if refused:
            return refused
        if not ToDo.objects.filter(pk=todo_id, claim_id=claim_id).exists():
            messages.error(request, "Tarefa não encontrada neste sinistro.")
            return self._back(claim_id)  # a refusal: at the top, with the messages
        done = outcome == "concluir"
        return self._run(request, claim_id, lambda: (
            workbench_services.close_todo(todo_id=todo_id, user=request.user, done=done, note=data["note"])
            and ("Tarefa concluída." if done else "Tarefa cancelada.")), anchor="tarefas")

    # --- proposals --------------------------------------------------------------------

    def proposal_view(self, request, claim_id, proposal_id):
        data, refused = self._posted(request, forms.ProposalDecisionForm, claim_id, "proposta")
        if refused:
            return refused
        if data["decision"] == "aprovar":
            return self._run(request, claim_id, lambda: (
                workbench_services.approve(proposal_id=proposal_id, user=request.user)
                and "Proposta aprovada e aplicada ao sinistro."))
        return self._run(request, claim_id, lambda: (
            workbench_services.reject(proposal_id=proposal_id, user=request.user, reason=data["reason"])
            and "Proposta rejeitada; o analista vê o motivo na linha do tempo."))
