#!/usr/bin/env python3
"""Run the README's production steps exactly as written, then fetch every kind of page.

On a `git clone` of the committed HEAD in a temporary folder, with debug off, a secret, allowed
hosts and a fresh SQLite database (the default `db.sqlite3` of the fresh clone), the block of
the README between the `production-steps` markers runs as one shell script in the background;
its last line starts gunicorn. Then, as the reverse proxy would (`X-Forwarded-Proto: https`):
log in through the real login form, fetch every page kind and every static file the pages name
(hashed names, 200), and an unknown address (a 404 page, not a 500). Then nginx with the
shipped site file (docs/deploy/nginx.conf, on free ports with a self-signed certificate) in
front of that gunicorn: HTTP sends to HTTPS, pages answer through it, and while six clients
trickle request bodies a byte a second a page still takes under two seconds (straight to
gunicorn's four sync workers it waited for their timeout). Any failure stops the run with the
address, the status and gunicorn's log. gunicorn and nginx are stopped at the end, always.

Standard library only: it runs before the clone has a venv; nginx and openssl from Debian.
Usage: python3 .ci/production_check.py
"""

import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from html import unescape
from pathlib import Path
from urllib.parse import urlencode, urljoin, urlsplit

REPO = Path(__file__).resolve().parent.parent
START = "<!-- production-steps:start"
END = "<!-- production-steps:end -->"
README_PORT = 8000
TIME_LIMIT = 180  # seconds, the whole check
HASHED = re.compile(r"\.[0-9a-f]{12}\.")
NGINX_SITE = "docs/deploy/nginx.conf"
SLOW_CLIENTS = 6  # more than the README's 4 workers
SLOW_SECONDS = 6  # how long they trickle while pages are fetched
PAGE_LIMIT = 2.0  # seconds a page may take meanwhile


class Failure(Exception):
    pass


def readme_block(readme):
    """The shell commands of the fenced block between the markers, as written."""
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise Failure(f"{readme}: no block between '{START}' and '{END}'")
    section = text.split(START, 1)[1].split(END, 1)[0]
    fenced = re.search(r"```(?:sh|bash|console)?\n(.*?)```", section, flags=re.S)
    if fenced is None:
        raise Failure(f"{readme}: the production-steps markers hold no fenced code block")
    return fenced.group(1)


def free_port(preferred):
    for port in [preferred, 0]:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return probe.getsockname()[1]
    raise Failure("no free port")


