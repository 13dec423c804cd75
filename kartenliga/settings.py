"""Settings come from the environment, so one code base runs on a laptop and behind a proxy.

DJANGO_DEBUG, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL, CSRF_TRUSTED_ORIGINS.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        # A guessable key in production would let anyone forge sessions and invite links.
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY (or DJANGO_DEBUG=1 for development).")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "axes",
    "csp",
    "leagues",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads a body (CSRF reads the form, DRF its stream): 413 past the cap.
    "leagues.middleware.RequestSizeLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # A view that lost its database connection is run again where that is safe, else
    # answered 503 (leagues/reconnect.py).
    "leagues.table.reconnect.LostConnectionMiddleware",
    # Last, as django-axes asks: it turns a lockout during any login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "kartenliga.urls"

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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

WSGI_APPLICATION = "kartenliga.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        # A worker keeps its connection between requests, and PostgreSQL ends them all when it
        # restarts or fails over: a `SELECT 1` before a request's first query replaces a dead
        # one instead of answering 500. One lost while a view runs: leagues/reconnect.py.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite behind several gunicorn workers: WAL lets readers go on while one writes;
    # synchronous=NORMAL is safe with WAL (a power cut may lose the last commits, never
    # corrupts); a writer waits up to `timeout` seconds for the lock instead of failing; and
    # transactions take the write lock at BEGIN, since a deferred one that reads first and
    # then writes cannot wait for the lock and failed with "database is locked" at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        transaction_mode="IMMEDIATE",
        timeout=20,
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Refuses nothing: told of every new password, it ends the user's API tokens.
    {"NAME": "leagues.accounts.tokens.EndTokensOnPasswordChange"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In production `collectstatic` builds hashed, compressed files that whitenoise serves; the
# test suite and development serve straight from the source folders instead.
STATIC_MANIFEST = env_bool("DJANGO_STATIC_MANIFEST", not DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
WHITENOISE_AUTOREFRESH = not STATIC_MANIFEST

# Content-Security-Policy (django-csp) on every response. Scripts only from our own origin:
# no inline <script>, no inline event handler, no eval (htmx runs with allowEval off, the
# Swagger UI's start script is a file of its own, data for scripts comes in json_script blocks,
# which are not run). Styles keep 'unsafe-inline': the Swagger UI page and the DRF browsable
# API write inline <style> blocks and style attributes, and the race games' score bars set
# their width in a style attribute; a style cannot run code, and everything a user typed is
# escaped before it reaches a page. data: images are the Swagger UI's icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        # The service worker (/sw.js) and the web app manifest, both from our own origin.
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Login throttling (django-axes): every authenticate() with a request (our login page, the
# admin's) is counted per username and client address, in the database, so all workers share
# it. After AXES_FAILURE_LIMIT failures that pair is locked out for the cool-off (each further
# try restarts it) and gets the login page with the reason as a 429 (leagues/views/lockout.py).
# Our handler (leagues/login_lockout.py) adds the name from any address: after
# THROTTLE_RATES["login_account"] failures, browsers the name never logged in with wait for
# the rest of the hour; a browser it logged in with (a signed cookie kept for
# LOGIN_TRUSTED_BROWSER_DAYS) is spared both rules and locked by its own failures only, so
# nobody can lock a member out of his own browser.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Django's database sessions. Not cached_db: the default cache is per process, so a worker
# would keep a session another worker ended (a logout, a new password) until it expired.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
AXES_FAILURE_LIMIT = int(os.environ.get("KARTENLIGA_LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("KARTENLIGA_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "leagues.accounts.views.lockout.locked_out"
AXES_CLIENT_IP_CALLABLE = "leagues.accounts.throttling.client_ip"
AXES_HTTP_RESPONSE_CODE = 429
AXES_HANDLER = "leagues.accounts.login_lockout.LoginLockout"
AXES_USERNAME_CALLABLE = "leagues.accounts.login_lockout.username"
LOGIN_TRUSTED_BROWSER_DAYS = int(os.environ.get("KARTENLIGA_LOGIN_TRUSTED_BROWSER_DAYS", "365"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail (password reset links): printed to the console while debugging; otherwise sent
# through the SMTP server the environment names. A short timeout, so that a mail server that
# does not answer holds a worker for seconds, not minutes (Django logs a failed send and the
# page still says the link is on its way, as it does for an unknown address).
if DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "kartenliga@localhost")

# How many reverse proxies in front append to X-Forwarded-For: the client's address for the
# login lockout and the rate limits is the one the nearest proxy saw (leagues/throttling.py).
# The README's production setup has one (gunicorn listens on 127.0.0.1 only); with none, 0,
# or a client could pose as a new address on every request by sending the header itself.
PROXY_COUNT = int(os.environ.get("KARTENLIGA_PROXY_COUNT", "0" if DEBUG else "1"))


def env_rate(name, default):
    """A DRF rate like "120/min" from the environment; "off" switches that limit off."""
    value = os.environ.get(name, default).strip()
    if value.lower() in {"off", "none", ""}:
        return None
    count, _slash, period = value.partition("/")
    if not count.isdigit() or period not in {"s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day"}:
        raise ImproperlyConfigured(f'{name} must be like "120/min" (per s, min, hour or day) or "off", not {value!r}.')
    return value


# "default" is Django's own default (per process): the throttling counts live there.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}


# API rate limits (DRF throttling, leagues/throttling.py), answered with a 429 in the API's error
# shape and a Retry-After header. "anon" counts per client address every request without a
# login: the stateless calculate, bill-split and ping endpoints never log in, so all their
# traffic counts here. "user" counts per account. The counts live in the default cache, which
# is per process (LocMemCache): with N gunicorn workers a client can get up to N times the rate
# before every worker has refused it. That is acceptable because the limit is there to stop one
# client from keeping every worker busy, not to meter anyone exactly, and it spares the site a
# cache server; an operator who wants one count across workers and machines points CACHES at a
# shared cache (Redis, memcached or the database).
THROTTLE_RATES = {
    "anon": env_rate("KARTENLIGA_THROTTLE_ANON", "120/min"),
    "user": env_rate("KARTENLIGA_THROTTLE_USER", "600/min"),
    # These count in the database (leagues/throttling.py), one count for all workers, since
    # they stand against guessers: failed logins of one name from any address (see
    # AXES_HANDLER), unknown or revoked API tokens per address, and password reset mails per
    # account (e-mail address) and per client address.
    "login_account": env_rate("KARTENLIGA_LOGIN_ACCOUNT_RATE", "30/hour"),
    "invalid_token": env_rate("KARTENLIGA_THROTTLE_INVALID_TOKEN", "20/min"),
    "reset_mail_account": env_rate("KARTENLIGA_RESET_MAIL_ACCOUNT_RATE", "3/hour"),
    "reset_mail_address": env_rate("KARTENLIGA_RESET_MAIL_ADDRESS_RATE", "10/hour"),
}

REST_FRAMEWORK = {
    "NUM_PROXIES": PROXY_COUNT,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # A personal API token (Authorization: Bearer, leagues/tokens.py), else the session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "leagues.accounts.tokens.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": ["leagues.api.renderers.ORJSONParser"],
    "DEFAULT_RENDERER_CLASSES": [
        "leagues.api.renderers.ORJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "leagues.api.views.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "leagues.accounts.throttling.AnonRateThrottle",
        "leagues.accounts.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": THROTTLE_RATES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kartenliga API",
    "DESCRIPTION": "Scores for card-playing clubs: Doppelkopf, 1000, 56 and the Maw family.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # 400/403/404/409/413/429 on every operation where they can occur (leagues/openapi.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "leagues.api.schema.document_errors"],
}

# Behind a reverse proxy that terminates TLS (see README).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    # Preloading HSTS binds the whole domain and its subdomains to HTTPS for good in every
    # browser: the operator decides that (DJANGO_HSTS_PRELOAD=1 or at the proxy), not the app.
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

# How long an invite link stays valid.
INVITE_VALID_DAYS = int(os.environ.get("KARTENLIGA_INVITE_VALID_DAYS", "14"))

# The largest request body accepted, in bytes (leagues/middleware.py answers 413 past it);
# far above any evening: 2,000 hands, the most one calculate request takes, are ~250 kB.
MAX_REQUEST_BODY_BYTES = int(os.environ.get("KARTENLIGA_MAX_REQUEST_BODY_BYTES", "1000000"))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
