"""The cash floor's tasks: the beat's schedule names tasks the worker knows, and the rotation's
look-ahead runs in a real Celery worker process (Redis, PostgreSQL) as the beat would send it.
On CI (REQUIRE_SERVICES=1) a missing PostgreSQL or Redis fails the worker test."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from dealer.rotation import services
from dealer.tasks import rotation_extend_task
from tests.dealer.test_rotation import cash_tables
from tests.factories import DealerFactory, make
from tests.tournaments.test_tasks import worker_queue  # noqa: F401  (the fixture)
from tournaments.models import DealerDown


def test_every_task_the_beat_sends_is_one_the_worker_knows() -> None:
    from config.celery import app

    app.loader.import_default_modules()
    names = [entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()]
    assert "dealer.tasks.rotation_extend_task" in names
    assert [name for name in names if name not in app.tasks] == []


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_rotation_look_ahead_in_a_real_worker_writes_on_once(worker_queue: str) -> None:  # noqa: F811
    tables = cash_tables(3)
    start = timezone.now() - timedelta(hours=6, minutes=5)
    for n in range(4):
        dealer = make(DealerFactory, username=f"worker-dealer-{n}")
        services.dealer_shift_start(dealer_id=dealer.pk, at=start - timedelta(minutes=10 - n))
    services.rotation_plan_set(down_minutes=20, downs_before_break=4, break_minutes=20)
    services.rotation_start(at=start)
    ends = DealerDown.objects.order_by("-ends_at").values_list("ends_at", flat=True)
    assert ends[0] == start + timedelta(hours=8)  # under two hours left: due

    def run() -> int:
        return int(rotation_extend_task.apply_async(queue=worker_queue).get(timeout=90))

    assert run() > 0
    ends = DealerDown.objects.order_by("-ends_at").values_list("ends_at", flat=True)
    assert ends[0] > timezone.now() + timedelta(hours=7)
    assert run() == 0  # sent again (a repeated beat): nothing more to write
    # Seven hours on, every table still has its dealer at the push.
    later = timezone.now() + timedelta(hours=7)
    at_push = DealerDown.objects.filter(
        starts_at__lte=later, ends_at__gt=later, table__isnull=False
    )
    assert sorted(at_push.values_list("table_id", flat=True)) == [t.pk for t in tables]