class Client:
    """A browser behind the TLS proxy: keeps cookies (Secure ones too: the proxy speaks HTTPS to
    the browser), sends X-Forwarded-Proto and the Origin/Referer Django's CSRF check wants."""

    def __init__(self, port):
        self.port = port
        self.host = f"127.0.0.1:{port}"
        self.cookies = {}

    def request(self, method, path, *, body=None, headers=None, proxied=True):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": self.host, "Accept-Language": "en"}
        if proxied:
            sent["X-Forwarded-Proto"] = "https"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            sent["Origin"] = f"https://{self.host}"
            sent["Referer"] = f"https://{self.host}{path}"
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
                val = rest.split(";", 1)[0]
                if "max-age=0" in value.lower() or val in ('""', ""):
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = val
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), content

    def get(self, path, expect=200, **kwargs):
        status, headers, content = self.request("GET", path, **kwargs)
        if status != expect:
            raise Failure(f"GET {path}: {status}, expected {expect}\n{content[:2000].decode(errors='replace')}")
        return headers, content

    def post_form(self, path, fields, expect=302):
        status, headers, content = self.request(
            "POST",
            path,
            body=urlencode(fields, doseq=True),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        if status != expect:
            raise Failure(f"POST {path}: {status}, expected {expect}\n{content[:2000].decode(errors='replace')}")
        return headers, content


def csrf_token(page):
    found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if found is None:
        raise Failure("no csrfmiddlewaretoken in the form")
    return found.group(1).decode()


def log_in(client, username, password, login_path="/accounts/login/", next_path=None):
    _, page = client.get(login_path)
    fields = {"csrfmiddlewaretoken": csrf_token(page), "username": username, "password": password}
    if next_path:
        fields["next"] = next_path
    client.post_form(login_path, fields)
    if "sessionid" not in client.cookies:
        raise Failure(f"logging in as {username} at {login_path} set no session cookie")


def first(pattern, page, what):
    found = re.search(pattern, page.decode())
    if found is None:
        raise Failure(f"no {what} found on the page (pattern {pattern})")
    return found


class Pages:
    """Every page fetched, and every static file they name, each fetched once."""

    def __init__(self):
        self.pages = []
        self.static = {}

    def html(self, client, path, expect=200):
        _, content = client.get(path, expect=expect)
        self.pages.append((path, expect))
        for ref in re.findall(r"""(?:src|href)=["']([^"']+)["']""", content.decode(errors="replace")):
            url = urlsplit(urljoin(path, unescape(ref)))
            if url.netloc in ("", client.host) and url.path.startswith("/static/"):
                self.static.setdefault(url.path, path)
        return content

    def fetch_static(self, client):
        queue = list(self.static)
        seen = set()
        while queue:
            url = queue.pop()
            if url in seen:
                continue
            seen.add(url)
            if not HASHED.search(url):
                raise Failure(f"{self.static.get(url, '?')} names {url}, not a hashed file name")
            headers, content = client.get(url)
            if url.endswith(".css"):
                # Fonts and images a stylesheet names are served (and hashed) as well.
                for ref in re.findall(rb"""url\(\s*['"]?([^'")]+)['"]?\s*\)""", content):
                    ref = ref.decode()
                    if ref.startswith(("data:", "#", "http:", "https:", "//")):
                        continue
                    target = urlsplit(urljoin(url, ref)).path
                    self.static.setdefault(target, url)
                    queue.append(target)
        return len(seen)


def check(client, run, port, superuser):
    pages = Pages()
    # Production settings are in force: without the proxy's header, plain HTTP is sent to HTTPS.
    status, headers, _ = client.request("GET", "/", proxied=False)
    if status != 301 or not headers.get("location", "").startswith("https://"):
        raise Failure(f"GET / over plain HTTP: {status} {headers.get('location')}, expected a 301 to https://")

    seeded = run([".venv/bin/python", "manage.py", "seed_demo", "--base-url", f"https://127.0.0.1:{port}"])
    login = first(r"as (\S+) / (\S+)", seeded.encode(), "demo login in seed_demo's output")
    username, password = login.group(1), login.group(2)

    pages.html(client, "/")  # the start page, anonymous
    pages.html(client, "/accounts/login/")
    pages.html(client, "/accounts/signup/")
    pages.html(client, "/accounts/password/reset/")
    pages.html(client, "/api/docs/")
    client.get("/api/v1/schema/")
    pages.html(client, "/no-such-page/", expect=404)

    log_in(client, username, password)
    home = pages.html(client, "/")  # my leagues
    slug = first(r'href="/l/([\w-]+)/"', home, "league link on my leagues").group(1)
    league_path = f"/l/{slug}/"
    member_pages(pages, client, slug)
    public_pages(pages, client, port, league_path)
    admin_pages(pages, port, superuser)

    files = pages.fetch_static(client)
    return pages.pages, files


def member_pages(pages, client, slug):
    """Every page a league's admin reads, from the league page down to a hand's correction."""
    league_path = f"/l/{slug}/"
    league = pages.html(client, league_path)
    meeting_pk = first(rf'href="/l/{slug}/m/(\d+)/"', league, "meeting link on the league page").group(1)
    meeting_path = f"{league_path}m/{meeting_pk}/"
    meeting = pages.html(client, meeting_path)
    hand_pk = first(rf'href="{meeting_path}h/(\d+)/', meeting, "hand link on the meeting page").group(1)
    pages.html(client, f"{meeting_path}h/{hand_pk}/")  # why
    pages.html(client, f"{meeting_path}h/{hand_pk}/edit/")  # correction
    pages.html(client, f"{meeting_path}history/")
    pages.html(client, f"{league_path}standings/")
    pages.html(client, f"{league_path}seasons/1/bill/")
    pages.html(client, f"{league_path}seasons/1/reopen/")  # the demo login is the league's admin
    pages.html(client, f"{league_path}seasons/1/what-if/")
    pages.html(client, f"{league_path}seasons/1/what-if/?variant=club&rule-announcement_points=1")
    pages.html(client, f"{league_path}house-rules/")
    pages.html(client, f"{meeting_path}house-rules/")
    pages.html(client, f"{league_path}export.json")
    pages.html(client, f"{league_path}export.csv")
    pages.html(client, "/leagues/import/")
    pages.html(client, f"{league_path}statistics/")
    pages.html(client, f"{league_path}ratings/")
    pages.html(client, f"{league_path}activity/")
    pages.html(client, f"{league_path}seasons/1/report/")
    pages.html(client, f"{league_path}import-paper/")
    pages.html(client, "/accounts/tokens/")
    # The installable app: its service worker, manifest and offline page.
    pages.html(client, "/sw.js")
    pages.html(client, "/manifest.webmanifest")
    pages.html(client, "/offline/")
    pages.html(client, f"{league_path}meetings/new/")
    pages.html(client, "/leagues/new/")
    pages.html(client, "/accounts/password/change/")


def public_pages(pages, client, port, league_path):
    """The public link, switched on through the app as a league admin would (a fresh token),
    and its pages as anyone reads them."""
    _, page = client.get(league_path)
    client.post_form(f"{league_path}public-link/", {"csrfmiddlewaretoken": csrf_token(page), "action": "create"})
    _, page = client.get(league_path)
    token = first(r"/p/([\w-]+)/", page, "public link on the league page").group(1)
    anonymous = Client(port)
    public = pages.html(anonymous, f"/p/{token}/")
    public_meeting = first(rf'href="/p/{token}/m/(\d+)/"', public, "meeting link on the public page").group(1)
    pages.html(anonymous, f"/p/{token}/m/{public_meeting}/")
    pages.html(anonymous, f"/p/{token}/house-rules/")
    pages.html(anonymous, f"/p/{token}/seasons/1/report/")
    pages.html(anonymous, "/p/no-such-token/", expect=404)


def admin_pages(pages, port, superuser):
    """The admin, with a staff user made as the README's operator would make one: every
    model's list it links."""
    staff = Client(port)
    pages.html(staff, "/admin/login/")
    log_in(staff, superuser[0], superuser[1], login_path="/admin/login/", next_path="/admin/")
    index = pages.html(staff, "/admin/")
    changelists = sorted(set(re.findall(r'href="(/admin/\w+/\w+/)"', index.decode())))
    if not changelists:
        raise Failure("the admin index links no model")
    for path in changelists:
        pages.html(staff, path)


def nginx_config(checkout, folder, upstream_port):
    """The shipped site file (NGINX_SITE) made to run here, unchanged but for where it listens
    (free ports on 127.0.0.1, no IPv6), a self-signed certificate for its paths, and gunicorn's
    port when the README's was busy; in a main file of its own (no daemon, files in
    ``folder``). Returns the main file and the HTTPS and HTTP ports."""
    site = (checkout / NGINX_SITE).read_text(encoding="utf-8")
    https_port, http_port = free_port(0), free_port(0)
    rewrites = [
        (r"^\s*listen \[::\]:\d+[^;]*;\n", ""),
        (r"listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl"),
        (r"listen 80;", f"listen 127.0.0.1:{http_port};"),
        (r"ssl_certificate \S+;", f"ssl_certificate {folder / 'cert.pem'};"),
        (r"ssl_certificate_key \S+;", f"ssl_certificate_key {folder / 'key.pem'};"),
        (rf"127\.0\.0\.1:{README_PORT}\b", f"127.0.0.1:{upstream_port}"),
    ]
    for pattern, replacement in rewrites:
        site, found = re.subn(pattern, replacement, site, flags=re.M)
        if not found:
            raise Failure(f"{NGINX_SITE}: nothing matches {pattern!r}, which the check rewrites to run it here")
    (folder / "kartenliga.conf").write_text(site, encoding="utf-8")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        + ["-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
        check=True,
        capture_output=True,
    )
    temp = "".join(
        f"    {kind}_temp_path {folder / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = (
        # As root, nginx would hand its workers to "nobody", who may not enter this folder.
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        + "events {\n    worker_connections 256;\n}\n"
        + f"http {{\n    access_log {folder / 'access.log'};\n{temp}    include {folder / 'kartenliga.conf'};\n}}\n"
    )
    (folder / "nginx.conf").write_text(main, encoding="utf-8")
    return folder / "nginx.conf", https_port, http_port


def tls_connection(port, timeout=30):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the self-signed certificate made above
    return http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=context)


