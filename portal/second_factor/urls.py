from django.urls import path

from . import views

urlpatterns = [
    path("", views.manage, name="second_factor_manage"),
    path("code/", views.verify, name="second_factor_verify"),
    path("code/passkey/", views.passkey_verify, name="second_factor_passkey_verify"),
    path("set-up/", views.setup, name="second_factor_setup"),
    path("set-up/qr.svg", views.setup_qr, name="second_factor_qr"),
    path("set-up/passkey/", views.passkey_add, name="second_factor_passkey_add"),
    path(
        "passkeys/<id:passkey_id>/remove/",
        views.passkey_remove,
        name="second_factor_passkey_remove",
    ),
    path("recovery-codes/", views.recovery_codes, name="second_factor_codes"),
    path("turn-off/", views.turn_off, name="second_factor_off"),
]
