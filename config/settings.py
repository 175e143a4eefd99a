"""Django settings for kierki.

Everything configurable comes from environment variables, read through the small typed
helpers below; a malformed value stops start-up with ImproperlyConfigured. With no
variables set at all, the project runs embedded: SQLite, DEBUG on, Celery tasks run eagerly.
"""

import os
import zoneinfo
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from corsheaders.defaults import default_headers as cors_default_headers
from django.core.exceptions import ImproperlyConfigured

from config.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true/false, 1/0, yes/no, on/off)")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate such as ``20/minute``; empty means no throttle."""
    raw = os.environ.get(name, default).strip()
    if not raw:
        return None
    number, _, period = raw.partition("/")
    if not number.isdigit() or not period or period[0] not in "smhd":
        raise ImproperlyConfigured(f"{name}={raw!r} is not a rate like 20/minute (or empty for none)")
    return raw


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------------

_SECRET_KEY = env_str("DJANGO_SECRET_KEY")
# Embedded dev default: DEBUG is on only when no secret key was given.
DEBUG = env_bool("DJANGO_DEBUG", default=not _SECRET_KEY)
if not _SECRET_KEY and not DEBUG:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
SECRET_KEY = _SECRET_KEY or "django-insecure-kierki-embedded-dev-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "rest_framework.authtoken",
    "oauth2_provider",  # OAuth 2.0 for third-party apps (docs/oauth.md)
    "accounts",  # personal access tokens (docs/oauth.md)
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from the project: /api/v1/docs/ works offline
    "games",
    "scoring",
    "webhooks",
    "api",
    "web",
]

