from django.urls import path

from correspondence import api

urlpatterns = [
    path("sinistros/<str:number>/cartas", api.LetterListApi.as_view(), name="claim-letters"),
]
