"""Privacy admin: "who saw this person's data, and when" (LGPD art. 37). The access
report, by a claim's number or by a CPF, for the privacy role (``view_accessrecord``):
the claims found, then their access records, a page at a time, in words.

The log itself is append-only: nobody adds, changes or deletes a record here (a claim's
records end with the claim's anonymisation, docs/privacy-access.md). Reading the report
names a person's claims, so it is itself recorded (kind ``relatorio``), once per page
shown, for every claim it found."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse

from claims.formatting import tax_id
from claims.signals import data_read
from privacy import access_report
from privacy.admin.common import PrivacyReads
from privacy.models import AccessKind, AccessRecord


@admin.register(AccessRecord)
class AccessReportAdmin(PrivacyReads, admin.ModelAdmin):
    def get_urls(self):
        # The report is the model's only page (no record's own page).
        return [url for url in super().get_urls() if url.name and url.name.endswith(
            "_changelist")]

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        number = request.GET.get("sinistro", "").strip()
        cpf = access_report.only_digits(request.GET.get("cpf", ""))
        context = {**self.admin_site.each_context(request), "opts": self.opts,
                   "title": "Quem acessou os dados pessoais", "number": number,
                   "cpf": request.GET.get("cpf", "").strip(), "asked": bool(number or cpf)}
        claims, error = [], ""
        if cpf:
            if len(cpf) != 11:
                error = "Informe um CPF com 11 dígitos."
            else:
                claims = access_report.claims_of_cpf(cpf)
                context["cpf_shown"] = tax_id(cpf)
        elif number:
            claims = access_report.claim_by_number(number)
        if claims:
            page, rows = access_report.readings(claims, request.GET.get("p"))
            context.update(page=page, rows=rows)
            data_read([claim.pk for claim in claims], kind=AccessKind.REPORT,
                      user=request.user)
        context.update(claims=claims, error=error,
                       by_cpf=bool(cpf) and not error)
        return TemplateResponse(request, "admin/privacy/access_report.html", context)
