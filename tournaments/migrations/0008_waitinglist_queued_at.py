"""A waiting list's order gets a field of its own (`queued_at`): the players of a broken game
were put at the top of a list by dating their entries back, so the desk's "since" showed a time
they had not joined at. Existing entries keep their order: `queued_at` starts as `created_at`."""

import django.utils.timezone
from django.db import migrations, models
from django.db.models import F


def queued_when_created(apps, schema_editor):
    entries = apps.get_model("tournaments", "WaitingListEntry")
    entries.objects.update(queued_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_cash_floor"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="waitinglistentry",
            options={"ordering": ["queued_at", "pk"]},
        ),
        migrations.AddField(
            model_name="waitinglistentry",
            name="queued_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.RunPython(queued_when_created, migrations.RunPython.noop),
    ]
