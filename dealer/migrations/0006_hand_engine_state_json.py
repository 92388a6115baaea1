"""The stored engine state is JSON now (issue 12): the pickles stored before are dropped, never
read. Each hand in progress replays its log at its next write and stores its state afresh."""

from django.db import migrations, models


def drop_pickled_states(apps, schema_editor):
    Hand = apps.get_model("dealer", "Hand")
    Hand.objects.exclude(engine_state=None).update(engine_state=None)


class Migration(migrations.Migration):

    dependencies = [
        ('dealer', '0005_hand_for_hand_round'),
    ]

    operations = [
        migrations.AlterField(
            model_name='hand',
            name='engine_state',
            field=models.BinaryField(editable=False, help_text="the engine's state at this version, as JSON after a header (dealer/state_cache.py): the next write starts from it instead of replaying the log", null=True),
        ),
        migrations.RunPython(drop_pickled_states, migrations.RunPython.noop),
    ]
