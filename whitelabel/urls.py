"""The insured person's hosted pages, under /segurado/ (the session cookie's path)."""

from django.urls import path

from whitelabel.views import documents, pages, session, uploads

app_name = "whitelabel"

urlpatterns = [
    path("acesso/<str:token>", session.exchange, name="exchange"),
    path("", pages.home, name="home"),
    path("sair", session.leave, name="leave"),
    path("logo.png", session.logo, name="logo"),
    path("sinistros/novo", pages.open_claim, name="open-claim"),
    path("sinistros/<str:number>", pages.claim, name="claim"),
    path("sinistros/<str:number>/dados-pagamento", pages.payment_details,
         name="payment-details"),
    path("sinistros/<str:number>/reconsideracao", pages.reconsideration,
         name="reconsideration"),
    path("sinistros/<str:number>/revisao-humana", pages.human_review, name="human-review"),
    path("sinistros/<str:number>/documentos/<uuid:file_id>", documents.document_file,
         name="document-file"),
    path("sinistros/<str:number>/fundamentos-da-recusa.pdf", documents.denial_grounds,
         name="denial-grounds"),
    path("sinistros/<str:number>/envios", uploads.start_upload, name="start-upload"),
    path("sinistros/<str:number>/envios/<uuid:file_id>", uploads.confirm_upload,
         name="confirm-upload"),
]
