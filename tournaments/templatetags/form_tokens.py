"""`{% load form_tokens %}` then `{% form_token %}` inside a desk form that changes chips or
places: a hidden one-time token, fresh for every form drawn (see tournaments.views.form_tokens)."""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.views.form_tokens import FIELD

register = template.Library()


@register.simple_tag
def form_token() -> SafeString:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4().hex)
