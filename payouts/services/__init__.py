"""Money out, one module per concern: orders (from registered payments), remittances
(the files to the bank), returns (the bank's answers), reconciliation."""
