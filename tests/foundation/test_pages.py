"""The landing page and the API schema are served, with assets from the project itself."""

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_home_page_names_the_product_and_its_roles(client: Client) -> None:
    response = client.get(reverse("home"))

    assert response.status_code == 200
    body = response.content.decode()
    assert "<title>FloorDesk" in body
    for role in ("Directors", "Dealers", "Players"):
        assert role in body


@pytest.mark.django_db
def test_home_page_loads_htmx_and_css_from_the_project(client: Client) -> None:
    body = client.get(reverse("home")).content.decode()

    assert 'src="/static/vendor/htmx.min.js"' in body
    assert 'href="/static/css/app.css"' in body
    assert "http://" not in body
    assert "https://" not in body


@pytest.mark.parametrize("asset", ["vendor/htmx.min.js", "css/app.css"])
def test_static_assets_exist(asset: str) -> None:
    assert finders.find(asset) is not None


def test_vendored_htmx_is_version_2() -> None:
    path = finders.find("vendor/htmx.min.js")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as handle:
        assert 'version:"2.' in handle.read()


def test_api_schema_is_openapi(client: Client) -> None:
    response = client.get(reverse("api-schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_api_docs_page_uses_no_cdn(client: Client) -> None:
    response = client.get(reverse("api-docs"))

    assert response.status_code == 200
    body = response.content.decode()
    assert "/static/drf_spectacular_sidecar/" in body
    assert "cdn." not in body
