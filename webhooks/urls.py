from django.urls import path

from webhooks import api

urlpatterns = [
    path("webhooks", api.SubscriptionListApi.as_view(), name="webhook-list"),
    path("webhooks/<uuid:subscription_id>", api.SubscriptionDetailApi.as_view(),
         name="webhook-detail"),
    path("webhooks/<uuid:subscription_id>/rotacionar-chave-hmac", api.RotateSecretApi.as_view(),
         name="webhook-rotate-secret"),
    path("webhooks/<uuid:subscription_id>/ping", api.PingApi.as_view(), name="webhook-ping"),
    path("webhooks/<uuid:subscription_id>/exemplo", api.ExampleApi.as_view(),
         name="webhook-example"),
    path("webhooks/<uuid:subscription_id>/entregas", api.DeliveryListApi.as_view(),
         name="webhook-deliveries"),
    path("webhooks/<uuid:subscription_id>/entregas/<uuid:delivery_id>/reenviar",
         api.RedeliverApi.as_view(), name="webhook-redeliver"),
]
