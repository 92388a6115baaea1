"""The Jinja2 environment of the tablet's templates (`templates/jinja2/`, issue 24).

The tablet's regions (the table, the seats, the pots, the log, the dock with its forms) are
Jinja2 templates: a tap's answer renders them for a fraction of what Django's template engine
costs. The whole tablet, the tap's answer and the sheets and pages that show a piece of the
tablet (`{% jinja_include %}`, `tournaments/templatetags/jinja.py`) all render these same files:
each region has one template. Every other page stays with Django's templates.

The filters are the ones the Django templates use, by the same functions: `chips` and `blinds`
(`tournaments.templatetags.floor`), `capfirst`, `pluralize` and `time` (Django's own). Numbers
are written as they are, as `{% localize off %}` wrote them in the Django templates.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template import defaultfilters
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.timezone import is_aware, localtime
from jinja2 import ChainableUndefined, Environment, Undefined

from tournaments.templatetags.floor import blinds, chips


def url(name: str, *args: object) -> str:
    """`url('deal-action', table.pk)`: Django's `{% url 'deal-action' table.pk %}`."""
    return reverse(name, args=args)


def time(value: datetime | None, format_string: str) -> str:
    """`|time('H:i')`: Django's `|time:"H:i"`, in the current time zone as Django's engine
    converts a datetime before that filter."""
    local = localtime(value) if value is not None and is_aware(value) else value
    return defaultfilters.time(local, format_string)


def csrf_once(request: HttpRequest) -> dict[str, SimpleLazyObject]:
    """A context processor: the CSRF field, masked once per answer, as Django's templates write
    `{% csrf_token %}` (the backend's own `csrf_input` masks the token anew for every form: a
    tap's answer has two or three, and masking cost more than the rest of the action bar)."""

    def field() -> str:
        return format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
        )

    return {"csrf_input": SimpleLazyObject(field)}


def _blank_if_undefined(filter_: Callable[..., str]) -> Callable[..., str]:
    """The filter, given "" for a missing value, as Django's engine gives its filters."""
    return lambda value, *args: filter_("" if isinstance(value, Undefined) else value, *args)


class TabletEnvironment(Environment):
    """`a.b` looks up a dict's key first, as Django's templates do: the regions' data are dicts
    (the action bar, the pots, the log's lines), and Jinja2's own order (the attribute first)
    raised and caught an AttributeError for each of them, about a hundred a tap."""

    def getattr(self, obj: object, attribute: str) -> object:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def environment(**options: Any) -> Environment:  # the Jinja2 backend's OPTIONS, for Jinja2
    # A missing variable, or an attribute of one, prints nothing, as in Django's templates, and
    # so with DEBUG too (where the backend's default prints its name). Django keeps a template's
    # last newline; so does this engine, for the same markup.
    options["undefined"] = ChainableUndefined
    env = TabletEnvironment(keep_trailing_newline=True, **options)
    env.globals["url"] = url
    env.filters.update(
        chips=_blank_if_undefined(chips),
        blinds=_blank_if_undefined(blinds),
        capfirst=defaultfilters.capfirst,
        pluralize=defaultfilters.pluralize,
        time=time,
    )
    return env
