"""Claim documents' files: where they are stored and how they get there (``storage``:
local or S3, signed upload and download links), what a whole file of its type is
(``checks``), and the storage-facing endpoints (``views``, routed by ``urls``)."""
