"""Claim documents (storage, uploads, downloads) and the back office's rules."""

from config.settings.base import DEBUG
from config.settings.registry import Concern, decimal, env

documents = Concern("Claim documents", "config/settings/documents.py: storage, uploads, "
                    "downloads, readings (docs/document-readings.md)")
back_office = Concern("Claims back office", "config/settings/documents.py: the analysts' "
                      "authority, red flags, tasks, the admin's lists (docs/workbench.md)")

# --- Claim documents -------------------------------------------------------------------
# "local": files under MEDIA_ROOT, uploaded through the service's own signed PUT URL.
# "s3": any S3-compatible bucket, uploaded straight to it with pre-signed PUT URLs.
DOCUMENT_STORAGE = documents.read(
    "DOCUMENT_STORAGE", env.str, "local", "where claim documents are kept",
    shown="`local` (files under `MEDIA_ROOT`, default `var/media`)",
    production="`s3`, with the `AWS_*` variables below")
UPLOAD_URL_EXPIRE_SECONDS = documents.read("UPLOAD_URL_EXPIRE_SECONDS", env.int, 15 * 60,
                                           "seconds an upload URL is valid")
DOWNLOAD_URL_EXPIRE_SECONDS = documents.read("DOWNLOAD_URL_EXPIRE_SECONDS", env.int, 5 * 60,
                                             "seconds a download URL is valid")
UPLOAD_MAX_BYTES = documents.read("UPLOAD_MAX_BYTES", env.int, 20 * 1024 * 1024,
                                  "the largest file accepted", shown="`20971520` (20 MiB)")
# Extension -> media type. The media type is bound into the upload URL.
UPLOAD_ALLOWED_TYPES = documents.read(
    "UPLOAD_ALLOWED_TYPES", env.dict, description="the files accepted, as extension=media "
    "type pairs", default={
        "pdf": "application/pdf",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "png": "image/png",
        "heic": "image/heic",
        "heif": "image/heif",
    },
)
# Origins allowed to PUT to the local upload URL from a browser (the hosted pages).
UPLOAD_CORS_ALLOWED_ORIGINS = documents.read(
    "UPLOAD_CORS_ALLOWED_ORIGINS", env.list, ["*"], "origins allowed to PUT to the local "
    "upload URL from a browser", production="the hosted pages' origin")
# Shared secret of S3-compatible bucket notifications (POST /armazenamento/notificacoes).
STORAGE_NOTIFICATION_TOKEN = documents.read(
    "STORAGE_NOTIFICATION_TOKEN", env.str, "", "the shared secret of the bucket's "
    "notifications (`POST /armazenamento/notificacoes`)", shown="empty (notifications refused)",
    production="a long random value shared with the bucket")
AWS_STORAGE_BUCKET_NAME = documents.read("AWS_STORAGE_BUCKET_NAME", env.str,
                                         "sinistros-documentos", "`s3`: the bucket")
AWS_S3_REGION_NAME = documents.read("AWS_S3_REGION_NAME", env.str, "us-east-1",
                                    "`s3`: the bucket's region")
AWS_S3_ENDPOINT_URL = documents.read(
    "AWS_S3_ENDPOINT_URL", env.str, "", "`s3`: the address of an S3-compatible service",
    shown="empty (AWS itself)") or None
AWS_ACCESS_KEY_ID = documents.read(
    "AWS_ACCESS_KEY_ID", env.str, "", "`s3`: the access key",
    shown="empty (boto3's own chain: instance role, ~/.aws)") or None
AWS_SECRET_ACCESS_KEY = documents.read("AWS_SECRET_ACCESS_KEY", env.str, "",
                                       "`s3`: the access key's secret") or None
AWS_S3_SIGNATURE_VERSION = "s3v4"
AWS_S3_ADDRESSING_STYLE = documents.read(
    "AWS_S3_ADDRESSING_STYLE", env.str, "path", "`s3`: `path` (`host/bucket/key`, what "
    "S3-compatible services such as MinIO expect) or `virtual` (`bucket.host/key`)")
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
PAYMENT_AUTHORITY_LIMIT = back_office.read(
    "PAYMENT_AUTHORITY_LIMIT", decimal, "50000.00", "analysts register payments (and, "
    "separately, regulation expenses) while a claim's total stays up to this (R$); above, "
    "they propose and a supervisor approves")
# Who decides an analyst's proposal: the claim's team's supervisors (False), or any
# supervisor (True: one pool of supervisors for every team).
APPROVALS_ACROSS_TEAMS = back_office.read(
    "APPROVALS_ACROSS_TEAMS", env.bool, False, "who decides an analyst's proposal",
    shown="`false`: the supervisors of the claim's team",
    production="`true`: any supervisor decides any team's proposals")
# The fine on an indemnity paid after the art. 87 deadline (Lei 15.040/2024, art. 88), in %.
LATE_PAYMENT_FINE_PERCENT = back_office.read(
    "LATE_PAYMENT_FINE_PERCENT", decimal, "2", "the fine (%) on an indemnity paid after the "
    "art. 87 deadline (Lei 15.040/2024, art. 88), with correction and interest")
