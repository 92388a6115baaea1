"""(placeholder: filled in by the issue-14 work on knockouts)"""

from __future__ import annotations

from django.urls import URLPattern

urls: list[URLPattern] = []
