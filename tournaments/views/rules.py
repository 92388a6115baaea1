"""The rules editor on the desk: a tournament's rules (under its tabs) and a cash table's, for
directors. One page per target: every option grouped like RULES.md with its sentence, its value
and the profile's default. Saving calls `rules_set`; "back to the default", a new profile and
(with htmx) any change are previews, answered with the form as it would be saved, refusals
included, and nothing stored until *Save rules*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from django.contrib import messages
from django.forms import BoundField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from common.errors import FloorError
from tournaments.forms import RulesForm
from tournaments.selectors.rules import (
    OptionRow,
    Refusal,
    RulesView,
    Target,
    rules_changes,
    rules_view,
)
from tournaments.services.rules import RulesRefused, rules_lock, rules_set
from tournaments.views.access import director_required, tournament_get
from tournaments.views.form_tokens import attempt


@dataclass(frozen=True, slots=True, kw_only=True)
class Page:
    """Where the editor of one target lives: its template, its address, and what the template
    needs besides the form."""

    template: str
    url: str
    context: dict[str, object]


OptionField = tuple[OptionRow, BoundField | None]


class GroupRows(TypedDict):
    """A group of options as the template draws it."""

    key: str
    title: str
    rows: list[OptionField]
    others: list[OptionField]
    open: bool


def _rows(view: RulesView, form: RulesForm, refusal: Refusal | None) -> list[GroupRows]:
    """The groups for the template: each option with its form field (None for the fixed
    ones), the options that apply first and the others apart (shown open when one of them is
    refused)."""

    def pair(option: OptionRow) -> OptionField:
        return option, form[option.key] if option.key in form.fields else None

    def refused(option: OptionRow) -> bool:
        fault = refusal is not None and refusal.key == option.key
        return fault or bool(form.is_bound and form.errors.get(option.key))

    return [
        {
            "key": group.key,
            "title": group.title,
            "rows": [pair(o) for o in group.options if o.applies],
            "others": [pair(o) for o in group.options if not o.applies],
            "open": any(refused(o) for o in group.options if not o.applies),
        }
        for group in view.groups
    ]


def _render(
    request: HttpRequest,
    page: Page,
    view: RulesView,
    form: RulesForm,
    *,
    lock: FloorError | None,
    refusal: Refusal | None = None,
    unsaved: bool = False,
) -> HttpResponse:
    refusal = refusal or view.refusal
    context = {
        **page.context,
        "rules": view,
        "form": form,
        "groups": _rows(view, form, refusal),
        "lock": lock,
        "refusal": refusal,
        "unsaved": unsaved,
        "rules_url": page.url,
    }
    return render(request, page.template, context)


def _preview(target: Target, form: RulesForm, reset: str) -> RulesView:
    """The rules the form asks for, with `reset` (an option's key) back at the default: the
    options changed from the profile shown, over the profile picked."""
    changes = rules_changes(target, form.shown(), form.option_values())
    changes.pop(reset, None)
    return rules_view(target, profile=form.cleaned_data["profile"], overrides=changes)


def rules_editor(request: HttpRequest, target: Target, page: Page) -> HttpResponse:
    lock = rules_lock(target)
    stored = rules_view(target)
    if request.method != "POST":
        form = RulesForm(view=stored, locked=lock is not None)
        return _render(request, page, stored, form, lock=lock)
    form = RulesForm(request.POST, view=stored, locked=lock is not None)
    if not form.is_valid():
        return _render(request, page, stored, form, lock=lock)
    reset = request.POST.get("reset", "")
    view = _preview(target, form, reset)
    if reset or request.POST.get("preview"):
        unsaved = (view.profile, view.values) != (stored.profile, stored.values)
        shown = RulesForm(view=view, locked=lock is not None)
        return _render(request, page, view, shown, lock=lock, unsaved=unsaved)
    saved = attempt(
        lambda: rules_set(
            target=target, profile=view.profile, values=view.overrides, actor=request.user
        )
    )
    if isinstance(saved, FloorError):  # drawn with the option it concerns, when one does
        key = saved.key if isinstance(saved, RulesRefused) else None
        refusal = Refusal(code=saved.code, detail=saved.detail, key=key)
        return _render(request, page, view, form, lock=lock, refusal=refusal)
    messages.success(request, "Rules saved: they apply from the next hand.")
    return redirect(page.url)


@director_required
@require_http_methods(["GET", "POST"])
def tournament_rules_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament's rules, under its tabs."""
    tournament = tournament_get(pk)
    page = Page(
        template="desk/rules.html",
        url=reverse("tournament-rules", args=[pk]),
        context={"tournament": tournament, "tab": "rules"},
    )
    return rules_editor(request, tournament, page)
