"""The books' reports: the PSL inventory, the movements of a month, the paid and
incurred triangles (each a ``files.Sheet`` set), and how they are written as CSV and
XLSX (docs/ledger-reports.md)."""
