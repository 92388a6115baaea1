from django.apps import AppConfig


class DealerConfig(AppConfig):
    name = "dealer"
    verbose_name = "Dealer assist"
    default_auto_field = "django.db.models.BigAutoField"
