"""The person's letters on the hosted pages, under /segurado/ (the session cookie's path)."""

from django.urls import path

from correspondence import hosted

app_name = "correspondence"

urlpatterns = [
    path("sinistros/<str:number>/cartas/<uuid:message_id>", hosted.letter, name="letter"),
    path("sinistros/<str:number>/cartas/<uuid:message_id>.pdf", hosted.letter_pdf,
         name="letter-pdf"),
]
