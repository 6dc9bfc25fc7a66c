"""The analysts' actions on a claim: each is a button on the claim page, a small form,
and one service call. What is offered comes from the workflow table and the user's
permissions; the service decides again under the claim's lock."""

from claims.admin import forms
from claims.admin.actions.analysis import Approve, RequestDocuments, RequestPaymentData
from claims.admin.actions.base import ClaimAction
from claims.admin.actions.beneficiaries import HoldShare, RemoveBeneficiary, SaveBeneficiary
from claims.admin.actions.closing import CorrectOccurrence, Deny, Finalize, KeepDenial, Reopen
from claims.admin.actions.payments import (
    AdjustReserve,
    RegisterExpense,
    RegisterPayment,
    SettlePayment,
)
from claims.workflow import Action

ACTIONS: dict[str, ClaimAction] = {
    a.slug: a
    for a in [
        Approve(Action.APPROVE_DOCUMENTS, forms.ApproveDocumentsForm, "work_claim"),
        RequestDocuments(Action.REQUEST_DOCUMENTS, forms.RequestDocumentsForm, "work_claim"),
        RequestPaymentData(Action.REQUEST_PAYMENT_DATA, forms.NoteForm, "work_claim"),
        SaveBeneficiary(Action.INFORM_BENEFICIARY, forms.BeneficiaryForm, "work_claim"),
        AdjustReserve(Action.ADJUST_RESERVE, forms.AdjustReserveForm, "work_claim"),
        RegisterPayment(Action.REGISTER_PAYMENT, forms.RegisterPaymentForm, "work_claim"),
        HoldShare(Action.HOLD_SHARE, forms.HoldShareForm, "work_claim"),
        RemoveBeneficiary(Action.REMOVE_BENEFICIARY, forms.RemoveBeneficiaryForm, "work_claim",
                          dangerous=True),
        SettlePayment(Action.SETTLE_PAYMENT, forms.SettlePaymentForm, "settle_payment"),
        Finalize(Action.FINALIZE, forms.FinalizeForm, "work_claim"),
        Deny(Action.DENY, forms.DenyForm, "work_claim", dangerous=True),
        Reopen(Action.REOPEN, forms.ReopenForm, "reopen_claim"),
        KeepDenial(Action.KEEP_DENIAL, forms.KeepDenialForm, "deny_claim"),
        RegisterExpense(Action.REGISTER_EXPENSE, forms.RegisterExpenseForm, "work_claim"),
        CorrectOccurrence(Action.CORRECT_OCCURRENCE, forms.CorrectOccurrenceForm, "work_claim"),
    ]
}
