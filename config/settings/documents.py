"""Claim documents (storage, uploads, downloads) and the back office's rules."""

from decimal import Decimal

from config.settings.base import DEBUG, env

# --- Claim documents -------------------------------------------------------------------
# "local": files under MEDIA_ROOT, uploaded through the service's own signed PUT URL.
# "s3": any S3-compatible bucket, uploaded straight to it with pre-signed PUT URLs.
DOCUMENT_STORAGE = env.str("DOCUMENT_STORAGE", default="local")
UPLOAD_URL_EXPIRE_SECONDS = env.int("UPLOAD_URL_EXPIRE_SECONDS", default=15 * 60)
DOWNLOAD_URL_EXPIRE_SECONDS = env.int("DOWNLOAD_URL_EXPIRE_SECONDS", default=5 * 60)
UPLOAD_MAX_BYTES = env.int("UPLOAD_MAX_BYTES", default=20 * 1024 * 1024)
# Extension -> media type. The media type is bound into the upload URL.
UPLOAD_ALLOWED_TYPES = env.dict(
    "UPLOAD_ALLOWED_TYPES",
    default={
        "pdf": "application/pdf",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "heic": "image/heic",
        "heif": "image/heif",
    },
)
# Origins allowed to PUT to the local upload URL from a browser (the hosted pages).
UPLOAD_CORS_ALLOWED_ORIGINS = env.list("UPLOAD_CORS_ALLOWED_ORIGINS", default=["*"])
# Shared secret of S3-compatible bucket notifications (POST /armazenamento/notificacoes).
STORAGE_NOTIFICATION_TOKEN = env.str("STORAGE_NOTIFICATION_TOKEN", default="")
AWS_STORAGE_BUCKET_NAME = env.str("AWS_STORAGE_BUCKET_NAME", default="sinistros-documentos")
AWS_S3_REGION_NAME = env.str("AWS_S3_REGION_NAME", default="us-east-1")
AWS_S3_ENDPOINT_URL = env.str("AWS_S3_ENDPOINT_URL", default="") or None
AWS_ACCESS_KEY_ID = env.str("AWS_ACCESS_KEY_ID", default="") or None
AWS_SECRET_ACCESS_KEY = env.str("AWS_SECRET_ACCESS_KEY", default="") or None
AWS_S3_SIGNATURE_VERSION = "s3v4"
AWS_S3_ADDRESSING_STYLE = env.str("AWS_S3_ADDRESSING_STYLE", default="path")
AWS_QUERYSTRING_AUTH = True  # never a public URL
AWS_QUERYSTRING_EXPIRE = DOWNLOAD_URL_EXPIRE_SECONDS
AWS_DEFAULT_ACL = None
AWS_S3_FILE_OVERWRITE = False

STORAGES = {
    "default": {
        "BACKEND": (
            "storages.backends.s3.S3Storage"
            if DOCUMENT_STORAGE == "s3"
            else "django.core.files.storage.FileSystemStorage"
        )
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Claims back office -----------------------------------------------------------------
# Analysts register payments up to this amount; above it, a supervisor (R$).
PAYMENT_AUTHORITY_LIMIT = Decimal(env.str("PAYMENT_AUTHORITY_LIMIT", default="50000.00"))
# Who decides an analyst's proposal: the claim's team's supervisors (False), or any
# supervisor (True: one pool of supervisors for every team).
APPROVALS_ACROSS_TEAMS = env.bool("APPROVALS_ACROSS_TEAMS", default=False)
# The fine on an indemnity paid after the art. 87 deadline (Lei 15.040/2024, art. 88), in %.
LATE_PAYMENT_FINE_PERCENT = Decimal(env.str("LATE_PAYMENT_FINE_PERCENT", default="2"))
# Analysts move a claim's reserve by up to this amount (R$) alone, never to zero; a larger
# change, or releasing the whole reserve, is a proposal a supervisor approves.
RESERVE_AUTHORITY_LIMIT = Decimal(env.str("RESERVE_AUTHORITY_LIMIT", default="50000.00"))
# Red flags on payments (claims.red_flags): warnings for the analysts, never blocks.
# A claim notified within this many days of its sale's start.
RED_FLAG_EARLY_CLAIM_DAYS = env.int("RED_FLAG_EARLY_CLAIM_DAYS", default=90)
# The insured person's CPF with claims through at least this many channels.
RED_FLAG_CHANNELS_PER_CPF = env.int("RED_FLAG_CHANNELS_PER_CPF", default=2)
# A PIX key or bank account that receives for at least this many different people.
RED_FLAG_PEOPLE_PER_DESTINATION = env.int("RED_FLAG_PEOPLE_PER_DESTINATION", default=2)
# Documents pending this many days make a "Cobrar documentos" task for the owner.
DOCUMENT_REMINDER_DAYS = env.int("DOCUMENT_REMINDER_DAYS", default=7)
# How many times one denial is reconsidered (requests from the person and the channel
# together); past it, what remains is the ombudsman, SUSEP and the courts (docs/denials.md).
RECONSIDERATION_MAX_REQUESTS = env.int("RECONSIDERATION_MAX_REQUESTS", default=2)
# A regulatory deadline this many days away makes a "Decidir até"/"Pagar até" task.
DEADLINE_TASK_DAYS = env.int("DEADLINE_TASK_DAYS", default=5)
# The admin's long lists (claims, events) count their matches up to this many; past it:
# "mais de 10.000 sinistros" (workbench.admin.pagination), so a broad search costs what a
# narrow one does.
ADMIN_LIST_COUNT_LIMIT = env.int("ADMIN_LIST_COUNT_LIMIT", default=10_000)
# A search (claims, sales) reads its first matches' ids once, up to this many, for its
# count and its pages; past it: "mais de 1.000 sinistros" (workbench.admin.pagination).
ADMIN_SEARCH_COUNT_LIMIT = env.int("ADMIN_SEARCH_COUNT_LIMIT", default=1_000)
# The dashboard's shared figures (claims per week, days to decision, each team's load and
# deadlines) are computed this often by the beat into the shared cache and read from it
# (workbench.dashboard_figures); 0 counts them on each view.
DASHBOARD_FIGURES_SECONDS = env.int("DASHBOARD_FIGURES_SECONDS", default=60)
# Brazil's minimum wage (R$), for the regulatory clock: a coverage whose LMI is at most
# 500 minimum wages allows one suspension of the decision deadline (Lei 15.040/2024).
MINIMUM_WAGE = Decimal(env.str("MINIMUM_WAGE", default="1621.00"))
# Reading received files (claims.documents.readings, docs/document-readings.md): pages
# read per file (a text layer or OCR), and the mean tesseract confidence (0-100) under
# which a reading is "leitura incerta" (nothing is decided from it).
DOCUMENT_READING_MAX_PAGES = env.int("DOCUMENT_READING_MAX_PAGES", default=5)
DOCUMENT_READING_MIN_CONFIDENCE = env.float("DOCUMENT_READING_MIN_CONFIDENCE", default=70.0)
# The language of tesseract's trained data (Debian: tesseract-ocr-por).
DOCUMENT_READING_LANGUAGE = env.str("DOCUMENT_READING_LANGUAGE", default="por")
