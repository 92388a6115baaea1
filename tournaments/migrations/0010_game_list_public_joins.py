"""A name typed on a phone joins a game's list even when that player is on it already (issue 23:
a refusal told strangers who waits): a game's list may hold two entries of one player, which the
desk sees marked. The desk's own joins are still refused by the service. A phone's entry keeps
the name as typed, which its place shows (the room's spelling would tell that it knows them)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_cash_movements"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="waitinglistentry",
            name="one_game_list_entry_per_player",
        ),
        migrations.AddField(
            model_name="waitinglistentry",
            name="name_typed",
            field=models.CharField(blank=True, default="", max_length=80),
        ),
    ]