# Analysts move a claim's reserve by up to this amount (R$) alone, never to zero; a larger
# change, or releasing the whole reserve, is a proposal a supervisor approves.
RESERVE_AUTHORITY_LIMIT = back_office.read(
    "RESERVE_AUTHORITY_LIMIT", decimal, "50000.00", "analysts change a reserve by up to this "
    "(R$) and never to zero; beyond, a supervisor approves their proposal")
# Red flags on payments (claims.red_flags): warnings for the analysts, never blocks.
# A claim notified within this many days of its sale's start.
RED_FLAG_EARLY_CLAIM_DAYS = back_office.read(
    "RED_FLAG_EARLY_CLAIM_DAYS", env.int, 90, "red flag: a claim within this many days of "
    "the sale's start")
# The insured person's CPF with claims through at least this many channels.
RED_FLAG_CHANNELS_PER_CPF = back_office.read(
    "RED_FLAG_CHANNELS_PER_CPF", env.int, 2, "red flag: a CPF with claims through this many "
    "channels")
# A PIX key or bank account that receives for at least this many different people.
RED_FLAG_PEOPLE_PER_DESTINATION = back_office.read(
    "RED_FLAG_PEOPLE_PER_DESTINATION", env.int, 2, "red flag: a PIX key or account "
    "receiving for this many people")
# Documents pending this many days make a "Cobrar documentos" task for the owner.
DOCUMENT_REMINDER_DAYS = back_office.read(
    "DOCUMENT_REMINDER_DAYS", env.int, 7, "documents pending this long make a \"Cobrar "
    "documentos\" task")
# How many times one denial is reconsidered (requests from the person and the channel
# together); past it, what remains is the ombudsman, SUSEP and the courts (docs/denials.md).
RECONSIDERATION_MAX_REQUESTS = back_office.read(
    "RECONSIDERATION_MAX_REQUESTS", env.int, 2, "how many times one denial is reconsidered; "
    "after a kept denial a new request also needs a new document "
    "([docs/denials.md](denials.md#reconsideration))")
# A regulatory deadline this many days away makes a "Decidir até"/"Pagar até" task.
DEADLINE_TASK_DAYS = back_office.read(
    "DEADLINE_TASK_DAYS", env.int, 5, "a deadline this close makes a \"Decidir/Pagar até\" "
    "task")
# The admin's long lists (claims, events) count their matches up to this many; past it:
# "mais de 10.000 sinistros" (workbench.admin.pagination), so a broad search costs what a
# narrow one does.
ADMIN_LIST_COUNT_LIMIT = back_office.read(
    "ADMIN_LIST_COUNT_LIMIT", env.int, 10_000, "the admin's long lists (claims, sales, "
    "events) count their matches up to this many; past it, \"mais de 10.000 sinistros\" and "
    "the pages up to it ([docs/workbench.md](workbench.md))")
# A search (claims, sales) reads its first matches' ids once, up to this many, for its
# count and its pages; past it: "mais de 1.000 sinistros" (workbench.admin.pagination).
ADMIN_SEARCH_COUNT_LIMIT = back_office.read(
    "ADMIN_SEARCH_COUNT_LIMIT", env.int, 1_000, "a search of the claim or sale list reads "
    "its first matches' ids once, up to this many, for its count and its pages (\"mais de "
    "1.000 sinistros\")")
# The dashboard's shared figures (claims per week, days to decision, each team's load and
# deadlines) are computed this often by the beat into the shared cache and read from it
# (workbench.dashboard_figures); 0 counts them on each view.
DASHBOARD_FIGURES_SECONDS = back_office.read(
    "DASHBOARD_FIGURES_SECONDS", env.int, 60, "how often the beat computes the dashboard's "
    "shared figures (claims per week, days to decision, each team's load and deadlines) "
    "into the cache, where the pages read them ([docs/workbench.md](workbench.md)); `0` "
    "counts them on each view")
# Brazil's minimum wage (R$), for the regulatory clock: a coverage whose LMI is at most
# 500 minimum wages allows one suspension of the decision deadline (Lei 15.040/2024).
MINIMUM_WAGE = back_office.read(
    "MINIMUM_WAGE", decimal, "1621.00", "the minimum wage (R$): coverages up to 500 of them "
    "allow one suspension of the decision deadline")
# Reading received files (claims.documents.readings, docs/document-readings.md): pages
# read per file (a text layer or OCR), and the mean tesseract confidence (0-100) under
# which a reading is "leitura incerta" (nothing is decided from it).
DOCUMENT_READING_MAX_PAGES = documents.read(
    "DOCUMENT_READING_MAX_PAGES", env.int, 5, "pages of a received file read (its text "
    "layer, or OCR page by page) ([docs/document-readings.md](document-readings.md))")
DOCUMENT_READING_MIN_CONFIDENCE = documents.read(
    "DOCUMENT_READING_MIN_CONFIDENCE", env.float, 70.0, "mean OCR word confidence (0-100) "
    "under which a reading is \"leitura incerta\": nothing is decided from it")
# The language of tesseract's trained data (Debian: tesseract-ocr-por).
DOCUMENT_READING_LANGUAGE = documents.read(
    "DOCUMENT_READING_LANGUAGE", env.str, "por", "tesseract's language data (Debian "
    "`tesseract-ocr-por`)")
