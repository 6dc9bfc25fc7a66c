from django.urls import path

from sandbox import api

urlpatterns = [
    path("sandbox/sinistros/<str:number>/simular", api.simulate, name="sandbox-simulate"),
]