MIDDLEWARE = [
    "config.middleware.RequestIDMiddleware",  # first: every log line of the request carries its id
    # The request's API version for the problems any later layer answers; v1 answers name their v2 twin.
    "api.versioning.APIVersionMiddleware",
    "config.health.HealthCheckMiddleware",  # /healthz, /readyz: before host checks and the HTTPS redirect
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.BodySizeLimitMiddleware",
    "config.login_limits.LoginFailureLimitMiddleware",  # before CSRF: a refused attempt reads no form
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the switch's cookie, else Accept-Language, else LANGUAGE_CODE (docs/i18n.md).
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.ApiTimeZoneMiddleware",  # the API's timestamps stay UTC; pages show TIME_ZONE
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.replica.ReplicaPinMiddleware",  # after authentication: pins a user who writes to the primary
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",  # request.htmx: the pages that check as you type (issue 23)
    "web.middleware.LogUnreadableMiddleware",  # a page on a match whose log was altered: 409, not 500
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Seconds a connection is reused; 0 under ASGI (config/asgi.py), where each request's
        # synchronous code runs in a thread of its own that a kept connection would outlive.
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# PostgreSQL: once a connection has run a statement this many times, psycopg prepares it (the
# parameters bound on the server), so that the hot ones (the token, the match lock, the event
# append) are no longer parsed and planned on every request: a third of PostgreSQL's CPU per card
# play (benchmarks/api_plays.py). 0: client-side binding, nothing prepared (for a PgBouncer in
# transaction mode older than 1.21, which cannot keep prepared statements).
DATABASE_PREPARE_THRESHOLD = env_int("DATABASE_PREPARE_THRESHOLD", 5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DATABASE_PREPARE_THRESHOLD > 0:
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=DATABASE_PREPARE_THRESHOLD
    )
# A streaming replica for the reads that may lag (config/replica.py, docs/postgresql-scale.md): only
# code inside `reads_from_replica` reads there; a user who just wrote reads from the primary for
# DATABASE_REPLICA_PIN_SECONDS (longer than the replica's usual lag). Tests mirror it to the primary.
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL").strip()
DATABASE_REPLICA_PIN_SECONDS = 10
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {
        **dj_database_url.parse(
            DATABASE_REPLICA_URL, conn_max_age=DATABASES["default"]["CONN_MAX_AGE"], conn_health_checks=True
        ),
        "OPTIONS": dict(DATABASES["default"].get("OPTIONS", {})),
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_ROUTERS = ["config.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth, i18n, static -----------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Members: invitations and e-mail (password reset) ------------------------------------

# An invitation link to claim a club's player profile works once, for this many hours.
INVITATION_TTL_HOURS = env_int("INVITATION_TTL_HOURS", 7 * 24)
# Password reset mails go through Django's e-mail backend: printed to the console unless
# EMAIL_HOST names an SMTP server.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: set one of them")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "kierki@localhost")
# The font the PDFs are printed in (a TrueType font with Polish letters).
PDF_FONT = env_str("PDF_FONT", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
PDF_FONT_BOLD = env_str("PDF_FONT_BOLD", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

# Polish by default; English on request (Accept-Language, or the switch on every page). Codes,
# enum values and JSON keys stay English whatever the language (docs/i18n.md).
LANGUAGES = [("pl", "Polski"), ("en", "English")]
LANGUAGE_CODE = env_str("LANGUAGE_CODE", "pl").strip() or "pl"
if LANGUAGE_CODE not in dict(LANGUAGES):
    raise ImproperlyConfigured(f"LANGUAGE_CODE={LANGUAGE_CODE!r}: use one of {', '.join(dict(LANGUAGES))}")
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "kierki_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
USE_I18N = True
# Times are stored in UTC; pages show them in TIME_ZONE (an IANA name). The API keeps UTC.
TIME_ZONE = env_str("TIME_ZONE", "Europe/Warsaw").strip() or "Europe/Warsaw"
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(f"TIME_ZONE={TIME_ZONE!r} is not a time zone name such as Europe/Warsaw") from None
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
# collectstatic (at image build) compresses and fingerprints; WhiteNoise serves them. Not strict,
# so that pages still render where collectstatic never ran (embedded mode, tests).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_MANIFEST_STRICT = False
# Where collectstatic never ran, WhiteNoise serves the apps' static files as found (the docs' Swagger
# UI and ReDoc from drf-spectacular-sidecar, the viewer's scripts); collected files take precedence.
WHITENOISE_USE_FINDERS = True

# --- REST API ---------------------------------------------------------------------------

# Throttles: the token endpoint per client address (password guessing); every request per user,
# and anonymous requests per client address. Empty disables one. In production (DEBUG off) the
# per-user and anonymous ones are on by default (issue 30, finding 2); embedded (DEBUG on: `make run`,
# the tests) they are off unless set. They count in the shared cache (REDIS_URL), not per worker.
API_THROTTLE_AUTH = env_rate("API_THROTTLE_AUTH", "30/minute")
API_THROTTLE_USER = env_rate("API_THROTTLE_USER", "" if DEBUG else "1000/minute")
API_THROTTLE_ANON = env_rate("API_THROTTLE_ANON", "" if DEBUG else "100/minute")
# Failed sign-ins on the login forms (/accounts/login/, /admin/login/), counted per client address
# and per username in the shared cache (config/login_limits.py); past it, 429 until the window ends.
LOGIN_FAILURE_LIMIT = env_rate("LOGIN_FAILURE_LIMIT", "10/hour")
# Issue 30: LOGIN_FAILURE_LIMIT counts per client address AND username (the token endpoint too,
# config/signin_counts.py); these much higher ceilings count a username from every address and an
# address for every username. Empty: that ceiling off.
LOGIN_FAILURE_USER_LIMIT = env_rate("LOGIN_FAILURE_USER_LIMIT", "100/hour")
LOGIN_FAILURE_ADDRESS_LIMIT = env_rate("LOGIN_FAILURE_ADDRESS_LIMIT", "100/hour")
# Password-reset mails per client address and per e-mail address asked for (empty: no limit).
PASSWORD_RESET_ADDRESS_LIMIT = env_rate("PASSWORD_RESET_ADDRESS_LIMIT", "10/hour")
PASSWORD_RESET_ACCOUNT_LIMIT = env_rate("PASSWORD_RESET_ACCOUNT_LIMIT", "3/hour")
# The client address is REMOTE_ADDR, or with N proxies in front the N-th address from the right
# of X-Forwarded-For (set it to 1 behind one TLS proxy, or every client shares its address).
API_NUM_PROXIES = env_int("API_NUM_PROXIES", 0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "api.authentication.BearerTokenAuthentication",  # OAuth and personal access tokens (docs/oauth.md)
        "rest_framework.authentication.SessionAuthentication",
    ],
    # A Bearer token acts only within its scopes (api/oauth_scopes.py); sessions and old tokens in full.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated", "api.permissions.TokenHasScope"],
    # JSON bodies only: the schema then offers one request content type per operation, which is what
    # generated clients need (with form and multipart too, openapi-python-client sent multipart
    # labelled as JSON). The browsable API keeps its raw-JSON form.
    # JSON with the limits of config/limits.py (depth, NUL, huge numbers).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.VersionedPagination",  # ?limit= validated (issue 29, item 3)
    # /api/v1/ and /api/v2/: request.version from the URL's namespace (api/versioning.py)
    "DEFAULT_VERSIONING_CLASS": "api.versioning.APIVersioning",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "api.problems.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": (["api.throttles.UserThrottle"] if API_THROTTLE_USER else [])
    + (["api.throttles.AnonThrottle"] if API_THROTTLE_ANON else []),
    "DEFAULT_THROTTLE_RATES": {"auth": API_THROTTLE_AUTH, "user": API_THROTTLE_USER, "anon": API_THROTTLE_ANON},
    "NUM_PROXIES": API_NUM_PROXIES,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # The browsable API in the reader's language: our view names, labels and frame (api/browsable.py)
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer", "api.browsable.BrowsableAPIRenderer"],
    "VIEW_NAME_FUNCTION": "api.browsable.view_name",
}

# OAuth 2.0 (django-oauth-toolkit, docs/oauth.md): the authorization code with PKCE (S256 only) for
# public and confidential clients, refresh tokens rotated with reuse detection (a refresh token used
# twice revokes its whole family), tokens stored only as checksums. The scopes follow the roles; which
# endpoint needs which is api/oauth_scopes.py's table, their texts (the consent page's) live there too.
# accounts.PersonalToken points at the access token model: its migration names it by this setting.
OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL = "oauth2_provider.AccessToken"
OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "api.oauth_scopes.RoleScopes",
    "DEFAULT_SCOPES": ["matches:read"],
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,  # "plain" refused: S256 only
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,  # the header only, never ?access_token=
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,  # a stolen database holds no usable token
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,  # RFC 9207: the redirect names the issuer (mix-up attacks)
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_REFRESH_TOKEN_SECONDS", 90 * 24 * 3600),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "REQUEST_APPROVAL_PROMPT": "auto",  # asked once per app and scopes; again when an app asks for more
    "ALLOW_LOCALHOST_LOOPBACK": True,  # RFC 8252: desktop apps and bots redirect to 127.0.0.1:<any port>
    # "none": a public app (no secret) names itself by client_id and proves the code with PKCE.
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none", "client_secret_basic", "client_secret_post"],
}
# "http" stays allowed for RFC 8252 loopback redirects only: api.oauth.app_register refuses any other
# http redirect URI (a user's app); the check that flags every http is silenced for that reason.
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]

# Idempotency-Key rows are kept (and honoured) this long; `manage.py purge_idempotency_keys`.
IDEMPOTENCY_KEY_TTL_HOURS = env_int("IDEMPOTENCY_KEY_TTL_HOURS", 24)

# The arbiter's analysis (games/read/analysis.py): the search's budget per position, in nodes (about
# 2-3 M a second of an idle core compiled, 0.35 M pure), not seconds, so that an answer does not depend
# on the machine's load; past it the answer is not exact and gives proven bounds. Positions never
# change: answers are cached (the budget is in the key).
ANALYSIS_BUDGET_NODES = env_int("ANALYSIS_BUDGET_NODES", 10_000_000)
# A search runs as a Celery job, never in the request (GET analysis/ answers 202 until it is cached):
# at most ANALYSIS_JOBS_PER_USER of a user's jobs queued or running at once (more: 429), and a job's
# mark (which stops it being queued twice) lasts ANALYSIS_JOB_SECONDS, after which a lost job is redone.
ANALYSIS_JOBS_PER_USER = env_int("ANALYSIS_JOBS_PER_USER", 3)
ANALYSIS_JOB_SECONDS = env_int("ANALYSIS_JOB_SECONDS", 120)
# The annotated deals (scoring/annotations.py): a Celery job after each deal ends analyses its 53
# positions, ANNOTATION_BUDGET_NODES search nodes each (past it a card's cost is a proven range; nodes,
# not seconds: the same deal gets the same annotation whatever the load); ANNOTATE_DEALS=0
# queues none (``manage.py annotate_deals`` computes them later). On by default only with a broker:
# embedded (no CELERY_BROKER_URL) the job would run eagerly inside the request that ends the deal,
# which would then wait for up to 53 × ANNOTATION_BUDGET_NODES nodes.
ANNOTATE_DEALS = env_bool("ANNOTATE_DEALS", bool(env_str("CELERY_BROKER_URL")))
ANNOTATION_BUDGET_NODES = env_int("ANNOTATION_BUDGET_NODES", 4_000_000)

# Live updates (api/streams.py, served by uvicorn): how often a process reads the versions of the
# matches its streams and long-polls wait for, and the SSE keep-alive comment's interval.
# On PostgreSQL each command NOTIFYs the match it moved and each process LISTENs on one connection
# (docs/live-updates.md); LIVE_RECHECK_SECONDS is then the slow safety re-read that covers a lost
# notification. Without PostgreSQL, or with LIVE_NOTIFY off, processes poll every LIVE_POLL_INTERVAL_MS.
LIVE_NOTIFY = env_bool("LIVE_NOTIFY", True)
LIVE_RECHECK_SECONDS = env_int("LIVE_RECHECK_SECONDS", 5)
# The listener's own PostgreSQL address when DATABASE_URL goes through a transaction-mode pooler
# (PgBouncer), where LISTEN does not work; empty: DATABASE_URL's database.
LIVE_LISTEN_URL = env_str("LIVE_LISTEN_URL")
LIVE_POLL_INTERVAL_MS = env_int("LIVE_POLL_INTERVAL_MS", 250)
LIVE_KEEPALIVE_SECONDS = env_int("LIVE_KEEPALIVE_SECONDS", 15)
if LIVE_POLL_INTERVAL_MS < 10 or LIVE_KEEPALIVE_SECONDS < 1 or LIVE_RECHECK_SECONDS < 1:
    raise ImproperlyConfigured(
        "LIVE_POLL_INTERVAL_MS must be at least 10, LIVE_KEEPALIVE_SECONDS and LIVE_RECHECK_SECONDS at least 1"
    )

SPECTACULAR_SETTINGS = {
    "TITLE": "Kierki match records API",
    "VERSION": "1.0.0",
    "DESCRIPTION": (
        "Run and file matches of Kierki (rozbójnik / odgrywka) under RULES.md. Authenticate with "
        "`Authorization: Bearer <token>` (an OAuth 2.0 access token, code flow with PKCE at /o/authorize/, "
        "or a personal access token; each operation names the scope it needs), "
        "`Authorization: Token <key>` (POST /api/v1/auth/token/, deprecated) or a session. Match and state responses "
        'carry `ETag: "<version>"`; POSTs take `If-Match` (stale → 412) and `Idempotency-Key`. '
        "Errors are application/problem+json (RFC 9457) with `code` and, for rule violations, `rule` and "
        "`error` (the R30 error object). Card lists in examples are placeholders."
    ),
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from drf-spectacular-sidecar's pinned copies, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "DEFAULT_GENERATOR_CLASS": "api.schema_generator.EnglishSchemaGenerator",  # the contract stays English
    "SCHEMA_PATH_PREFIX": r"/api/v[12]",
    # The event streams are plain async views, unseen by drf-spectacular: api/stream_schema.py adds them;
    # api/schema_hooks.py types the path ids by kind and adds the 413 and 415 of every operation that
    # takes a body, and api/problems.py the 503 of every operation.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.stream_schema.add_streams",
        "api.schema_hooks.type_path_ids",
        "api.schema_hooks.add_body_errors",
        "api.problems.document_database_unavailable",
        "api.oauth_scopes.document_insufficient_scope",  # the 403 of every operation a scope guards
        "api.schema_hooks.name_problem_codes",
        "api.schema_v2.describe_v2",  # last: /api/v2/'s lists and times, from v1's (nothing in v1 changes)
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    "TAGS": [
        {"name": "auth", "description": "Tokens."},
        {"name": "matches", "description": "Create, list and read matches; import records."},
        {"name": "commands", "description": "Deal, offer and decide the lead, play: each appends events."},
        {"name": "problems", "description": "The problem types errors refer to."},
        {"name": "clubs", "description": "Clubs and their members (club admins manage them)."},
        {"name": "leagues", "description": "A club's leagues and their default ruleset."},
        {"name": "seasons", "description": "Seasons of a league and their standings (JSON or CSV)."},
        {"name": "players", "description": "Players: matches, season balances, ratings and their history."},
    ],
    "ENUM_NAME_OVERRIDES": {
        "Seat": ["N", "E", "S", "W"],
        "DealKind": ["rozbojnik", "odgrywka"],
        "MatchStatus": "games.models.Match.Status",
        "Dealing": "games.models.Match.Dealing",
        "EventType": "games.models.MatchEvent.Type",
        "RulingType": "games.domain.projections.RULING_TYPES",
        "DisputeStatus": "games.models.Dispute.Status",
        "SeasonStatus": "scoring.models.Season.Status",
        "ClubRole": "scoring.models.Membership.Role",
        "DeliveryStatus": "webhooks.models.Delivery.Status",
        "WebhookEventType": "webhooks.events.EVENT_TYPES",
        "MatchRole": "games.domain.roles.ROLE_NAMES",
        "ConfirmationStatus": "games.domain.confirmation.STATUSES",
        "ConfirmationRule": "games.domain.confirmation.RULES",
        "InvitationStatus": "scoring.members.INVITATION_STATUSES",
        "SeatInvitationStatus": "scoring.members.SEAT_INVITATION_STATUSES",
    },
}

# --- Celery -----------------------------------------------------------------------------

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
if not CELERY_BROKER_URL:
    # Embedded default: no broker, tasks run in-process and their errors propagate.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None

# Redis for the project's own uses (tests, locks); optional.
REDIS_URL = env_str("REDIS_URL")

# Redis down must not hold a request up (docs/operations.md): connecting to it (the broker
# and REDIS_URL) gives up after REDIS_CONNECT_TIMEOUT seconds, a reply after REDIS_SOCKET_TIMEOUT,
# and a task is published with one quick retry; what was not sent waits in the outbox.
REDIS_CONNECT_TIMEOUT = env_int("REDIS_CONNECT_TIMEOUT", 1)
REDIS_SOCKET_TIMEOUT = env_int("REDIS_SOCKET_TIMEOUT", 2)
if REDIS_CONNECT_TIMEOUT < 1:
    raise ImproperlyConfigured("REDIS_CONNECT_TIMEOUT must be at least 1 (second)")
if REDIS_SOCKET_TIMEOUT < 2:  # a worker's BRPOP waits up to 1 s for a task
    raise ImproperlyConfigured("REDIS_SOCKET_TIMEOUT must be at least 2 (seconds)")
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT

# The cache every throttle and the login limit count in (docs/limits.md): Redis at REDIS_URL,
# shared by all workers and nodes, with the timeouts above; without REDIS_URL (the embedded
# default) each process's own memory, where N workers would each allow the full rate.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "kierki",
            "OPTIONS": {"socket_connect_timeout": REDIS_CONNECT_TIMEOUT, "socket_timeout": REDIS_SOCKET_TIMEOUT},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# An unacknowledged task (its worker was killed) is handed out again this long after it was
# delivered (kombu's Redis transport). Keep it above the longest task (a full rebuild of a large
# league) and the debounce countdown; the outbox's sweep redoes a killed recompute sooner anyway.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
}

# Standings (scoring/): a finished match waits this long for others of its season to join one
# recompute (debounced on Redis; unused in the embedded mode), and Celery beat rebuilds every
# open season nightly as a safety net.
SCORING_DEBOUNCE_SECONDS = env_int("SCORING_DEBOUNCE_SECONDS", 5)
# The outbox of recomputes (scoring/outbox.py): every SCORING_OUTBOX_SWEEP_SECONDS Celery beat
# dispatches again each season with a request older than SCORING_OUTBOX_GRACE_SECONDS — longer
# than the debounce countdown, so that a recompute already on its way is not asked for twice.
SCORING_OUTBOX_GRACE_SECONDS = env_int("SCORING_OUTBOX_GRACE_SECONDS", 60)
SCORING_OUTBOX_SWEEP_SECONDS = env_int("SCORING_OUTBOX_SWEEP_SECONDS", 60)
if SCORING_OUTBOX_GRACE_SECONDS <= SCORING_DEBOUNCE_SECONDS:
    raise ImproperlyConfigured(
        f"SCORING_OUTBOX_GRACE_SECONDS={SCORING_OUTBOX_GRACE_SECONDS} must exceed "
        f"SCORING_DEBOUNCE_SECONDS={SCORING_DEBOUNCE_SECONDS}"
    )
if SCORING_OUTBOX_SWEEP_SECONDS < 1:
    raise ImproperlyConfigured("SCORING_OUTBOX_SWEEP_SECONDS must be at least 1")
CELERY_BEAT_SCHEDULE = {
    "rebuild-open-seasons-nightly": {
        "task": "scoring.tasks.rebuild_open_seasons",
        "schedule": crontab(hour=3, minute=30),
    },
    "sweep-recompute-outbox": {
        "task": "scoring.tasks.sweep_outbox",
        "schedule": SCORING_OUTBOX_SWEEP_SECONDS,
        "options": {"expires": SCORING_OUTBOX_SWEEP_SECONDS},  # a backlog of sweeps is one sweep
    },
}

# Audits (games/): Celery beat verifies every match's hash chain, rules and commitments nightly
# (failures are logged at ERROR) and signs a checkpoint of all match heads. The Ed25519 key is
# the base64 of a raw 32-byte private key (`manage.py checkpoint --generate-key`); unset, DEBUG
# uses an insecure key derived from SECRET_KEY and production refuses to sign. Checkpoints (and
# their heads files) are written to CHECKPOINT_DIR when set.
CHECKPOINT_SIGNING_KEY = env_str("CHECKPOINT_SIGNING_KEY").strip()
if CHECKPOINT_SIGNING_KEY:
    import base64
    import binascii

    try:
        _key_bytes = len(base64.b64decode(CHECKPOINT_SIGNING_KEY, validate=True))
    except (binascii.Error, ValueError):
        _key_bytes = -1
    if _key_bytes != 32:
        raise ImproperlyConfigured("CHECKPOINT_SIGNING_KEY must be the base64 of a raw 32-byte Ed25519 private key")
CHECKPOINT_DIR = env_str("CHECKPOINT_DIR").strip()
CELERY_BEAT_SCHEDULE.update(
    {
        "audit-matches-nightly": {"task": "games.tasks.audit_matches", "schedule": crontab(hour=2, minute=30)},
        "checkpoint-hourly": {"task": "games.tasks.take_checkpoint", "schedule": crontab(minute=5)},
    }
)

# Webhooks (webhooks/): deliveries are sent after the commit that wrote them, and Celery beat
# sends the due ones (retries, any the broker missed) every minute. Receivers on loopback,
# private, link-local and other non-public addresses are refused unless this is on (SSRF).
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", False)
CELERY_BEAT_SCHEDULE["deliver-webhooks-every-minute"] = {"task": "webhooks.tasks.sweep", "schedule": 60.0}

# --- Deployment: CORS, request size, HTTPS, logging ---------------------------------------

# Browser clients on other origins (e.g. https://app.example.org), comma-separated; none by default.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
CORS_ALLOW_HEADERS = (*cors_default_headers, "if-match", "idempotency-key", "x-request-id", "last-event-id")
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "X-Request-ID", "Idempotent-Replayed", "Location", "Link"]
CORS_EXPOSE_HEADERS.append("Long-Poll")  # "unavailable": a long-poll answered at once under WSGI (api/streams.py)
CORS_EXPOSE_HEADERS += ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]  # api/throttles.py
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# A request body over this is 413 (config.middleware.BodySizeLimitMiddleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("API_MAX_BODY_BYTES", 1024 * 1024)
# A request body must arrive whole within this many seconds of the request, else 408 (config/body_limit.py):
# a client trickling its body must not hold a gunicorn worker (keep it under GUNICORN_TIMEOUT).
API_BODY_READ_SECONDS = env_int("API_BODY_READ_SECONDS", 10)
if API_BODY_READ_SECONDS < 1:
    raise ImproperlyConfigured("API_BODY_READ_SECONDS must be at least 1 (second)")
