from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # `check --deploy` refuses the development defaults, as a production start does.
        import config.production
        import config.schema  # noqa: F401 - the schema's description of the token sign-in

        # A user deactivated or taken out of the dealer group loses every API token at once.
        import tournaments.services.access  # noqa: F401 - connects its receivers
