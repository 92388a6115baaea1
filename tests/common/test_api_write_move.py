"""The API's stored answers move to the common app (issue 28) with their table and rows: an
answer stored before the upgrade is still found after it, and the model's content type (with its
permissions) follows the model."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from common.models import ApiWrite

BEFORE = [("tournaments", "0017_api_writes"), ("cash", "0008_api_writes_shared")]


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_every_stored_answer_and_the_content_type() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    old.get_model("tournaments", "ApiWrite").objects.create(
        client_id="sent-before-0001", method="POST", path="/api/x/", status=201, body="{}"
    )
    ContentType.objects.filter(model="apiwrite").delete()
    ContentType.objects.create(app_label="tournaments", model="apiwrite")

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    kept = ApiWrite.objects.get()
    assert (kept.client_id, kept.status, kept.body) == ("sent-before-0001", 201, "{}")
    labels = ContentType.objects.filter(model="apiwrite").values_list("app_label", flat=True)
    assert list(labels) == ["common"]