# Bodies up to the limit stay in memory (Django's default would spool those over 2.5 MB to disk).
FILE_UPLOAD_MAX_MEMORY_SIZE = max(2_621_440, DATA_UPLOAD_MAX_MEMORY_SIZE or 0)
# JSON bodies (and the record viewer's text) nested deeper than this are 400 (config/limits.py).
API_MAX_JSON_DEPTH = env_int("API_MAX_JSON_DEPTH", 32)
if API_MAX_JSON_DEPTH < 8:
    raise ImproperlyConfigured("API_MAX_JSON_DEPTH must be at least 8 (a match record nests about 6 deep)")

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy on every answer (django-csp; issue 30, finding 8; docs/limits.md): scripts,
# styles, fonts, images and fetches from this origin only, nothing inline, no plugin, no framing,
# forms posted here only. The pages hold no inline script or style (the API docs load theirs
# from files); ReDoc's page alone allows inline style (config/urls.py), and its web worker a blob.
from csp.constants import NONE, SELF  # noqa: E402 - with the block that uses them

MIDDLEWARE += ["csp.middleware.CSPMiddleware"]
MIDDLEWARE += ["api.throttles.RateLimitHeadersMiddleware"]  # RateLimit-* on throttled answers (issue 29, item 4)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF, "blob:"],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
if not DEBUG:
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips a client's own).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# One JSON object per line on stderr, with the request id (config/logging.py); Celery too.
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").strip().upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(f"LOG_LEVEL={LOG_LEVEL!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
LOG_FORMAT = env_str("LOG_FORMAT", "json").strip().lower()
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r}: use json or text")
LOGGING = logging_config(level=LOG_LEVEL, fmt=LOG_FORMAT)
