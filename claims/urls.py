from django.urls import path

from claims import api

urlpatterns = [
    path("vendas", api.SaleListApi.as_view(), name="sale-list"),
    path("vendas/<uuid:sale_id>", api.SaleDetailApi.as_view(), name="sale-detail"),
    path("vendas/<uuid:sale_id>/abrir-sinistro", api.OpenClaimApi.as_view(), name="claim-open"),
    path("sinistros", api.ClaimListApi.as_view(), name="claim-list"),
    path("sinistros/<str:number>", api.ClaimDetailApi.as_view(), name="claim-detail"),
    path(
        "sinistros/<str:number>/enviar-documento",
        api.DocumentUploadApi.as_view(),
        name="claim-document-upload",
    ),
    path(
        "sinistros/<str:number>/documentos/<uuid:file_id>",
        api.DocumentDownloadApi.as_view(),
        name="claim-document-download",
    ),
    path(
        "sinistros/<str:number>/saldo-devedor",
        api.OutstandingBalanceApi.as_view(),
        name="claim-outstanding-balance",
    ),
    path(
        "sinistros/<str:number>/detalhes-pagamento",
        api.PaymentDetailsApi.as_view(),
        name="claim-payment-details",
    ),
    path(
        "sinistros/<str:number>/reconsideracao",
        api.ReconsiderationApi.as_view(),
        name="claim-reconsideration",
    ),
]
