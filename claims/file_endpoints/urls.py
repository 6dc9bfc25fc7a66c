"""The storage-facing endpoints, at the root (not under /api/v1: their callers hold a
signed URL or the bucket's shared secret, not a channel token)."""

from django.urls import path

from claims.file_endpoints.views import (
    DocumentDownloadView,
    FileDownloadView,
    LocalUploadView,
    StorageNotificationView,
)

urlpatterns = [
    path("uploads/<str:token>", LocalUploadView.as_view(), name="document-upload"),
    path("armazenamento/notificacoes", StorageNotificationView.as_view(),
         name="storage-notifications"),
    path("armazenamento/arquivos/<str:token>", FileDownloadView.as_view(), name="document-file"),
    path("documentos/<str:token>", DocumentDownloadView.as_view(), name="document-download"),
]
