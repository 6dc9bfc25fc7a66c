"""Reading received files: their text (a PDF's text layer, or OCR), the fields of a
death certificate or of a termination of employment, and how they compare with the
claim. Pure functions, no database: the service (claims.services.readings) reads the
file from storage, calls these and saves a ``DocumentReading``; ``facts`` turns the
readings of a claim into what the decision rules read (docs/document-readings.md)."""
