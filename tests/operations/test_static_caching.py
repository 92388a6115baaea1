"""Static files once collected, as the image serves them (Dockerfile: `collectstatic`).

Hashed names (`css/app.3f1c….css`) with far-future caching: WhiteNoise answers
`Cache-Control: max-age=315360000, public, immutable` for a hashed name, which a browser keeps
for ten years without asking again, and the gzip and Brotli copies made at build time. A new
version of a file is a new name, so nothing stale is ever served. docs/operations.md,
"Compression and caching".
"""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command
from django.http import HttpResponse
from django.templatetags.static import static
from django.test import RequestFactory, override_settings
from whitenoise.compress import Compressor  # type: ignore[import-untyped]
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]

HASHED = "whitenoise.storage.CompressedManifestStaticFilesStorage"
# Every file is collected and hashed, as the image's build does, so a broken reference in any
# stylesheet still fails here; the JavaScript and source maps are not compressed in this test.
# Compressing them (the API docs' 9 MB of bundles and maps, Brotli at its top level) was nine
# tenths of the test's time, both cores for half a minute, and says nothing the stylesheet's
# compressed copies below do not.
NOT_COMPRESSED_HERE = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "js", "map")


def test_collected_static_files_have_hashed_names_cached_forever(tmp_path: Path) -> None:
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": HASHED},
    }
    with override_settings(
        STATIC_ROOT=tmp_path,
        STORAGES=storages,
        WHITENOISE_USE_FINDERS=False,
        WHITENOISE_AUTOREFRESH=False,  # as production runs (the suite's default is True)
        WHITENOISE_SKIP_COMPRESS_EXTENSIONS=NOT_COMPRESSED_HERE,
        DEBUG=False,
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        url = static("css/screens.css")
        middleware = WhiteNoiseMiddleware(lambda request: HttpResponse(status=404))

        hashed = middleware(RequestFactory().get(url, headers={"Accept-Encoding": "gzip, br"}))
        plain = middleware(RequestFactory().get("/static/css/screens.css"))
        hashed.close()  # the files WhiteNoise opened
        plain.close()

    assert url != "/static/css/screens.css"  # css/screens.<hash>.css
    assert hashed.status_code == 200
    assert hashed["Cache-Control"] == "max-age=315360000, public, immutable"
    assert hashed["Content-Encoding"] in {"br", "gzip"}
    assert "Accept-Encoding" in hashed["Vary"]
    # The name without its hash is still served, for a minute only.
    assert plain.status_code == 200
    assert plain["Cache-Control"] == "max-age=60, public"
    assert list(tmp_path.glob("css/screens.*.css.gz"))  # compressed once, at build time
    # Every app's files are collected and hashed, the API docs' bundles too.
    assert list(tmp_path.glob("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.*.js"))