def timed_get(connect, path):
    """Seconds until the whole answer to GET ``path`` arrived, and its status."""
    started = time.monotonic()
    conn = connect()
    try:
        conn.request("GET", path, headers={"Accept-Language": "en"})
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    return time.monotonic() - started, response.status


def pages_beside_slow_bodies(connect, path="/accounts/login/"):
    """SLOW_CLIENTS clients each announce a 10,000-byte body to the calculate endpoint (which
    reads its body at once: no login, no CSRF token to refuse it first) and send it a byte a
    second; the seconds each GET of ``path`` took meanwhile (one after another, SLOW_SECONDS
    long), and their statuses. ``connect()`` gives an http.client connection to the server."""
    slow, stop = [], threading.Event()
    for _ in range(SLOW_CLIENTS):
        conn = connect()
        conn.putrequest("POST", "/api/v1/calculate/")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", "10000")
        conn.endheaders()
        slow.append(conn)

    def trickle():
        while not stop.wait(1.0):
            for conn in slow:
                try:
                    conn.send(b"a")
                except OSError:
                    pass  # dropped by the server: that is allowed

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    times = []
    try:
        time.sleep(1.5)  # every slow client has begun
        ends = time.monotonic() + SLOW_SECONDS
        while time.monotonic() < ends:
            started = time.monotonic()
            try:
                times.append(timed_get(connect, path))
            except OSError:  # no answer within the connection's timeout
                times.append((time.monotonic() - started, "no answer"))
            time.sleep(0.5)
    finally:
        stop.set()
        trickler.join()
        for conn in slow:
            conn.close()
    return times


