"""The portal's public scheduler API, over HTTP with a bearer token (urllib only)."""

import json
import urllib.error
import urllib.request

from . import VERSION


class PortalDown(RuntimeError):
    """The portal did not answer, or answered 5xx: retry later."""


class PortalRefused(RuntimeError):
    """The portal answered 4xx: retrying the same request will not help."""

    def __init__(self, status, detail):
        super().__init__(f"{status}: {detail}")
        self.status, self.detail = status, detail


class Portal:
    def __init__(self, url, token, *, timeout=20):
        self.base = url.rstrip("/") + "/api/v1/scheduler"
        self.token = token
        self.timeout = timeout
        self.requests = 0  # for the benchmark

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        self.requests += 1
        try:
            request = urllib.request.Request(  # noqa: S310 - the operator's portal URL
                self.base + path,
                data=data,
                method=method,
                headers={
                    "Authorization": f"Bearer {self.token}",
                    "Content-Type": "application/json",
                    "Accept": "application/json",
                    "User-Agent": f"e31-slurm-agent/{VERSION}",
                },
            )
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            text = error.read()[:2000].decode("utf-8", "replace")
            if error.code >= 500 or error.code == 429:
                raise PortalDown(f"{error.code} from the portal") from None
            try:
                detail = json.loads(text).get("detail", text)
            except (ValueError, AttributeError):
                detail = text
            raise PortalRefused(error.code, detail) from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            # URLError wraps the socket's error; its own words read "Connection refused".
            reason = getattr(error, "reason", error)
            raise PortalDown(
                f"the portal did not answer: {getattr(reason, 'strerror', None) or reason}"
            ) from None

    def dispatches(self):
        return self.call("GET", "/cluster/dispatches")

    def submitted(self, job_id, slurm_jobs):
        return self.call(
            "POST", f"/cluster/dispatches/{job_id}/submitted", {"slurm_jobs": slurm_jobs}
        )

    def finished(self, job_id):
        return self.call("POST", f"/cluster/dispatches/{job_id}/finished", {})

    def partition(self, info):
        return self.call("PUT", "/cluster/partition", {**info, "agent_version": VERSION})

    def event(self, job_id, body):
        return self.call("POST", f"/jobs/{job_id}/events", body)

    def hold(self, job_id, body):
        return self.call("POST", f"/jobs/{job_id}/holds", body)
