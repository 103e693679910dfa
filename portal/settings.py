"""Settings for the design-partner portal, read from the environment.

The defaults are the embedded setup `make run` uses (SQLite, Celery on the
filesystem broker, e-mail printed to the console). Production sets DATABASE_URL,
CELERY_BROKER_URL, SECRET_KEY, ALLOWED_HOSTS and HTTPS=1; see README.md.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def env_bool(name, default=False):
    """A boolean setting; anything but a known yes/no word stops the start (DEBUG=ture
    must not quietly mean false)."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of {sorted(TRUE_WORDS | FALSE_WORDS)}."
    )


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")
# The fallback key only suits a local checkout; `check --deploy` flags it.
SECRET_KEY = (
    os.environ.get("SECRET_KEY") or "django-insecure-local-only-key-do-not-use-in-production"
)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# Our own page when a form's token is stale (another tab logged in or out): it says so
# and leads back; the browser keeps what was typed (portal/static/portal/site.js).
CSRF_FAILURE_VIEW = "portal.errors_views.csrf_failure"
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    # Full-text search of findings (findings.models.FindingWords); harmless on SQLite.
    "django.contrib.postgres",
    "django_htmx",
    "axes",
    # The second step at login (portal/second_factor/): app codes and recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "portal.second_factor",
    "portal",
    "jobs",
    "findings",
]
# Benchmarks, load generators, screenshots and Lighthouse: development and tests only.
if env_bool("DEVTOOLS") or env_bool("TESTING"):
    INSTALLED_APPS.append("portal.devtools")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "portal.middleware.PageMethodsMiddleware",
    # Before anything reads a parameter: PostgreSQL cannot store a NUL character.
    "portal.middleware.StripNulMiddleware",
    "portal.middleware.ApiRateLimitMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "portal.second_factor.middleware.SecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A button's address opened as a page (after logging in again): our page, not a blank 405.
    "portal.middleware.ButtonAddressPageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Axes must come last so it sees the outcome of every login attempt.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "portal.context_processors.navigation",
            ],
            "builtins": ["portal.templatetags.submissions"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web server and worker share the file: wait for locks instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if env_bool("TESTING"):
        # A test database in a file, locked as the real one is: the in-memory one Django makes
        # otherwise shares its cache between connections, where a read that meets the live
        # server's write fails at once ("table is locked") instead of waiting. Thrown away after
        # the run, so nothing need wait for the disk.
        DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
        DATABASES["default"]["OPTIONS"]["init_command"] += "PRAGMA synchronous=OFF;"
elif env_bool("TESTING"):
    # Test databases are thrown away: a commit need not wait for the WAL to reach the disk.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "portal.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24

# Login throttling: lock a username+address pair after repeated failures, so an
# attacker cannot lock a partner out from elsewhere by guessing their e-mail.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "portal.models.login_name_for_throttling"
# The client's address, from X-Forwarded-For only when a trusted proxy sent the request.
AXES_CLIENT_IP_CALLABLE = "portal.clientip.client_ip"

# Proxies (addresses or networks, comma-separated) whose X-Forwarded-For is believed. Empty:
# the client is the connection's address. Behind the TLS proxy set it to the proxy's address,
# or every client shares it (five wrong passwords from anyone would lock a partner out).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")

# A cache every web worker shares. Redis in
# production (CACHE_URL=redis://host:6379/1); the database otherwise (its table is made by
# `migrate`), or locmem:// for a single process.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
elif CACHE_URL == "locmem://" or (not CACHE_URL and env_bool("TESTING")):
    # Tests clear it between tests.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
elif CACHE_URL in ("", "db://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "portal_cache",
            # Rate-limit keys only (short-lived; expired ones are culled first): room for many
            # clients' keys, and a full table drops a tenth of the live ones, not a third.
            "OPTIONS": {"MAX_ENTRIES": 50_000, "CULL_FREQUENCY": 10},
        }
    }
else:
    raise ImproperlyConfigured(f"CACHE_URL={CACHE_URL!r}: use redis://…, db:// or locmem://.")

# Anonymous endpoints, per client address (COUNT/PERIOD, PERIOD one of s, m, h, d).
RATE_LIMITS = {
    # The format's HTTP API (validate, import): a partner's CI linting its job files.
    "spec_api": os.environ.get("RATE_LIMIT_SPEC_API", "120/m"),
    # Applications received (each sends an e-mail to the address it names).
    "intake_apply": os.environ.get("RATE_LIMIT_APPLY", "5/h"),
}
RATE_LIMITED_PATHS = {"/api/v1/spec/": "spec_api"}

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
if env_bool("TESTING"):
    # Tests render templates without running collectstatic first.
    STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"
    WHITENOISE_AUTOREFRESH = True
    WHITENOISE_USE_FINDERS = True

# E-mail: printed to the console unless an SMTP host is configured (Django 6.1 MAILERS).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_HOST,
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", default=True),
                "timeout": 20,
            },
        }
    }
