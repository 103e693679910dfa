from django.urls import path

from . import views

urlpatterns = [
    path("spec/v1/schema.json", views.spec_schema, name="spec_schema"),
]
