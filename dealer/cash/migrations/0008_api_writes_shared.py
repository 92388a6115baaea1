"""The cash API's stored answers join every API write's (`tournaments.ApiWrite`): one table, one
mechanism (`tournaments.api.once`). The answers kept so far are copied, so that a device
resending across the upgrade still gets its first answer."""

import json

from django.db import migrations


def copy_answers(apps, schema_editor):
    old = apps.get_model("cash", "CashApiWrite")
    new = apps.get_model("tournaments", "ApiWrite")
    new.objects.bulk_create(
        [
            new(
                client_id=row.client_id,
                actor_id=row.actor_id,
                method="POST",
                path=row.path,
                status=row.status,
                body="" if row.response is None else json.dumps(row.response),
                created_at=row.created_at,
            )
            for row in old.objects.all()
        ],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("cash", "0007_api_writes"),
        ("tournaments", "0017_api_writes"),
    ]

    operations = [
        migrations.RunPython(copy_answers, migrations.RunPython.noop),
        migrations.DeleteModel(name="CashApiWrite"),
    ]
