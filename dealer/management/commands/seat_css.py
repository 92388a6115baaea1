"""`manage.py seat_css`: write static/css/seats.css, the seats' places around the tablet's oval."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from dealer.views.present import seat_css

SEATS_CSS = Path(settings.BASE_DIR) / "static" / "css" / "seats.css"


class Command(BaseCommand):
    help = (
        "Write static/css/seats.css from the seat layout (dealer.views.present.seat_position): "
        "one class per seat of each table size, so the tablet needs no inline style."
    )

    def handle(self, *args: object, **options: object) -> None:
        SEATS_CSS.write_text(seat_css(), encoding="utf-8")
        self.stdout.write(f"Wrote {SEATS_CSS}")
