"""A real gunicorn on a fresh database, and a plain HTTP client with a session, for the tests
that need real processes (SQLite under concurrent writers) and for `make fuzz`.

The server runs the settings the suite runs with (DJANGO_SETTINGS_MODULE: debug off) against
its own database, given as DATABASE_URL; `manage()` runs management commands with the same
environment, so the set-up and the server see the same database.
"""

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(database_url, **extra):
    """The environment of the server and of its management commands."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_DEBUG", "DATABASE_URL"}}
    env.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SECRET_KEY=env.get("DJANGO_SECRET_KEY") or "live-server-secret-" + "x" * 40,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_STATIC_MANIFEST="0",
        PYTHONPATH=str(ROOT),
        **extra,
    )
    return env


def manage(env, *args, stdin=None):
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, input=stdin, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout


class Gunicorn:
    """`gunicorn kartenliga.wsgi` in the background; a context manager that stops it."""

    def __init__(self, env, log_path, *, workers=4, threads=1, timeout=60, access_log=None):
        self.env, self.log_path = env, Path(log_path)
        self.port = free_port()
        self.args = [str(BIN / "gunicorn"), "kartenliga.wsgi", "-b", f"127.0.0.1:{self.port}"]
        self.args += ["-w", str(workers), "--threads", str(threads), "--timeout", str(timeout)]
        if access_log:
            # One line per request, "<status> <method>" (a fuzzed path may hold a line break).
            self.args += ["--access-logfile", str(access_log), "--access-logformat", "%(s)s %(m)s"]
        self.process = None

    def __enter__(self):
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                self.args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn ended (exit {self.process.returncode}):\n{self.log()}")
            try:
                Client(self.port).request("GET", "/accounts/login/")
                return self
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not answer in 60 s:\n{self.log()}") from None
                time.sleep(0.2)

    def __exit__(self, *exc):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def log(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


class Client:
    """One browser or phone: its own cookies (a session), CSRF token sent back as Django wants.
    Not shared between threads."""

    def __init__(self, port):
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.cookies = {}

    def request(self, method, path, *, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        sent = {"Host": f"127.0.0.1:{self.port}", "Accept-Language": "en"}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method not in {"GET", "HEAD", "OPTIONS"}:
            sent["Origin"] = self.origin
            if "csrftoken" in self.cookies:
                sent["X-CSRFToken"] = self.cookies["csrftoken"]
        sent.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            content = response.read()
        finally:
            conn.close()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return response.status, content

    def json(self, method, path, data=None):
        body = None if data is None else json.dumps(data)
        status, content = self.request(method, path, body=body, headers={"Content-Type": "application/json"})
        try:
            return status, json.loads(content) if content else None
        except ValueError:
            return status, content.decode(errors="replace")

    def log_in(self, username, password):
        status, page = self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert status == 200 and token, (status, page[:500])
        fields = {"csrfmiddlewaretoken": token.group(1).decode(), "username": username, "password": password}
        status, page = self.request(
            "POST",
            "/accounts/login/",
            body=urlencode(fields),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert status == 302 and "sessionid" in self.cookies, (status, page[:1000])
        return self
