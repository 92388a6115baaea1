"""The browser's policies on every answer, and pages that need nothing they forbid (issue 23).

Every page of the URL configuration (the same enumeration and demo floor as the form fuzz,
tests/security/test_form_fuzz.py), fetched as the director, the table's dealer and an anonymous
visitor, whatever it answers (200, a redirect to the sign-in, 403, 405), plus the admin and the
API docs: each carries a Content-Security-Policy whose scripts come from the site alone, the
Referrer-Policy and the Permissions-Policy. Each page that answers HTML, and every template
file, carries no inline executable script, no inline handler (`on*=`, htmx's `hx-on`), no
`javascript:` address and no inline style: the policy would refuse them and the page would break.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.browser import permissions_policy
from dealer.views.present import seat_css
from tests.security.test_form_fuzz import build_floor, clients, page_urls

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"

# An opening tag and its attributes (template tags inside it are part of the attributes).
TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)((?:[^<>]|\{%[^%]*%\}|\{\{[^}]*\}\})*)>")
INLINE_ATTRIBUTE = re.compile(r"(?:^|[\s}])(on[a-z]+|hx-on[\w:.-]*|style)\s*=", re.IGNORECASE)
SCRIPT_DATA = re.compile(r"""\btype\s*=\s*["']?application/(?:ld\+)?json""", re.IGNORECASE)


def inline_code(html: str) -> list[str]:
    """What in a page (or a template) the policy refuses: an inline script that would run, an
    inline handler or style attribute, a <style> element, a javascript: address."""
    found = []
    for match in TAG.finditer(html):
        tag, attributes = match.group(1).lower(), match.group(2)
        if tag == "script" and "src=" not in attributes and not SCRIPT_DATA.search(attributes):
            found.append(match.group(0))  # json_script's data blocks are never run
        if tag == "style":
            found.append(match.group(0))
        if INLINE_ATTRIBUTE.search(attributes) or "javascript:" in attributes.lower():
            found.append(match.group(0))
    return found


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


def policy_problems(url: str, response: object) -> list[str]:
    """The headers an answer lacks, or a policy that lets inline or eval'd script run."""
    headers = response.headers  # type: ignore[attr-defined]
    csp = directives(headers.get("Content-Security-Policy", ""))
    problems = []
    if csp.get("script-src") != ["'self'"]:
        problems.append(f"{url}: script-src {csp.get('script-src')}")
    if csp.get("default-src") != ["'self'"] or csp.get("object-src") != ["'none'"]:
        problems.append(f"{url}: default-src/object-src {csp}")
    if csp.get("frame-ancestors") != ["'none'"] or csp.get("base-uri") != ["'self'"]:
        problems.append(f"{url}: frame-ancestors/base-uri {csp}")
    if headers.get("Referrer-Policy") != "same-origin":
        problems.append(f"{url}: Referrer-Policy {headers.get('Referrer-Policy')}")
    if "camera=()" not in headers.get("Permissions-Policy", ""):
        problems.append(f"{url}: Permissions-Policy {headers.get('Permissions-Policy')}")
    return problems


def test_the_policy_allows_no_inline_or_eval() -> None:
    policy = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]

    for directive in ("script-src", "style-src", "default-src"):
        assert "'unsafe-inline'" not in policy[directive]
        assert "'unsafe-eval'" not in policy[directive]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


@pytest.mark.django_db
def test_every_page_answers_with_the_policies_and_no_inline_code() -> None:
    floor = build_floor()
    extra = [
        reverse("admin:index"),
        reverse("admin:login"),
        reverse("admin:tournaments_tournament_changelist"),
        reverse("admin:tournaments_tournament_change", args=[floor.tournament.pk]),
        reverse("api-docs"),
        reverse("api-docs") + "?script",
        reverse("api-schema"),
        reverse("api-devices"),  # the API's JSON answers carry the policies too
        "/no-such-page/",
    ]
    problems: list[str] = []
    pages = 0
    for role, client in clients(floor).items():
        for url in page_urls(floor) + extra:
            response = client.get(url)
            problems += [f"{role} {p}" for p in policy_problems(url, response)]
            if "text/html" in response.get("Content-Type", "") and response.status_code == 200:
                pages += 1
                problems += [f"{role} {url}: {code}" for code in inline_code(response.text)]

    assert pages > 100  # the enumeration did reach the pages
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_an_early_304_carries_the_policies(client: Client) -> None:
    floor = build_floor()
    url = reverse("public-state", args=[floor.tournament.pk])
    first = client.get(url, headers={"HX-Request": "true"})
    again = client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})

    assert again.status_code == 304
    assert not policy_problems(url, again)


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_no_template_has_inline_code(path: Path) -> None:
    assert inline_code(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "html",
    [
        "<script>alert(1)</script>",
        '<button onclick="go()">',
        '<div hx-on:click="alert(1)">',
        '<a href="javascript:go()">',
        '<div class="a" style="--x: 1%">',
        "<style>p { color: red }</style>",
        '<input {% if a %}onfocus="this.select()"{% endif %}>',
    ],
)
def test_the_scan_finds_inline_code(html: str) -> None:
    assert inline_code(html)


@pytest.mark.parametrize(
    "html",
    [
        '<script src="/static/js/tablet.js" defer></script>',
        '<script id="board-data" type="application/json">{"a": 1}</script>',
        '<button type="button" data-print>Print</button>',
        '<div hx-get="/x/" hx-trigger="every 5s" data-online="1">',
    ],
)
def test_the_scan_passes_what_the_policy_allows(html: str) -> None:
    assert inline_code(html) == []


def test_seat_css_matches_the_seat_layout() -> None:
    written = (ROOT / "static" / "css" / "seats.css").read_text(encoding="utf-8")

    assert written == seat_css(), "static/css/seats.css is stale: run `manage.py seat_css`"


def test_permissions_policy_header_format() -> None:
    value = permissions_policy({"camera": [], "geolocation": ["self", "https://maps.example"]})

    assert value == 'camera=(), geolocation=(self "https://maps.example")'
