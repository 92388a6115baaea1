# The FloorDesk image: web (gunicorn), Celery worker and beat all run from it (compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Exactly the locked runtime versions, each checked against its hash (`make lock` writes them).
COPY requirements/prod.txt requirements/prod.txt
RUN pip install --require-hashes -r requirements/prod.txt

COPY . .

# Hashed, compressed static files for whitenoise, made once at build time. The settings only
# need to load here: no database, no Redis, and the key signs nothing.
RUN DEBUG=0 python manage.py collectstatic --noinput

# The processes run as a user that can write nothing of the code or the static files.
RUN useradd --system --uid 10001 --no-create-home --home-dir /nonexistent floordesk
USER floordesk

EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"]
