from payouts.models.accounts import Flavour, PayingAccount
from payouts.models.orders import PaymentOrder
from payouts.models.files import (BankReturn, Remittance, RemittanceDownload, RemittanceLine, ReturnLine,
                                  ScheduledRun)

__all__ = ["BankReturn", "Flavour", "PayingAccount", "PaymentOrder", "Remittance",
           "RemittanceDownload", "RemittanceLine", "ReturnLine", "ScheduledRun"]
