"""`{% load jinja %}{% jinja_include "dealer/_tablet.html" %}`: a template of the tablet's
(`templates/jinja2/`, `config/jinja.py`) inside a Django page or sheet, so that the tablet page,
the sheets and the cash table show the tablet's pieces from their one template."""

from __future__ import annotations

from typing import Any, cast

from django import template
from django.template import engines
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja_include(context: template.Context, name: str, **extra: Any) -> SafeString:
    """The Jinja2 template `name` rendered with this template's context and `extra` (as
    `{% include name with key=value %}` would), with the request (the CSRF field)."""
    found = engines["jinja2"].get_template(name)
    values = cast(dict[str, Any], context.flatten()) | extra
    return mark_safe(found.render(values, getattr(context, "request", None)))
