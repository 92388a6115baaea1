from django.apps import AppConfig


class CommonConfig(AppConfig):
    """The shared kit of the two apps; its one model is the API's stored first answers
    (`common.models.ApiWrite`), whose table kept its name from the floor app."""

    name = "common"
    label = "common"
    verbose_name = "Common"
    default_auto_field = "django.db.models.BigAutoField"
