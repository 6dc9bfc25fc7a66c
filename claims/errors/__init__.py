"""Domain errors of the claims core, each with a stable problem id (see docs/problems.md),
by who meets them: callers of the contract, analysts, the workbench, reconsideration.
Callers write ``errors.ClaimNotFound``, whichever module holds it."""

from claims.errors.contract import (  # noqa: F401
    SaleNotFound,
    SaleOfAnotherChannel,
    ClaimNotFound,
    DocumentNotFound,
    BusinessRuleError,
    ClaimAlreadyOpenedForCoverage,
    InsuranceLmgExhausted,
    CoverageLmiExhausted,
    SaleNotActive,
    SaleCancellationWithOpenClaims,
    CoverageNotActive,
    OccurrenceOutsideValidity,
    ClaimClosed,
    BalanceBelowCreditorPaid,
    TransitionNotAllowed,
    ClaimNotAcceptingDocuments,
)
from claims.errors.analysts import (  # noqa: F401
    ActionNotPermitted,
    ClaimChangedConcurrently,
    PaymentNotAwaitingDetails,
    ReserveOutOfBounds,
    PaymentNotAllowed,
    BeneficiaryNotAllowed,
    SharesAboveWhole,
    PaymentAlreadySettled,
    FinalizationNotAllowed,
    DenialNotAllowed,
    ReopeningNotAllowed,
    DocumentRequestEmpty,
    NoteNotAllowed,
    CorrectionNotAllowed,
)
from claims.errors.reconsideration import (  # noqa: F401
    ReconsiderationAlreadyPending,
    ReconsiderationNotAllowed,
    ReconsiderationTextMissing,
    ReconsiderationNeedsNewDocuments,
    ReconsiderationLimitReached,
    HumanReviewNotAllowed,
)
