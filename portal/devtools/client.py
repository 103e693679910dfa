"""A small HTTP load loop for `manage.py bench`: logged-in sessions over keep-alive
connections, a page hammered by a few threads for a few seconds, and the numbers that
matter (requests per second, p50/p99 latency, bytes). Plain http.client: no dependency,
and the client's own cost is the same for every page it compares."""

import http.client
import math
import re
import threading
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from urllib.parse import urlencode


class Session:
    """One person's cookies against host:port; each thread opens its own connection."""

    def __init__(self, host, port, timeout=60):
        self.host, self.port, self.timeout = host, port, timeout
        self.cookies = {}

    def connection(self):
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def _headers(self, extra=None):
        headers = {"Host": f"{self.host}:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {**headers, **(extra or {})}

    def _keep(self, response):
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie(header)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value

    def request(self, method, path, body=None, headers=None, conn=None):
        own = conn is None
        conn = conn or self.connection()
        try:
            conn.request(method, path, body=body, headers=self._headers(headers))
            response = conn.getresponse()
            content = response.read()
            self._keep(response)
            return response.status, content, response.headers
        finally:
            if own:
                conn.close()

    def form_post(self, path, fields, headers=None, conn=None):
        body = urlencode(fields, doseq=True)
        extra = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "Referer": f"http://{self.host}:{self.port}{path}",
            **(headers or {}),
        }
        return self.request("POST", path, body=body, headers=extra, conn=conn)

    def login(self, email, password):
        status, page, _ = self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        fields = {"username": email, "password": password}
        fields["csrfmiddlewaretoken"] = token.group(1).decode() if token else ""
        status, _, headers = self.form_post("/accounts/login/", fields)
        if status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"could not log in as {email} (HTTP {status})")
        return self


@dataclass
class Sample:
    requests: int
    seconds: float
    latencies: list
    bytes: int
    errors: int

    @property
    def rps(self):
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, p):
        return percentile(self.latencies, p)


def percentile(values, p):
    """The nearest-rank percentile: the smallest value that `p` % of `values` do not exceed
    (p95 of 200 is the 190th fastest), so it is always a time that was measured."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(p / 100 * len(ordered)))) - 1]


def hammer(session, send, seconds, concurrency):
    """Call `send(session, conn)` from `concurrency` threads for `seconds`; each call returns
    (status, body). At least one request per thread, however slow."""
    deadline = time.perf_counter() + seconds
    lock = threading.Lock()
    latencies, sizes, errors = [], [], [0]

    def worker():
        conn = session.connection()
        try:
            while True:
                start = time.perf_counter()
                try:
                    status, body = send(session, conn)
                except (OSError, http.client.HTTPException):
                    status, body = 599, b""
                    conn.close()
                    conn = session.connection()
                took = time.perf_counter() - start
                with lock:
                    latencies.append(took)
                    sizes.append(len(body))
                    if status >= 400:
                        errors[0] += 1
                if time.perf_counter() >= deadline:
                    return
        finally:
            conn.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    size = sorted(sizes)[len(sizes) // 2] if sizes else 0
    return Sample(len(latencies), elapsed, latencies, size, errors[0])


def get(path, headers=None):
    def send(session, conn):
        status, body, _ = session.request("GET", path, headers=headers, conn=conn)
        return status, body

    return send


class FormFields(HTMLParser):
    """The named fields of the first form with `marker` in its attributes, as a browser
    would submit them (checked boxes, selected options, textarea text)."""

    def __init__(self, marker):
        super().__init__()
        self.marker, self.inside, self.done = marker, False, False
        self.fields, self._textarea, self._select = [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and not self.done and self.marker in " ".join(map(str, a.values())):
            self.inside = True
        if not self.inside or not a.get("name") and tag != "option":
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button", "file"):
                self.fields.append((a["name"], a.get("value") or ""))
        elif tag == "textarea":
            self._textarea = [a["name"], ""]
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select and "selected" in a:
            self.fields.append((self._select, a.get("value") or ""))

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "textarea" and self._textarea is not None:
            self.fields.append(tuple(self._textarea))
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "form" and self.inside:
            self.inside, self.done = False, True


def form_fields(html, marker):
    parser = FormFields(marker)
    parser.feed(html)
    return parser.fields
