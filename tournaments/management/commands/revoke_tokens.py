"""`manage.py revoke_tokens <username>...` (or `--all`): every API token of those users stops
working at once; their devices must sign in again. The desk's "Sign-ins and devices" page does
the same for one user (`tournaments.services.access.user_devices_revoke`); `--all` rotates
every token, e.g. after a tablet was lost or a password leaked. Locked-out accounts are
unlocked with django-axes' `axes_reset_username <username>` (or on the same page)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from knox.models import get_token_model

from tournaments.services.access import user_devices_revoke


class Command(BaseCommand):
    help = "Revoke every API token of the given users (or of everyone, with --all)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("usernames", nargs="*", help="whose tokens to revoke")
        parser.add_argument("--all", action="store_true", help="every user's tokens")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()._default_manager
        usernames: list[str] = options["usernames"]
        if options["all"]:
            user_ids = list(get_token_model().objects.values_list("user_id", flat=True).distinct())
        elif usernames:
            found = dict(users.filter(username__in=usernames).values_list("username", "pk"))
            missing = sorted(set(usernames) - found.keys())
            if missing:
                raise CommandError(f"No such user: {', '.join(missing)}.")
            user_ids = list(found.values())
        else:
            raise CommandError("Name the users whose tokens to revoke, or pass --all.")
        revoked = sum(
            user_devices_revoke(user_id=user_id, actor=None, reason="revoke_tokens")
            for user_id in user_ids
        )
        self.stdout.write(f"Revoked {revoked} token{'s' if revoked != 1 else ''}.")
