# The one image for web (gunicorn), live (uvicorn), worker and beat (celery) and the migrate job; see
# docker-compose.yml and the README's "Production deployment".
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app \
    DJANGO_STATIC_ROOT=/app/staticfiles

WORKDIR /app

# The PDFs (printing/) embed DejaVu Sans: a TrueType font with the Polish letters.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# The dependencies first: this layer is rebuilt only when pyproject.toml changes.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The project itself (also installs the `kierki` command), then the static files for WhiteNoise.
# collectstatic needs no database or secret: with none set, settings are the embedded defaults.
COPY . .
RUN pip install --no-deps . \
    && rm -rf build *.egg-info \
    && python manage.py collectstatic --noinput \
    && groupadd --system --gid 1000 kierki \
    && useradd --system --uid 1000 --gid kierki --home-dir /app --no-create-home --shell /usr/sbin/nologin kierki \
    && mkdir -p /var/lib/kierki/beat /var/lib/kierki/checkpoints \
    && chown -R kierki:kierki /var/lib/kierki

# The arbiter's search compiled with mypyc (docs/analysis.md, "Speed": about 12× faster, within the
# 1 s target from any position with up to 7 tricks left); the compiler and mypy leave with this
# layer (the extension needs neither at run time; it needs librt, a dependency of the project).
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install "mypy>=2.4" \
    && python -m games.engine.compiled build \
    && pip uninstall -y mypy ast-serialize \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

USER kierki
EXPOSE 8000
CMD ["gunicorn", "--config", "docker/gunicorn.conf.py", "config.wsgi"]
