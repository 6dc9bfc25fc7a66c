"""Proposal terms have one typed shape per kind (workbench.proposal_terms). The only rows
of another shape are denials proposed before denials carried a SUSEP reason code and a
clause (claims 0019): they could never be approved (the supervisor was told to reject
them and ask again). Those still pending become obsolete, never applied, with the reason
in their decision note; each one's claim then awaits what it awaited before the proposal.
Decided ones stay as they were written: a record, never read as terms."""

from decimal import Decimal

from django.db import migrations
from django.utils import timezone

NOTE = ("Proposta anterior ao código SUSEP e à cláusula da recusa: não pode ser aplicada. "
        "O analista propõe de novo, com o motivo, a cláusula e o texto para o segurado.")
CLOSED = {"recusado", "finalizado", "abertura-rejeitada"}


def retire_denials_without_code(apps, schema_editor):
    Proposal = apps.get_model("workbench", "Proposal")
    Payment = apps.get_model("claims", "Payment")
    Reconsideration = apps.get_model("claims", "Reconsideration")
    now = timezone.now()
    old = [proposal for proposal in Proposal.objects.filter(kind="recusar", status="pendente")
           .select_related("claim") if proposal.arguments.get("code") is None]
    for proposal in old:
        Proposal.objects.filter(pk=proposal.pk).update(
            status="obsoleta", decided_at=now, decision_note=NOTE)
        claim = proposal.claim
        claim.awaiting = _awaiting(claim, Payment, Reconsideration)
        claim.save(update_fields=["awaiting"])


def _awaiting(claim, Payment, Reconsideration) -> str:
    """claims.awaiting's rules with no proposal pending (a claim with a pending denial
    proposal has no settlement to wait for, but the rules are kept whole)."""
    if claim.status == "recusado" and Reconsideration.objects.filter(
            claim=claim, status="pendente").exists():
        return "reconsideracao"
    if claim.status in CLOSED:
        return "encerrado"
    if claim.status == "pendente-de-documentacao":
        return "documentos"
    if claim.status == "pendente-de-dados-de-pagamento":
        return "dados-pagamento"
    payments = Payment.objects.filter(claim=claim).exclude(status__in=("devolvido", "cancelado"))
    if payments.filter(status="registrado").exists():
        return "liquidacao"
    paid = sum((payment.amount for payment in payments), Decimal("0.00"))
    if claim.status == "em-regulacao" and claim.amount - paid <= 0:
        return "nada"
    return "analise"


class Migration(migrations.Migration):
    dependencies = [
        ("workbench", "0002_tables_named_for_their_app"),
        ("claims", "0043_workbench_home"),
    ]

    operations = [
        migrations.RunPython(retire_denials_without_code, migrations.RunPython.noop),
    ]
