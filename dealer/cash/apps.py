from django.apps import AppConfig


class CashConfig(AppConfig):
    """The cash floor: its own app (label `cash`) since issue 25, its models out of
    `tournaments.models`."""

    name = "dealer.cash"
    label = "cash"
    verbose_name = "Cash floor"
    default_auto_field = "django.db.models.BigAutoField"