else:
    # Printed as people read it (portal/mail.py): no quoted-printable, links whole.
    MAILERS = {"default": {"BACKEND": "portal.mail.ReadableConsoleBackend"}}
del EMAIL_HOST  # the MAILERS entry above is the only e-mail configuration
DEFAULT_FROM_EMAIL = os.environ.get(
    "DEFAULT_FROM_EMAIL", "E31 design partners <partners@localhost>"
)
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Security. HTTPS=1 behind a TLS-terminating proxy turns on the HTTPS-only settings.
HTTPS = env_bool("HTTPS")
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# A partner stays logged in two weeks (Django's default); a staff session, which reads every
# team's data, ends this many seconds after its second step (8 hours: a working day).
STAFF_SESSION_AGE = int(os.environ.get("STAFF_SESSION_AGE", str(8 * 3600)))
# The name an authenticator app shows beside the code.
OTP_TOTP_ISSUER = os.environ.get("OTP_TOTP_ISSUER", "E31 design-partner portal")
# Passkeys (WebAuthn): a browser binds each passkey to the site's name, so the relying party is
# the host of SITE_URL and only pages served from SITE_URL's origin may use one. An address
# such as 127.0.0.1 cannot be a relying party: there the pages offer app codes alone.
WEBAUTHN_RP_ID = os.environ.get("WEBAUTHN_RP_ID") or urlsplit(SITE_URL).hostname or "localhost"
WEBAUTHN_ORIGINS = env_list("WEBAUTHN_ORIGINS") or [
    "{0.scheme}://{0.netloc}".format(urlsplit(SITE_URL))
]
WEBAUTHN_RP_NAME = OTP_TOTP_ISSUER
X_FRAME_OPTIONS = "DENY"

# A strict policy: scripts and styles only from our own origin, nothing inline.
# htmx is told not to inject its indicator <style> (see templates/base.html).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Celery. The filesystem broker needs no server; its folders are created at start.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_FOLDER = VAR_DIR / "celery" / "queue"
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # kombu's Redis transport, except that a broker outage does not end the worker (portal/broker.py).
    CELERY_BROKER_TRANSPORT = "portal.broker:Transport"
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_FOLDER),
        "data_folder_out": str(CELERY_BROKER_FOLDER),
        "processed_folder": str(VAR_DIR / "celery" / "processed"),
        "control_folder": str(VAR_DIR / "celery" / "control"),
        "store_processed": False,
    }
# Task modules outside an app's tasks.py (autodiscovery finds those).
CELERY_IMPORTS = ["portal.outbox", "portal.passwords", "portal.intake.tasks", "jobs.runs.tasks"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
# A broker that goes away (a Redis restart) is waited for, forever, never a reason to exit; the
# tasks in hand are redelivered rather than acknowledged on a dead connection.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER")
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    "resend-stuck-emails": {
        "task": "portal.outbox.resend_stuck_emails",
        "schedule": 600.0,
    },
    "close-due-intake-windows": {
        "task": "portal.intake.tasks.close_due_intake_windows",
        "schedule": 60.0,
    },
    # Once a day; the e-mail's key names the day, so a restarted beat does not send twice.
    "findings-staff-digest": {
        "task": "findings.tasks.send_findings_digest",
        "schedule": 86400.0,
    },
    # The program-wide figures the insights and problem pages read (findings.insights): a run
    # queued while the workers were down is worthless once the next one is queued.
    "findings-program-figures": {
        "task": "findings.tasks.recompute_program_figures",
        "schedule": 300.0,
        "options": {"expires": 300.0},
    },
    # Nudge teams whose description has waited on their clarification for days (once a day each).
    "jobs-clarification-reminders": {
        "task": "jobs.tasks.remind_clarifications",
        "schedule": 86400.0,
    },
    # Counts kept on write (badges, status counts, review flags), put right from the rows.
    "recount-kept-counts": {
        "task": "portal.tasks.recount",
        "schedule": 3600.0,
    },
}

# The worker prints e-mails (portal/mail.py) to the terminal as they are: Celery would
# otherwise take its stdout for a logger and write each line as a WARNING record.
CELERY_WORKER_REDIRECT_STDOUTS = False

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
# What the worker and beat say about every periodic task (sent, received, succeeded: a few
# lines a minute) is for debugging them: LOG_LEVEL=DEBUG shows it, the default keeps the
# terminal for what matters (the e-mails, errors, the web log).
ROUTINE = LOG_LEVEL if LOG_LEVEL == "DEBUG" else "WARNING"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "refusals_on_one_line": {"()": "portal.logfilters.RefusalsOnOneLine"},
        "quiet_default_hostname": {"()": "portal.logfilters.QuietDefaultHostname"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["refusals_on_one_line"]}
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "axes": {"level": "WARNING"},
        "celery.beat": {"level": ROUTINE},
        "celery.worker.strategy": {"level": ROUTINE},
        "celery.app.trace": {"level": ROUTINE},
        "kombu.connection": {"filters": ["quiet_default_hostname"]},
    },
}
