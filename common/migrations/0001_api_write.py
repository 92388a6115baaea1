# The API's stored first answers (`common.api.once`), moved from the floor app (issue 28): added
# to this app's state only; the table `tournaments_apiwrite` that
# `tournaments.0017_api_writes` made stays as it is, with its rows.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0017_api_writes'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ApiWrite',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('client_id', models.CharField(max_length=64, unique=True)),
                        ('method', models.CharField(max_length=8)),
                        ('path', models.CharField(max_length=200)),
                        ('status', models.PositiveSmallIntegerField()),
                        ('body', models.TextField(blank=True)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tournaments_apiwrite',
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