def check_body_over_the_apps_cap(https_port):
    """A body under nginx's cap but over the app's reaches the app, which names its limit. The
    app answers before reading the body and gunicorn closes the connection; nginx, still
    passing the body on, may then see the connection reset and answer 502: a 502 is asked
    again, twice at most; a 413 must come."""
    for _attempt in range(3):
        big = tls_connection(https_port)
        big.request("POST", "/api/v1/ping/", body=b"x" * 1_040_000, headers={"Content-Type": "application/json"})
        answer = big.getresponse()
        status, text = answer.status, answer.read()
        big.close()
        if status != 502:
            break
    if status != 413 or b"1,000,000 bytes" not in text:
        raise Failure(f"a body of 1,040,000 bytes through nginx: {status}, expected the app's 413")


def check_proxy(checkout, folder, upstream_port):
    """nginx with the shipped site file in front of the running gunicorn: its plain HTTP port
    sends to HTTPS; through HTTPS the app sees the scheme (no redirect) and answers; a body just
    over the app's cap gets the app's 413 (nginx's cap is not below it); and while SLOW_CLIENTS
    trickle bodies, a page still takes under PAGE_LIMIT seconds. It prints the slowest page's time."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise Failure("nginx is not installed (.ci/run installs Debian's)")
    folder.mkdir()
    conf, https_port, http_port = nginx_config(checkout, folder, upstream_port)
    args = [nginx, "-e", str(folder / "error.log"), "-p", str(folder), "-c", str(conf)]
    tested = subprocess.run(args + ["-t"], capture_output=True, text=True)
    if tested.returncode != 0:
        raise Failure(f"nginx -t refuses {NGINX_SITE}:\n{tested.stderr}")
    proxy = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                seconds, status = timed_get(lambda: tls_connection(https_port), "/accounts/login/")
                break
            except OSError:
                if proxy.poll() is not None or time.monotonic() > deadline:
                    raise Failure(f"nginx did not answer:\n{(folder / 'error.log').read_text()}") from None
                time.sleep(0.2)
        if status != 200:
            raise Failure(f"GET /accounts/login/ through nginx: {status}, expected 200")
        plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
        plain.request("GET", "/accounts/login/")
        redirect = plain.getresponse()
        if redirect.status != 301 or not (redirect.getheader("Location") or "").startswith("https://"):
            raise Failure(f"GET over nginx's plain HTTP: {redirect.status}, expected a 301 to https://")
        plain.close()
        check_body_over_the_apps_cap(https_port)
        for _ in range(8):  # every worker has rendered the page once: its time is the wait
            timed_get(lambda: tls_connection(https_port), "/accounts/login/")
        times = pages_beside_slow_bodies(lambda: tls_connection(https_port, timeout=10))
        slowest = max(seconds for seconds, _ in times)
        if slowest > PAGE_LIMIT or any(status != 200 for _, status in times):
            raise Failure(
                f"with {SLOW_CLIENTS} clients sending a body a byte a second through nginx, pages took "
                f"{', '.join(f'{s:.1f} s ({status})' for s, status in times)}; expected 200 in under {PAGE_LIMIT} s"
            )
        print(
            f"   through nginx ({NGINX_SITE}): {SLOW_CLIENTS} clients sending a body a byte a second, "
            f"a page meanwhile in {slowest:.2f} s at most"
        )
    finally:
        stop_group(proxy, timeout=10)


def stop_group(process, *, timeout):
    """Stops a process started in a session of its own, with everything it started (a master
    and its workers), by SIGTERM, and SIGKILL after ``timeout`` seconds."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for_gunicorn(server, client, started):
    """Waits until gunicorn answers the login page; a Failure when the steps end first or
    the check's time runs out."""
    while True:
        if server.poll() is not None:
            raise Failure(f"the production steps ended (exit {server.returncode}) before gunicorn answered")
        if time.monotonic() - started > TIME_LIMIT:
            raise Failure(f"gunicorn did not answer within {TIME_LIMIT} s")
        try:
            client.request("GET", "/accounts/login/")
            return
        except OSError:
            time.sleep(0.5)


