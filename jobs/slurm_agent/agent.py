"""The agent's loop: pull, submit, watch, post; back off while the portal is away.

It keeps no state of its own on disk (without accounting, slurm.py keeps what it saw of the
jobs, which the controller forgets). After a restart it finds what it submitted by the
Slurm job names it gave (e31-<dispatch key>-<phase>) and by the ids it told the portal, and
posts again what Slurm recorded: the portal answers a repeated key with "duplicate"."""

import logging
import time
from datetime import UTC, datetime, timedelta

from .derive import Post, derive_dispatch
from .portal import PortalDown, PortalRefused
from .slurm import SlurmError, SlurmRefused

log = logging.getLogger("e31.slurm_agent")

REPORT_EVERY = 300  # seconds between two reports of the partition
MAX_BACKOFF = 60


def slurm_name(dispatch, phase):
    return f"e31-{dispatch['key']}-{phase}"


class Agent:
    def __init__(self, portal, slurm, *, cluster="", interval=5.0, clock=time.monotonic):
        self.portal, self.slurm = portal, slurm
        self.cluster = cluster
        self.interval = interval
        self.clock = clock
        self.posted = {}  # idempotency key -> fingerprint of what was posted
        self.reported_at = None
        self.stopping = False
        self.refused_token = False
        self.polls = 0
        self.watched = 0  # dispatches looked at, summed over polls (for the benchmark)

    # --- the loop -------------------------------------------------------------------------
    def run_forever(self):
        backoff = self.interval
        while not self.stopping:
            try:
                self.poll_once()
                backoff = self.interval
            except PortalDown as error:
                log.warning("%s; retrying in %.0f s", error, backoff)
                self._sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
                continue
            except PortalRefused as error:
                if error.status in (401, 403):
                    # A revoked or wrong token, or a client that is not a cluster: polling
                    # again changes nothing, so stop and say so.
                    log.error("the portal refuses this agent (%s): check the token", error)
                    self.refused_token = True
                    return
                log.error("the portal refused a request: %s", error)
            except SlurmError as error:
                log.error("Slurm: %s", error)
            self._sleep(self.interval)

    def _sleep(self, seconds):
        end = self.clock() + seconds
        while not self.stopping and self.clock() < end:
            time.sleep(min(0.2, max(0.0, end - self.clock())))

    def poll_once(self):
        self.polls += 1
        # The listing first: a refused token or an absent portal is said before Slurm is asked.
        listing = self.portal.dispatches()
        if self.reported_at is None or self.clock() - self.reported_at > REPORT_EVERY:
            self.portal.partition(self.slurm.partition_info())
            self.reported_at = self.clock()
        self.cluster = listing.get("cluster") or self.cluster
        dispatches = listing.get("dispatches", [])
        for dispatch in dispatches:
            if not dispatch["slurm_jobs"]:
                self.submit(dispatch)
        watched = [d for d in dispatches if d["slurm_jobs"]]
        self.watched += len(watched)
        ids = [j for d in watched for j in d["slurm_jobs"].values()]
        records = self.slurm.records(ids) if ids else []
        for dispatch in watched:
            self.watch(dispatch, records)

    # --- one dispatch ---------------------------------------------------------------------
    def submit(self, dispatch):
        """Submit the chain, skipping what an earlier run of the agent already submitted."""
        since = datetime.fromisoformat(dispatch["dispatched_at"]).astimezone(UTC)
        if datetime.now(UTC) < since.replace(microsecond=0) + timedelta(seconds=1):
            # Slurm's times are whole seconds: a job started in the second it was dispatched
            # would read as started before the dispatch, and a run dispatched again would get
            # its new attempt's events before its `redispatched` one (and refuse them).
            return
        names = {s["phase"]: slurm_name(dispatch, s["phase"]) for s in dispatch["scripts"]}
        found = self.slurm.find(names.values(), since - timedelta(minutes=1))
        folder = self.slurm.folder(dispatch["key"])
        ids = {}
        for script in dispatch["scripts"]:
            phase = script["phase"]
            if names[phase] in found:
                ids[phase] = found[names[phase]]
                continue
            after = ids.get(script["after"], "") if script["after"] else ""
            try:
                ids[phase] = self.slurm.sbatch(
                    script["text"], name=names[phase], after=after, folder=folder
                )
            except SlurmRefused as error:
                self.refused(dispatch, phase, ids, error)
                return
            log.info("job %s: %s submitted as Slurm job %s", dispatch["job_id"], phase, ids[phase])
        try:
            answer = self.portal.submitted(dispatch["job_id"], ids)
        except PortalRefused as error:
            log.error(
                "job %s: the portal refused the Slurm ids %s: %s", dispatch["job_id"], ids, error
            )
            return
        dispatch.update(answer)

    def refused(self, dispatch, phase, ids, error):
        """sbatch refused a script: what was submitted of the chain is cancelled and the run
        fails (setup), with Slurm's own words, through the public events API."""
        log.error("job %s: sbatch refused the %s script: %s", dispatch["job_id"], phase, error)
        self.slurm.scancel(list(ids.values()))
        message = str(error).split(": ", 1)[-1]
        self.post(
            dispatch["job_id"],
            Post(
                "event",
                {
                    "kind": "failed",
                    "occurred_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "idempotency_key": f"slurm:{self.cluster}:{dispatch['key']}:{phase}:refused",
                    "failure_reason": "setup",
                    "note": f"sbatch refused the {phase} script: {message}"[:2000],
                },
            ),
        )
        self.portal.finished(dispatch["job_id"])

    def watch(self, dispatch, records):
        job_id = dispatch["job_id"]
        derived = derive_dispatch(self.cluster, dispatch, records)
        if dispatch["cancel"] and derived.unfinished:
            log.info("job %s: cancel requested, scancel %s", job_id, derived.unfinished)
            self.slurm.scancel(derived.unfinished)
        for post in derived.posts:
            self.post(job_id, post)
        if derived.ended:
            if derived.unfinished:  # jobs of the chain that can no longer run
                self.slurm.scancel(derived.unfinished)
            self.portal.finished(job_id)
            log.info("job %s: done", job_id)

    def post(self, job_id, post):
        fingerprint = post.fingerprint()
        if self.posted.get(post.key) == fingerprint:
            return
        try:
            if post.what == "event":
                self.portal.event(job_id, post.body)
            else:
                self.portal.hold(job_id, post.body)
        except PortalRefused as error:
            # A refusal is final for this body (e.g. the key was used for another event):
            # say so once and do not hammer the portal with it.
            log.error("job %s: the portal refused %s: %s", job_id, post.key, error.detail)
        self.posted[post.key] = fingerprint
