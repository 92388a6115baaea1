# The API's stored first answers leave for the common app (issue 28): removed from this app's
# state only, the table and its rows untouched (`common.0001_api_write` takes them over).

from django.db import migrations


def _relabel(apps, old, new):
    """The model's content type (and so its permissions) follows it. A row under the new label
    (made by a `migrate` after this one was reversed) gives way to the old one, which holds
    whatever was granted."""
    content_type = apps.get_model("contenttypes", "ContentType")
    moved = content_type.objects.filter(app_label=old, model="apiwrite")
    if moved.exists():
        content_type.objects.filter(app_label=new, model="apiwrite").delete()
        moved.update(app_label=new)


def content_type_to_common(apps, schema_editor):
    _relabel(apps, "tournaments", "common")


def content_type_back(apps, schema_editor):
    _relabel(apps, "common", "tournaments")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0017_api_writes'),
        ('contenttypes', '0002_remove_content_type_name'),
        # The cash app's copy of its old answers reads this app's model as it was.
        ('cash', '0008_api_writes_shared'),
        ('common', '0001_api_write'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='ApiWrite')],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to_common, content_type_back),
    ]
