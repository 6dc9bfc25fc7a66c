"""The contract's shapes. Python names are snake_case; the wire is kebab-case (see
``api_common.serializers.KebabCaseSerializer``); ``source=`` maps to English attributes.

One module per concern: ``common`` (shared rules, contact), ``payment_details``,
``claims`` (opening, documents, balance, the claim as it reads) and ``sales``.
"""

from claims.serializers.claims import (
    ClaimListQuerySerializer,
    ClaimSerializer,
    DenialSerializer,
    DocumentationSerializer,
    DocumentUploadInputSerializer,
    DocumentUploadSerializer,
    OpenClaimInputSerializer,
    OutstandingBalanceInputSerializer,
    PaidBeneficiarySerializer,
    PaymentSerializer,
    PendingDocumentSerializer,
    ReceivedDocumentSerializer,
    ReceivedFileSerializer,
)
from claims.serializers.common import ContactSerializer, PhoneSerializer, RequesterSerializer
from claims.serializers.payment_details import (
    BankAccountSerializer,
    BeneficiarySerializer,
    BoletoSerializer,
    PaymentDetailsSerializer,
    PaymentMethodSerializer,
    PixBankAccountSerializer,
    PixBrCodeSerializer,
    PixKeyField,
    PixSerializer,
)
from claims.serializers.sales import (
    CoverageSerializer,
    InsuredSerializer,
    SaleListQuerySerializer,
    SaleSerializer,
)

__all__ = [
    "BankAccountSerializer", "BeneficiarySerializer", "BoletoSerializer", "ClaimListQuerySerializer",
    "ClaimSerializer",
    "ContactSerializer", "CoverageSerializer", "DenialSerializer", "DocumentationSerializer",
    "DocumentUploadInputSerializer", "DocumentUploadSerializer", "InsuredSerializer",
    "OpenClaimInputSerializer", "OutstandingBalanceInputSerializer", "PaidBeneficiarySerializer",
    "PaymentDetailsSerializer", "PaymentMethodSerializer", "PaymentSerializer",
    "PendingDocumentSerializer", "PhoneSerializer", "PixBankAccountSerializer",
    "PixBrCodeSerializer", "PixKeyField", "PixSerializer", "ReceivedDocumentSerializer",
    "ReceivedFileSerializer", "RequesterSerializer", "SaleListQuerySerializer", "SaleSerializer",
]
