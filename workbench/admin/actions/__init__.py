"""The analysts' actions on a claim: each is a button on the claim page, a small form,
and one service call. What is offered comes from the workflow table and the user's
permissions (each action's row: ``permission``, ``authority``); the service decides again
under the claim's lock."""

from workbench.admin import forms
from workbench.admin.actions.analysis import Approve, RequestDocuments, RequestPaymentData
from workbench.admin.actions.base import ClaimAction
from workbench.admin.actions.beneficiaries import HoldShare, RemoveBeneficiary, SaveBeneficiary
from workbench.admin.actions.closing import CorrectOccurrence, Deny, Finalize, KeepDenial, Reopen
from workbench.admin.actions.payments import (
    AdjustReserve,
    RegisterExpense,
    RegisterPayment,
    SettlePayment,
)
from claims.workflow import Action

ACTIONS: dict[str, ClaimAction] = {
    a.slug: a
    for a in [
        Approve(Action.APPROVE_DOCUMENTS, forms.ApproveDocumentsForm),
        RequestDocuments(Action.REQUEST_DOCUMENTS, forms.RequestDocumentsForm),
        RequestPaymentData(Action.REQUEST_PAYMENT_DATA, forms.NoteForm),
        SaveBeneficiary(Action.INFORM_BENEFICIARY, forms.BeneficiaryForm),
        AdjustReserve(Action.ADJUST_RESERVE, forms.AdjustReserveForm),
        RegisterPayment(Action.REGISTER_PAYMENT, forms.RegisterPaymentForm),
        HoldShare(Action.HOLD_SHARE, forms.HoldShareForm),
        RemoveBeneficiary(Action.REMOVE_BENEFICIARY, forms.RemoveBeneficiaryForm, dangerous=True),
        SettlePayment(Action.SETTLE_PAYMENT, forms.SettlePaymentForm),
        Finalize(Action.FINALIZE, forms.FinalizeForm),
        Deny(Action.DENY, forms.DenyForm, dangerous=True),
        Reopen(Action.REOPEN, forms.ReopenForm),
        KeepDenial(Action.KEEP_DENIAL, forms.KeepDenialForm),
        RegisterExpense(Action.REGISTER_EXPENSE, forms.RegisterExpenseForm),
        CorrectOccurrence(Action.CORRECT_OCCURRENCE, forms.CorrectOccurrenceForm),
    ]
}