def runner(checkout, env):
    """A function that runs a command in the clone, its output on success, a Failure else."""

    def run(args, **extra_env):
        done = subprocess.run(args, cwd=checkout, env={**env, **extra_env}, capture_output=True, text=True)
        if done.returncode != 0:
            raise Failure(f"{' '.join(args)}: exit {done.returncode}\n{done.stdout}{done.stderr}")
        return done.stdout

    return run


def clone_with_steps(checkout, steps):
    """Clones HEAD into ``checkout`` and writes the README's production block to ``steps``,
    on a free port when the README's is taken; the port it runs on."""
    subprocess.run(["git", "clone", "-q", str(REPO), str(checkout)], check=True)
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, check=True, capture_output=True, text=True
    ).stdout.strip()
    block = readme_block(checkout / "README.md")
    port = free_port(README_PORT)
    if port != README_PORT:
        # The README's port is taken on this machine (another server or check): the same
        # block on a free port, nothing else changed.
        block = block.replace(f":{README_PORT}", f":{port}")
        print(f"   port {README_PORT} is busy, the block runs on {port}")
    steps.write_text(block, encoding="utf-8")
    print(f"== production steps of README.md at {head}, in {checkout}:\n{block.rstrip()}")
    return port


def main():
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="kartenliga-prod-"))
    checkout = tmp / "kartenliga"
    server = None
    log_path = tmp / "steps.log"
    try:
        port = clone_with_steps(checkout, tmp / "steps.sh")
        env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_DEBUG", "DATABASE_URL", "VIRTUAL_ENV"}}
        env.update(
            DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
            CSRF_TRUSTED_ORIGINS=f"https://127.0.0.1:{port}",
            PYTHONDONTWRITEBYTECODE="1",
        )
        superuser = ("ci-staff", secrets.token_urlsafe(16))
        run = runner(checkout, env)

        with open(log_path, "wb") as log:
            # Its own session, so the shell, gunicorn's master and workers stop together.
            server = subprocess.Popen(
                ["bash", "-euo", "pipefail", str(tmp / "steps.sh")],
                cwd=checkout,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        client = Client(port)
        wait_for_gunicorn(server, client, started)
        print(f"   gunicorn answers after {time.monotonic() - started:.0f} s")

        run([".venv/bin/python", "manage.py", "check", "--deploy", "--fail-level", "WARNING"])
        # A staff user for the admin, the way an operator makes one without a terminal prompt.
        run(
            [".venv/bin/python", "manage.py", "createsuperuser", "--noinput", "--username", superuser[0]]
            + ["--email", "ci@example.org"],
            DJANGO_SUPERUSER_PASSWORD=superuser[1],
        )

        fetched, files = check(client, run, port, superuser)
        check_proxy(checkout, tmp / "nginx", port)
        elapsed = time.monotonic() - started
        if elapsed > TIME_LIMIT:
            raise Failure(f"the production check took {elapsed:.0f} s, over {TIME_LIMIT} s")
        print(
            f"== production check passed: {len(fetched)} pages and {files} static files as expected "
            f"(status {', '.join(sorted({str(s) for _, s in fetched}))}), {elapsed:.0f} s"
        )
        return 0
    except (Failure, subprocess.CalledProcessError) as failure:
        print(f"!! production check FAILED: {failure}", file=sys.stderr)
        if log_path.exists():
            print("-- output of the production steps (pip, migrate, collectstatic, gunicorn):", file=sys.stderr)
            print(log_path.read_text(errors="replace")[-8000:], file=sys.stderr)
        return 1
    finally:
        clean_up(server, tmp)


def clean_up(server, tmp):
    """Stops the production steps' gunicorn (when it still runs) and removes the clone."""
    stopping = time.monotonic()
    if server is not None and server.poll() is None:
        stop_group(server, timeout=20)
    stopped = time.monotonic()
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"   stopped gunicorn in {stopped - stopping:.0f} s, removed {tmp} in {time.monotonic() - stopped:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
