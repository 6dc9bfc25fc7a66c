"""Who is paid: recording a beneficiary or heir (or correcting one), holding a share."""

from claims import services
from workbench.admin.actions.base import ClaimAction
from workbench.admin.forms import BeneficiaryForm
from claims.coverages import pays_on_death
from claims.formatting import brl, percent
from claims.shares import total_share


class SaveBeneficiary(ClaimAction):
    """Opened blank (a new beneficiary) or on one beneficiary (``?para=<id>``) to correct
    their data; the same CPF/CNPJ replaces that beneficiary's data either way."""

    def initial(self, claim, chosen=""):
        beneficiary = next((b for b in claim.beneficiaries.all() if str(b.pk) == chosen), None)
        if beneficiary is None:
            return {"beneficiario_tipo": "outro"}
        return BeneficiaryForm.initial_for(beneficiary)

    def label_for(self, user, claim=None):
        return "Registrar beneficiário"

    def help(self, claim, chosen=""):
        beneficiaries = list(claim.beneficiaries.all())
        given = total_share(beneficiaries)
        named = "; ".join(f"{b.name} {percent(b.share)}" for b in beneficiaries
                          if b.share is not None)
        lines = [f"Participações já registradas: {percent(given)}"
                 + (f" ({named})" if named else "") + "."]
        if pays_on_death(claim.coverage.name):
            lines.append(
                "Morte: recebem os beneficiários designados na apólice; sem designação, os "
                "herdeiros, metade ao cônjuge e o restante na ordem da sucessão (Lei "
                "15.040/2024, art. 115). O capital não é herança (art. 116).")
        return lines

    def run(self, claim, user, data):
        beneficiary = services.save_beneficiary(
            claim_id=claim.pk, user=user, details=data["payment_details"],
            expected_version=data["version"])
        return f"Beneficiário {beneficiary.name} registrado."


class RemoveBeneficiary(ClaimAction):
    """Only people nothing was paid to: the others stay, their rest may be held."""

    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        if reason is None and not _removable(claim):
            return ""
        return reason

    def form_kwargs(self, claim):
        return {"beneficiary_choices": [
            (str(b.pk), f"{b.name} ({b.get_kind_display().lower()})") for b in _removable(claim)]}

    def initial(self, claim, chosen=""):
        return {"beneficiary": chosen} if chosen else {}

    def run(self, claim, user, data):
        removed = services.remove_beneficiary(
            claim_id=claim.pk, beneficiary_id=data["beneficiary"], user=user,
            reason=data["reason"], expected_version=data["version"])
        return f"{removed.name} removido(a) de quem recebe."


def _removable(claim):
    paid = {p.beneficiary_id for p in claim.payments.all()}
    return [b for b in claim.beneficiaries.all() if b.pk not in paid]


class HoldShare(ClaimAction):
    def why_not(self, claim, user):
        reason = super().why_not(claim, user)
        if reason is None and not _holdable(claim):
            return ""  # nobody with something left: not worth a line
        return reason

    def form_kwargs(self, claim):
        return {"beneficiary_choices": [
            (str(e.beneficiary.pk), f"{e.beneficiary.name}: resta {brl(e.left)}")
            for e in _holdable(claim)]}

    def initial(self, claim, chosen=""):
        return {"beneficiary": chosen} if chosen else {}

    def help(self, claim, chosen=""):
        return ["A parte retida não é paga e conta como resolvida para finalizar o sinistro; "
                "o motivo fica no histórico."]

    def run(self, claim, user, data):
        beneficiary = services.hold_share(
            claim_id=claim.pk, beneficiary_id=data["beneficiary"], user=user,
            reason=data["reason"], expected_version=data["version"])
        return f"Participação de {beneficiary.name} retida."


def _holdable(claim):
    return [e for e in services.entitlements_of(claim)
            if e.left > 0 and e.beneficiary.kind != "credor"]
