"""The letters' signed downloads, beside the documents' (a signed URL, not a token)."""

from django.urls import path

from correspondence.downloads import LetterDownloadView

urlpatterns = [
    path("armazenamento/cartas/<str:token>", LetterDownloadView.as_view(), name="letter-download"),
]
