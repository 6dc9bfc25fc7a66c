"""Rows stored before the rule that the deceased insured person is never paid
(claims.services.beneficiaries.check_not_the_insured): every claim on a death coverage
whose beneficiary, legal representative, PIX key or payment carries the insured's tax
id gets the ``falecido-como-favorecido`` red flag. Nothing is deleted or changed
besides the flag: an analyst corrects or removes the row, and until then the payment
services refuse to pay it. The count goes to the migration's output."""

import re

from django.db import migrations

from claims.coverages import pays_on_death


def _bare(value: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", value or "").upper()


def _pays_to(destination: str, insured: str) -> bool:
    # A PIX key (claims.red_flags.destination_of) that is the insured's tax id, however typed.
    return destination.startswith("pix:") and _bare(destination[len("pix:"):]) == _bare(insured)


def deceased_as_payee_text(names: list[str]) -> str:
    # The flag's words as claims.red_flags wrote them when this migration was made.
    return ("O CPF do segurado falecido está como favorecido de: " + ", ".join(names) +
            ". Ninguém recebe com o CPF dele numa cobertura de morte: corrija ou remova "
            "antes de pagar (os pagamentos a ele são recusados).")


def flag(apps, schema_editor):
    Claim = apps.get_model("claims", "Claim")
    Beneficiary = apps.get_model("claims", "Beneficiary")
    Payment = apps.get_model("claims", "Payment")
    Coverage = apps.get_model("claims", "Coverage")
    on_death = [name for name in Coverage.objects.values_list("name", flat=True).distinct()
                if pays_on_death(name)]
    found: dict = {}
    for claim_id, insured, name, *carried in Beneficiary.objects.filter(
            claim__coverage__name__in=on_death).values_list(
            "claim_id", "claim__sale__insured_cpf", "name", "tax_id",
            "representative_tax_id", "destination").iterator():
        tax_id, representative, destination = carried
        if _bare(insured) in (_bare(tax_id), _bare(representative)) or \
                _pays_to(destination, insured):
            found.setdefault(claim_id, []).append(f"{name} (beneficiário)")
    for claim_id, insured, name, tax_id, destination in Payment.objects.filter(
            claim__coverage__name__in=on_death).values_list(
            "claim_id", "claim__sale__insured_cpf", "beneficiary_name", "beneficiary_tax_id",
            "destination").iterator():
        if _bare(insured) == _bare(tax_id) or _pays_to(destination, insured):
            found.setdefault(claim_id, []).append(f"{name} (pagamento)")
    for claim in Claim.objects.filter(pk__in=list(found)):
        alerts = [a for a in claim.alerts if a.get("codigo") != "falecido-como-favorecido"]
        alerts.insert(0, {"codigo": "falecido-como-favorecido",
                          "texto": deceased_as_payee_text(found[claim.pk])})
        Claim.objects.filter(pk=claim.pk).update(alerts=alerts, has_alerts=True)
    if found:
        print(f"\n  {len(found)} sinistro(s) de morte com o CPF do segurado falecido como "
              "favorecido: marcados com o alerta falecido-como-favorecido.")


class Migration(migrations.Migration):

    dependencies = [
        ("claims", "0033_claim_channel"),
    ]

    operations = [
        migrations.RunPython(flag, migrations.RunPython.noop),
    ]
