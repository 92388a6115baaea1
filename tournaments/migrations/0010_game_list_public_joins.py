"""A name typed on a phone joins a game's list even when that player is on it already (issue 23:
a refusal told strangers who waits): a game's list may hold two entries of one player, which the
desk sees marked. The desk's own joins are still refused by the service."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_cash_movements"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="waitinglistentry",
            name="one_game_list_entry_per_player",
        ),
    ]
