"""Claim documents' files below the services: where they are stored (``storage``: local
or S3, signed upload and download links), what a whole file of its type is
(``checks``), and their problem types (``errors``). The endpoints that receive and
serve them call the services: ``claims.file_endpoints``."""
