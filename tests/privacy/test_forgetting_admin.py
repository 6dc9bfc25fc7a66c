"""The runs and their evidence in the admin: read by the privacy role in Portuguese
words, never changed, never shown to other roles; no personal data on the pages."""

import pytest
from django.contrib.auth.models import Group, Permission

from privacy import roles as privacy_roles
from privacy.forgetting import runs
from privacy.models import Anonymisation
from tests.privacy.test_forgetting import HEIR, INSURED, TODAY, closed_claim
from tests.support.lifecycle import logged_in, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def dpo():
    privacy_roles.sync_roles(Group, Permission)
    return logged_in(staff("dora", privacy_roles.PRIVACY))


def test_the_privacy_role_reads_the_runs_and_the_evidence_in_words(dpo, settings):
    settings.RETENTION_YEARS = 5
    claim = closed_claim()
    outcome = runs.run_retention(today=TODAY, started_by="operacao:retention_run")

    listing = dpo.get("/admin/privacy/retentionrun/").content.decode()
    assert "Comando retention_run" in listing and "Concluída" in listing
    assert "Situação" in listing
    assert "28/11/2026" in listing and "Anonimização" in listing
    page = dpo.get(f"/admin/privacy/retentionrun/{outcome.run.pk}/change/").content.decode()
    assert "2 registro(s) de anonimização" in page  # the claim and its sale
    assert "Circular SUSEP 605/2020" in page

    evidence = Anonymisation.objects.get(claim=claim)
    page = dpo.get(f"/admin/privacy/anonymisation/{evidence.pk}/change/").content.decode()
    assert f"Sinistro {claim.number}" in page
    assert "Beneficiários: 1" in page
    assert "Registros de quem acessou (apagados): 1" in page
    assert "01/03/2025" in page  # the clock's end
    assert HEIR not in page and INSURED not in page
    assert dpo.get("/admin/privacy/retentionrun/add/").status_code == 403
    assert dpo.post(f"/admin/privacy/anonymisation/{evidence.pk}/delete/").status_code == 403


def test_other_roles_do_not_see_the_runs(analyst):
    assert analyst.get("/admin/privacy/retentionrun/").status_code == 403
    assert analyst.get("/admin/privacy/anonymisation/").status_code == 403
