"""The storage-facing endpoints of claim documents' files (``views``, routed by ``urls``):
the local upload PUT, the bucket's notifications, and the short-lived download links.
They sit above the services they call; ``claims.documents`` (storage, file checks,
their problem types) sits below them."""
