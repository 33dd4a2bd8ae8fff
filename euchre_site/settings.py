"""Settings, from environment variables with safe defaults.

Embedded defaults (``make run``): SQLite and an in-memory channel layer, one process.
Production: ``DATABASE_URL`` selects PostgreSQL and ``REDIS_URL`` channels-redis.
See docs/OPERATING.md, "Configuration", for every variable.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.conf.locale import LANG_INFO
from django.core.exceptions import ImproperlyConfigured

from games.tracing import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off: export SECRET_KEY=<a long random string> "
            "(or DEBUG=1 on a development machine)."
        )
    SECRET_KEY = "django-insecure-development-only-key"  # noqa: S105 - DEBUG only
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
    # Django's own deploy check (security.W009) asks the same; a short key makes every
    # session cookie and password-reset link forgeable, so a production start refuses it.
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak: use at least 50 characters with at least 5 different ones, "
        "e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )

# "testserver" is the host of Django's test client; websocket tests send Origin headers for it.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves ASGI, websockets included
    # The admin opens only to staff whose session a second factor verified (euchre_site/admin.py)
    "euchre_site.apps.VerifiedAdminConfig",
    "django.contrib.auth",
    "ninja",  # the API's docs page and its assets (served from here, no CDN)
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "channels",
    "csp",
    "corsheaders",
    "axes",
    # Second factors: authenticator apps' codes (TOTP) and single-use recovery codes
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "django_tasks",
    "django_tasks_db",
    "games",
]

MIDDLEWARE = [
    # First: the request's id, its log line, and a server error recorded (games.web.tracing)
    "games.web.tracing.RequestTrace",
    # Every answer counted by its status class, when the metrics are on (games/metrics.py)
    "games.web.middleware.StatusCounted",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "games.web.middleware.FreshCatalogues",
    "django.middleware.locale.LocaleMiddleware",
    # django-cors-headers, for /api/v1/ only: after LocaleMiddleware, as its refusal is worded
    "games.api.cors.ApiCors",
    # Under /api/, every refusal in the API's JSON shape, the site's HTML pages never
    "games.api.errors.JsonErrors",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): this session gave a second factor's code
    "django_otp.middleware.OTPMiddleware",
    "games.web.middleware.PlayerLanguage",
    "games.web.middleware.GuestSeen",
    # A session's row follows its key and last visit; a log-in's device cookie
    "games.web.sessions.SessionSeen",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A moderator's fair-play warning, shown once on the player's next page
    "games.web.fairplay.FairPlayNotices",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.web.middleware.ExplainRefusals",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

# CORS for the API (games.api.cors): no origin listed here, each is allowed by a player on
# their settings page. No cookie is read by the API, so none is allowed. Every setting the
# library reads is set: one it lacks is looked for again at each request (docs/PERFORMANCE.md).
CORS_URLS_REGEX = r"^/api/v1/"
CORS_ALLOWED_ORIGINS: list[str] = []
CORS_ALLOWED_ORIGIN_REGEXES: list[str] = []
CORS_ALLOW_ALL_ORIGINS = False
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_PRIVATE_NETWORK = False
# What the API's endpoints accept (tests/api/test_cors.py holds this to its schema's methods)
# and the request headers it reads: the token, a body's type, the words' language.
CORS_ALLOW_METHODS = ["GET", "POST"]
CORS_ALLOW_HEADERS = ["Authorization", "Content-Type", "Accept-Language"]
CORS_EXPOSE_HEADERS = ["Retry-After"]
CORS_PREFLIGHT_MAX_AGE = 600  # seconds a browser may keep a preflight's answer

# django-axes: log-in throttling by the pair (username, IP address) and by IP address. Not by
# username alone: then anyone could lock a player out of their own account from anywhere.
CSRF_FAILURE_VIEW = "games.web.views.site.csrf_failure"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "games.web.views.accounts.locked_out"
# The address as every per-address limit counts it: an IPv6 client by its /64.
AXES_CLIENT_IP_CALLABLE = "games.web.views.common.login_key"
AXES_VERBOSE = False
# Second factors (games.services.second_factors): the name authenticator apps show; codes at
# the log-in's second step, per account, per window of minutes (the password's are axes').
OTP_TOTP_ISSUER = "Two-hand euchre"
OTP_TOTP_THROTTLE_FACTOR = 0  # django-otp's growing delays off: the one limit below instead
OTP_STATIC_THROTTLE_FACTOR = 0
SECOND_FACTOR_ATTEMPTS = int(os.environ.get("SECOND_FACTOR_ATTEMPTS", "5"))
SECOND_FACTOR_WINDOW_MINUTES = int(os.environ.get("SECOND_FACTOR_WINDOW_MINUTES", "15"))
# Sign-ups per IP address and attempts at one username, per hour; moves per player per 10 s
# (a person acts about once a second at the very most). Counted in the cache (Redis when
# REDIS_URL is set, so every server process shares the counts).
SIGNUP_LIMIT_PER_IP = int(os.environ.get("SIGNUP_LIMIT_PER_IP", "20"))
SIGNUP_LIMIT_PER_USERNAME = int(os.environ.get("SIGNUP_LIMIT_PER_USERNAME", "5"))
MOVE_LIMIT_PER_10_SECONDS = int(os.environ.get("MOVE_LIMIT_PER_10_SECONDS", "30"))
# "Improve this translation" per player a minute (three times as many per address): each
# searches the page's words for the language's messages.
TRANSLATE_PAGES_PER_MINUTE = int(os.environ.get("TRANSLATE_PAGES_PER_MINUTE", "10"))
# Requests one API token may make in a minute (moves count against the move limit too).
API_REQUESTS_PER_MINUTE = int(os.environ.get("API_REQUESTS_PER_MINUTE", "600"))
# Open match sockets: per player (tabs and devices together), and per match (its players are
# always let in, on top of this).
SOCKETS_PER_PLAYER = int(os.environ.get("SOCKETS_PER_PLAYER", "10"))
SOCKETS_PER_MATCH = int(os.environ.get("SOCKETS_PER_MATCH", "200"))
# Each page of a logged-in player holds /ws/me/ (the lobby one more): twice the match pages.
PAGE_SOCKETS_PER_PLAYER = int(os.environ.get("PAGE_SOCKETS_PER_PLAYER", "20"))
# A program's streams (http and websocket, of its matches or its account), all its tokens.
STREAMS_PER_ACCOUNT = int(os.environ.get("STREAMS_PER_ACCOUNT", "40"))
# Open matches waiting for an opponent, and matches in play against the computer, per player;
# reports a player may send in an hour.
OPEN_MATCHES_PER_PLAYER = int(os.environ.get("OPEN_MATCHES_PER_PLAYER", "3"))
COMPUTER_MATCHES_PER_PLAYER = int(os.environ.get("COMPUTER_MATCHES_PER_PLAYER", "2"))
REPORTS_PER_HOUR = int(os.environ.get("REPORTS_PER_HOUR", "5"))
# Lines of chat (quick messages and free chat) a player may say a minute, at any match.
CHAT_LINES_PER_MINUTE = int(os.environ.get("CHAT_LINES_PER_MINUTE", "10"))
# Challenges sent and rematch offers made per player in 10 minutes (each reaches the other
# player's pages at once).
CHALLENGES_PER_10_MINUTES = int(os.environ.get("CHALLENGES_PER_10_MINUTES", "20"))
REMATCH_OFFERS_PER_10_MINUTES = int(os.environ.get("REMATCH_OFFERS_PER_10_MINUTES", "20"))
# Restarts of the guided hand per address an hour (each is a session row, logged in or not).
LEARN_RESTARTS_PER_HOUR = int(os.environ.get("LEARN_RESTARTS_PER_HOUR", "60"))
# Guests ("Play now" without an account): how many one address may start in an hour, and
# how many days without a visit before a guest is swept away (services.guests_sweep).
GUESTS_PER_IP_PER_HOUR = int(os.environ.get("GUESTS_PER_IP_PER_HOUR", "20"))
GUEST_DAYS = int(os.environ.get("GUEST_DAYS", "7"))
# Leaving: a deleted account's name is refused to new sign-ups for this many days (so nobody
# passes for the player who left at once); the file of a player's data is offered this many
# hours, and may be asked for once in that time.
DELETED_NAME_DAYS = int(os.environ.get("DELETED_NAME_DAYS", "30"))
DATA_EXPORT_HOURS = int(os.environ.get("DATA_EXPORT_HOURS", "24"))
# Rated matches between the same two players in 24 hours; any more between them are casual.
RATED_MATCHES_PER_PAIR_PER_DAY = int(os.environ.get("RATED_MATCHES_PER_PAIR_PER_DAY", "3"))

ROOT_URLCONF = "euchre_site.urls"
WSGI_APPLICATION = "euchre_site.wsgi.application"
ASGI_APPLICATION = "euchre_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context_processors.table_look",
                "games.web.context_processors.turns_waiting",
                "games.web.context_processors.guest",
            ],
        },
    },
    {
        # The board and its pieces (games/presentation/jinja.py): rendered at every move, for
        # each kind of viewer. Django pages show the pieces they share through {% piece %}.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "OPTIONS": {"environment": "games.presentation.jinja.environment"},
    },
]

# Database: SQLite unless DATABASE_URL names another (postgres://user:password@host:5432/name).
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Under ASGI each request runs its database work in a thread of its own, so persistent
    # connections are never reused; a pool keeps connecting (about 5 ms each) off every request.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 2, "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "20"))},
        # Parameters bound by the server: the query text is not rebuilt with its values each
        # time (bench/load: about a tenth less CPU per move on the whole machine).
        "server_side_binding": os.environ.get("DATABASE_SERVER_SIDE_BINDING", "1") == "1",
        # ... and psycopg prepares a statement a connection has run this many times (a move's
        # few), so PostgreSQL stops planning it at every call. Django turns this off unless
        # asked (for poolers such as PgBouncer in transaction mode; ours is in the process).
        # Planning was half of PostgreSQL's CPU at 500 matches (pg_stat_statements); 0 turns
        # it off.
        "prepare_threshold": int(os.environ.get("DATABASE_PREPARE_THRESHOLD", "5")) or None,
    }
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_DATABASE_NAME", "test_euchre")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Sockets write from several threads at once: a writer takes the lock when its
            # transaction begins (no failing upgrade from a read lock) and waits its turn.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
            # A file, not memory: a live-server process in the browser tests must share it.
            "TEST": {"NAME": str(BASE_DIR / "test-db.sqlite3")},
        }
    }

# Channel layer and cache: in memory (one process) unless REDIS_URL is set (redis://host:6379/0).
REDIS_URL = os.environ.get("REDIS_URL", "")
# REDIS_PREFIX keeps apart sites or test runs that share one Redis (pub/sub ignores the
# database number); each of pytest-xdist's test processes has its own.
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "asgi") + os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: one delivery per process (the list-based layer fell behind under
            # bench/load). Pushes are not stored: a socket that misses one catches up at
            # its heartbeat.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": REDIS_PREFIX},
        }
    }
    CACHES = {
        "default": {
            # django-redis: one connection pool per process (Django's own Redis cache builds a
            # pool per cache object, and under ASGI each request's thread has its own), and
            # the client at hand for the rate limits' one-round-trip count
            # (games.services.throttle).
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
            # Rate limits fail open when Redis is away; never let them hang a request.
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# With the in-memory layer a task worker cannot reach the server's sockets: a worker given
# the server's address here posts its pushes to it (signed with SECRET_KEY) and the server
# sends them on (`make run` sets it; unused with Redis).
PUSH_RELAY_URL = "" if REDIS_URL else os.environ.get("PUSH_RELAY_URL", "")

# Seconds between a match socket's heartbeats (presence, and rejoining after a layer outage).
# Threads per server process for the sockets' database work (each holds a pooled connection
# while it works).
REALTIME_DATABASE_THREADS = int(os.environ.get("REALTIME_DATABASE_THREADS", "4"))
REALTIME_HEARTBEAT_SECONDS = float(os.environ.get("REALTIME_HEARTBEAT_SECONDS", "10"))
# How often a server process compares its sockets' boards with the database. With Redis every
# process hears every push, and this is only the safety net; the in-memory layer cannot carry
# the worker's pushes (the computer's moves, clocks) to the web process, so there it is short.
REALTIME_CATCH_UP_SECONDS = float(
    os.environ.get("REALTIME_CATCH_UP_SECONDS", "10" if REDIS_URL else "0.25")
)
# How long the computer waits before showing its move (it thinks in well under this).
COMPUTER_MOVE_DELAY = float(os.environ.get("COMPUTER_MOVE_DELAY_SECONDS", "0.8"))

# Time-driven work (the computer's turns, clocks running out) is a task in the database,
# run by `manage.py run_worker` processes (django-tasks, the backport of Django 6's tasks).
# Two queues: "default" for what must happen on time (the computer's moves, clocks, lapsing
# offers), "analysis" for the seconds-long analysis of finished matches, run by workers of
# its own so that it never delays a move (Procfile: worker and analyst).
TASKS = {
    "default": {
        # django-tasks-db's, which also keeps the id of the request that queued a task
        "BACKEND": "games.tasks.Backend",
        "QUEUES": ["default", "analysis"],
    }
}
# /healthz gives the channel layer this long to carry a message back (Redis answers in ms).
HEALTHZ_LAYER_TIMEOUT_SECONDS = float(os.environ.get("HEALTHZ_LAYER_TIMEOUT_SECONDS", "1"))
# A worker writes its heartbeat this often; one silent for WORKER_DEAD_AFTER_SECONDS is dead,
# and the tasks it had taken are queued again.
WORKER_BEAT_SECONDS = float(os.environ.get("WORKER_BEAT_SECONDS", "2"))
WORKER_DEAD_AFTER_SECONDS = float(os.environ.get("WORKER_DEAD_AFTER_SECONDS", "10"))
# On PostgreSQL an idle worker waits for the database's notice of a task queued (LISTEN) rather
# than looking every --interval. A pooler in transaction mode (PgBouncer's) drops what LISTEN
# asks for: set 0 behind one, and the workers look as they do on SQLite.
WORKER_LISTEN = os.environ.get("WORKER_LISTEN", "1") == "1"
# /metrics (Prometheus's text format) answers only requests bearing this token; unset, the
# address is off. Its figures are gathered across processes through PROMETHEUS_MULTIPROC_DIR,
# which prometheus-client reads itself (games/metrics.py).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# Finished tasks stay this long for inspection (admin: Task results), then workers delete them.
TASK_RESULTS_KEEP_HOURS = float(os.environ.get("TASK_RESULTS_KEEP_HOURS", "24"))
# Bounded data (games.services.retention, swept hourly by the workers, RETENTION_BATCH rows a
# statement): how long each kind of row that grows by itself is kept.
RETENTION_BATCH = int(os.environ.get("RETENTION_BATCH", "1000"))
STALE_CONNECTION_MINUTES = int(os.environ.get("STALE_CONNECTION_MINUTES", "60"))
DEAD_WORKER_HOURS = int(os.environ.get("DEAD_WORKER_HOURS", "24"))
KNOWN_DEVICE_DAYS = int(os.environ.get("KNOWN_DEVICE_DAYS", "400"))  # the device cookie's life
SECOND_FACTOR_SETUP_HOURS = int(os.environ.get("SECOND_FACTOR_SETUP_HOURS", "24"))
CHALLENGE_DAYS = int(os.environ.get("CHALLENGE_DAYS", "30"))
TRANSLATION_SUGGESTION_DAYS = int(os.environ.get("TRANSLATION_SUGGESTION_DAYS", "90"))
MAIL_SENT_DAYS = int(os.environ.get("MAIL_SENT_DAYS", "30"))
PUSH_SENT_DAYS = int(os.environ.get("PUSH_SENT_DAYS", "30"))
MAIL_CONFIRMATION_DAYS = int(os.environ.get("MAIL_CONFIRMATION_DAYS", "30"))
ACCOUNT_LOG_DAYS = int(os.environ.get("ACCOUNT_LOG_DAYS", "365"))
LOGIN_LOG_DAYS = int(os.environ.get("LOGIN_LOG_DAYS", "90"))
CHAT_DAYS = int(os.environ.get("CHAT_DAYS", "365"))
MODERATION_LOG_DAYS = int(os.environ.get("MODERATION_LOG_DAYS", "730"))
ARENA_INVITE_DAYS = int(os.environ.get("ARENA_INVITE_DAYS", "30"))
SERVER_ERROR_DAYS = int(os.environ.get("SERVER_ERROR_DAYS", "30"))
# The match analysis's search: opponent hands per decision (all of them when there are fewer).
ANALYSIS_SAMPLES = int(os.environ.get("ANALYSIS_SAMPLES", "300"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# English and the five languages our players wrote the rules in, each with a catalogue in
# locale/ (``manage.py update_catalogues``). The switcher offers a language once its
# catalogue is complete (a test holds every offered one to that): LANGUAGES.
CATALOGUE_LANGUAGES = [
    ("en", "English"),
    ("my", "Burmese"),
    ("ht", "Haitian Creole"),
    ("th", "Thai"),
    ("so", "Somali"),
    ("am", "Amharic"),
]
TRANSLATED = {"en", "my", "ht", "th", "so", "am"}
LANGUAGES = [(code, name) for code, name in CATALOGUE_LANGUAGES if code in TRANSLATED]
LANG_INFO.update(
    {
        "am": {"bidi": False, "code": "am", "name": "Amharic", "name_local": "አማርኛ"},
        "ht": {"bidi": False, "code": "ht", "name": "Haitian Creole", "name_local": "Kreyòl"},
        "so": {"bidi": False, "code": "so", "name": "Somali", "name_local": "Soomaali"},
    }
)
# The catalogues: accepted translation suggestions are written here (a clone's own folder, or a
# writable copy of it).
LOCALE_PATHS = [Path(os.environ.get("LOCALE_PATH", BASE_DIR / "locale"))]
FORMAT_MODULE_PATH = ["euchre_site.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# WhiteNoise also serves straight from the apps' static folders, so the site works without
# a collectstatic step. Files found that way win over the collected ones and are never sent
# compressed: in production run collectstatic and set STATIC_COLLECTED=1 (gzip, brotli).
WHITENOISE_USE_FINDERS = not env_bool("STATIC_COLLECTED", False)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Security headers. HTTPS=1 (production behind TLS) adds HSTS, secure cookies and redirects.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = 31_536_000 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
# Only the site's own scripts and styles: no inline script anywhere, no CDN.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"

# Mail (password resets, and turns in correspondence matches, sent by the task worker):
# printed to the console unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Two-hand euchre <noreply@localhost>")
# The site's address as players reach it: the links of mails sent by the task worker (no
# request there to take it from). `make run` sets it to the address it serves.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# A correspondence turn's mail waits this long, then goes only if the player is not on the
# match's page: one who has just joined or moved from another page has arrived by then.
TURN_MAIL_DELAY_SECONDS = float(os.environ.get("TURN_MAIL_DELAY_SECONDS", "60"))
# Web Push (games.services.push): the site's VAPID key pair (RFC 8292; base64url, the public
# key as browsers take it for applicationServerKey, the private one raw or DER) and who the
# push services may contact (a mailto: or https: URL). With no keys, settings say so and
# nothing is sent. PUSH_TTL_SECONDS: how long a push service keeps a notification for a
# device that is off; PUSH_RETRIES: a delivery that failed otherwise than 404/410 is tried
# again this many times, PUSH_RETRY_SECONDS apart (times the attempt).
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:noreply@localhost")
PUSH_TTL_SECONDS = int(os.environ.get("PUSH_TTL_SECONDS", "86400"))
PUSH_RETRIES = int(os.environ.get("PUSH_RETRIES", "3"))
PUSH_RETRY_SECONDS = float(os.environ.get("PUSH_RETRY_SECONDS", "60"))
# Devices' push addresses are https (every browser's push service is); a local push service
# on plain http only where allowed (the tests').
PUSH_ALLOW_HTTP = env_bool("PUSH_ALLOW_HTTP", False)
# Verified mail (games.services.mail_addresses): an address's confirmation link works this
# many hours, once; "send the link again" at most MAIL_CONFIRM_LIMIT times an hour a player and
# an address. The mails' one-click unsubscription links work this many days. Password resets:
# at most PASSWORD_RESET_LIMIT mails an address (one mail whatever the accounts sharing it)
# and an account in PASSWORD_RESET_WINDOW_SECONDS.
MAIL_CONFIRM_HOURS = int(os.environ.get("MAIL_CONFIRM_HOURS", "48"))
MAIL_CONFIRM_LIMIT = int(os.environ.get("MAIL_CONFIRM_LIMIT", "3"))
MAIL_UNSUBSCRIBE_DAYS = int(os.environ.get("MAIL_UNSUBSCRIBE_DAYS", "90"))
PASSWORD_RESET_LIMIT = int(os.environ.get("PASSWORD_RESET_LIMIT", "1"))
PASSWORD_RESET_WINDOW_SECONDS = int(os.environ.get("PASSWORD_RESET_WINDOW_SECONDS", "900"))
# Arenas: how often a running arena pairs its free players, and the rated matches a player
# needs to create one (moderators need none).
ARENA_PAIR_SECONDS = float(os.environ.get("ARENA_PAIR_SECONDS", "2"))
ARENA_CREATOR_RATED_MATCHES = int(os.environ.get("ARENA_CREATOR_RATED_MATCHES", "20"))

# Errors in a request are printed even with DEBUG off (a live server shows nothing else).
# LOG_FORMAT=json: one JSON line per request, per socket event and per log line, each with
# the request's id (games.tracing); the default is today's text.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
LOGGING = logging_config(LOG_FORMAT, os.environ.get("LOG_LEVEL", "INFO"))
