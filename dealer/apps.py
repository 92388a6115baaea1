from django.apps import AppConfig


class DealerConfig(AppConfig):
    name = "dealer"
    verbose_name = "Dealer assist"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The floor reads the tables' hands through this reader (`tournaments.hands`): it
        # imports nothing of this app but the engine.
        from dealer.selectors import DealerHandReader
        from tournaments.hands import hand_reader_set

        hand_reader_set(DealerHandReader())
