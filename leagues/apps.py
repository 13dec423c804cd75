from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        # Before any URLconf is read: invite and public links use <token:…>.
        from django.urls import register_converter

        from leagues.converters import TokenConverter

        register_converter(TokenConverter, "token")
