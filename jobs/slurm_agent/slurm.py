"""Slurm's command-line tools, with machine-readable output: sbatch --parsable, squeue and
sacct with `|`-separated fields, scontrol -o. Every time is read and written in UTC.

A cluster without accounting (no slurmdbd: sacct answers "Slurm accounting storage is
disabled", or the operator says `--accounting none`) is read from the controller instead:
`squeue` lists the watched jobs in every state it still holds, and `scontrol show job -o`
gives an ended job's exit code and allocation. slurmctld forgets an ended job after
MinJobAge seconds (300 by default); a watched job that is gone is VANISHED, its end unknown.
The controller keeps only a job's latest attempt, so what the agent saw of each watched job
(its attempts requeued, its last state) is kept in the workdir (WATCHED_FILE): an agent
restarted, or run by cron with --once, still knows them."""

import json
import logging
import os
import re
import subprocess
from dataclasses import asdict, dataclass, fields, replace
from datetime import UTC, datetime
from pathlib import Path

log = logging.getLogger("e31.slurm_agent")

# A requeued attempt (REQUEUED…) is over, but the job is not: another attempt follows.
FINAL = {
    "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
    "BOOT_FAIL", "DEADLINE", "REVOKED", "SPECIAL_EXIT", "VANISHED",
}  # fmt: skip
SACCT_FIELDS = (
    "JobID", "JobIDRaw", "JobName", "State", "Submit", "Start", "End", "ElapsedRaw", "ExitCode",
    "NodeList", "NNodes", "AllocTRES", "Reason",
    # What the job used (jobacct_gather): peak resident memory of a task, CPU time, what it
    # asked for; TRESUsageInMax carries gres/gpumem and gres/gpuutil where the site measures them.
    "MaxRSS", "TotalCPU", "ReqMem", "Timelimit", "AllocCPUS", "TRESUsageInMax",
)  # fmt: skip
BASE_FIELDS = 13  # up to Reason
# squeue -o: job (123 or 123_4), name, state, submit, start, end, nodes, node count, CPUs,
# reason, time limit, GRES per node. Without accounting this is all that is known while
# a job waits or runs.
SQUEUE_FORMAT = "%i|%j|%T|%V|%S|%e|%N|%D|%C|%r|%l|%b"
# A watched job the controller no longer holds (ended more than MinJobAge ago, unseen):
# how it ended is unknown, and no accounting can tell.
VANISHED = "VANISHED"
NO_ACCOUNTING = "accounting storage is disabled"
WATCHED_FILE = "watched-without-accounting.json"


class SlurmError(RuntimeError):
    pass


class SlurmRefused(SlurmError):
    """sbatch refused the script itself (asks for what the partition does not have):
    submitting it again will not help."""


TRANSIENT = ("Unable to contact", "Socket timed out", "Transport endpoint", "try again",
             "Resource temporarily unavailable", "Zero Bytes were transmitted")  # fmt: skip


@dataclass
class Record:
    """One attempt of one Slurm job (or array task), as sacct recorded it."""

    job_id: str  # the id sbatch gave (an array's base id)
    task: str  # the array index, or ""
    raw_id: str
    name: str
    state: str
    submit: datetime | None
    start: datetime | None
    end: datetime | None
    elapsed: int
    exit_code: int
    signal: int
    nodelist: str
    nodes: int
    gpus: int
    gres: str  # e.g. gpu:h100
    reason: str
    step: str = ""  # a job step (123.0, 123.batch); "" for the allocation itself
    # bytes: the largest resident set of one task (steps; without accounting, a job killed
    # past its memory: the size slurmstepd wrote when it killed it)
    max_rss: int | None = None
    total_cpu: float | None = None  # CPU seconds, user + system (the allocation sums its steps)
    req_mem: int | None = None  # bytes per node asked for
    time_limit: int | None = None  # seconds
    cpus: int = 0  # CPUs allocated, all nodes together
    gpu_memory: int | None = None  # bytes, peak, only where the cluster measures it
    gpu_util: float | None = None  # percent, peak, only where the cluster measures it
    cancelled_by: str = ""  # the uid in "CANCELLED by 1000"
    alloc_tres: str = ""
    stdout: str = ""  # the job's output file, as the controller names it (scontrol StdOut)
    # Read from the controller (squeue, scontrol), not from accounting: times are the
    # controller's, usage is not measured, and an ended job is known only for MinJobAge.
    estimated: bool = False

    @property
    def final(self):
        return self.state in FINAL


def parse_time(text):
    text = (text or "").strip()
    if not text or text in ("Unknown", "None", "N/A"):
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def parse_limit(text):
    """Slurm time limits: UNLIMITED, minutes, [D-]HH:MM:SS, MM:SS -> seconds or None."""
    text = (text or "").strip()
    m = re.fullmatch(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?", text)
    if not m:
        return None
    days, a, b, c = m.groups()
    if days is not None:
        return int(days) * 86400 + int(a) * 3600 + int(b or 0) * 60 + int(c or 0)
    if c is not None:
        return int(a) * 3600 + int(b) * 60 + int(c)
    if b is not None:
        return int(a) * 60 + int(b)
    return int(a) * 60


def gpus_in(tres):
    """'billing=1,cpu=1,gres/gpu:h100=2,gres/gpu=2,node=1' -> (2, 'gpu:h100')."""
    total, typed = 0, ""
    for item in (tres or "").split(","):
        key, _, value = item.partition("=")
        if key == "gres/gpu" and value.isdigit():
            total = int(value)
        elif key.startswith("gres/gpu:") and not typed:
            typed = key.removeprefix("gres/")
    return total, typed or ("gpu" if total else "")


def host_count(nodelist):
    """The hosts a Slurm hostlist names: 'e31-n[1-2,4],gpu7' -> 4; 0 when it cannot tell."""
    items, depth, current = [], 0, ""
    for char in nodelist or "":
        if char == "," and depth == 0:
            items.append(current)
            current = ""
            continue
        depth += (char == "[") - (char == "]")
        current += char
    items.append(current)
    total = 0
    try:
        for item in filter(None, items):
            hosts = 1
            for group in re.findall(r"\[([^\]]*)\]", item):
                ranges = (part.partition("-") for part in group.split(","))
                hosts *= sum(int(b) - int(a) + 1 if b else 1 for a, _, b in ranges)
            total += hosts
    except ValueError:
        return 0
    return total


UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}


def parse_bytes(text):
    """sacct's sizes: '116112K', '100M', '1.50G', '0' -> bytes; '' -> None."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGTP]?)", (text or "").strip())
    return int(float(m[1]) * UNITS[m[2]]) if m else None


def parse_cpu_time(text):
    """TotalCPU: [D-][HH:]MM:SS[.sss] -> seconds; '' -> None."""
    m = re.fullmatch(r"(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)", (text or "").strip())
    if not m:
        return None
    days, hours, minutes, seconds = m.groups()
    return int(days or 0) * 86400 + int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)


def parse_req_mem(text, cpus, nodes):
    """ReqMem per node: '100M' (22.05 and later; older 'Mn'), '500Mc' per CPU."""
    text = (text or "").strip()
    per_cpu = text.endswith("c")
    value = parse_bytes(text.rstrip("nc"))
    if value is None or not value:
        return None
    return value * max(cpus, 1) // max(nodes, 1) if per_cpu else value


def tres_value(tres, key):
    """'cpu=00:00:03,gres/gpumem=2G,mem=116M' -> the text of `key`, or None."""
    for item in (tres or "").split(","):
        name, _, value = item.partition("=")
        if name == key:
            return value
    return None


def parse_sacct(text):
    records = []
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) not in (len(SACCT_FIELDS), BASE_FIELDS):
            continue
        # Without the usage fields (an older agent's recorded text): usage not measured.
        parts += [""] * (len(SACCT_FIELDS) - len(parts))
        row = dict(zip(SACCT_FIELDS, parts, strict=True))
        allocation, _, step = row["JobID"].partition(".")
        job_id, _, task = allocation.partition("_")
        code, _, signal = row["ExitCode"].partition(":")
        gpus, gres = gpus_in(row["AllocTRES"])
        records.append(
            Record(
                job_id=job_id,
                task=task,
                raw_id=row["JobIDRaw"],
                name=row["JobName"],
                state=(row["State"].split() or ["UNKNOWN"])[0],
                submit=parse_time(row["Submit"]),
                start=parse_time(row["Start"]),
                end=parse_time(row["End"]),
                elapsed=int(row["ElapsedRaw"]) if row["ElapsedRaw"].isdigit() else 0,
                exit_code=int(code) if code.isdigit() else 0,
                signal=int(signal) if signal.isdigit() else 0,
                nodelist=row["NodeList"] if row["NodeList"] != "None assigned" else "",
                nodes=int(row["NNodes"]) if row["NNodes"].isdigit() else 0,
                gpus=gpus,
                gres=gres,
                reason=row["Reason"] if row["Reason"] != "None" else "",
                step=step,
                max_rss=parse_bytes(row["MaxRSS"]) or None,
                total_cpu=parse_cpu_time(row["TotalCPU"]),
                req_mem=parse_req_mem(row["ReqMem"], _int(row["AllocCPUS"]), _int(row["NNodes"])),
                time_limit=parse_limit(row["Timelimit"]),
                cpus=_int(row["AllocCPUS"]),
                gpu_memory=parse_bytes(tres_value(row["TRESUsageInMax"], "gres/gpumem")),
                gpu_util=_float(tres_value(row["TRESUsageInMax"], "gres/gpuutil")),
                cancelled_by=_cancelled_by(row["State"]),
                alloc_tres=row["AllocTRES"],
            )
        )
    return records


def _job_and_task(text):
    """'123_4' -> ('123', '4'); '123_[5-9]' -> ('123', '[5-9]'); '123' -> ('123', '')."""
    job, _, task = (text or "").strip().partition("_")
    return job, task


def _gres_per_node(text):
    """squeue's %b, 'gres:gpu:h100:2' or 'gres/gpu:2' (newer), -> (2, 'gpu:h100')."""
    total, typed = 0, ""
    for item in (text or "").split(","):
        parts = re.split(r"[:/=]", item.strip())
        if parts and parts[0] == "gres":
            parts = parts[1:]
        if len(parts) >= 2 and parts[0] == "gpu" and parts[-1].isdigit():
            total += int(parts[-1])
            typed = typed or ":".join(parts[:-1])
    return total, typed if total else ""


def _started(state, start):
    """A waiting job's start time is the scheduler's forecast (squeue %S, scontrol StartTime),
    not a start: only a job past waiting has started, at that time."""
    waiting = state == "PENDING" or state.startswith("REQUEUE")
    return start if start is not None and not waiting else None


def parse_squeue(text):
    """squeue -h -o SQUEUE_FORMAT -> Records (estimated: no exit code, no usage yet)."""
    records = []
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) != 12:
            continue
        ident, name, state, submit, start, end, nodelist, nodes, cpus, reason, limit, gres = parts
        job_id, task = _job_and_task(ident)
        if not job_id.isdigit():
            continue
        state = (state.split() or ["UNKNOWN"])[0]
        start_at, end_at = _started(state, parse_time(start)), parse_time(end)
        per_node, typed = _gres_per_node(gres)
        node_count = _int(nodes)
        final = state in FINAL
        records.append(
            Record(
                job_id=job_id,
                task=task,
                raw_id=ident,
                name=name,
                state=state,
                submit=parse_time(submit),
                start=start_at,
                # A running job's "end" is when its time limit would end it: not an end.
                end=end_at if final else None,
                elapsed=int((end_at - start_at).total_seconds())
                if final and start_at and end_at
                else 0,
                exit_code=0,
                signal=0,
                nodelist=nodelist if start_at else "",
                nodes=node_count,
                gpus=per_node * max(node_count, 1),
                gres=typed,
                reason=reason if reason != "None" else "",
                time_limit=parse_limit(limit),
                cpus=_int(cpus),
                estimated=True,
            )
        )
    return records


# What slurmstepd writes into the job's output when it kills a step past its memory
# (jobacct_gather's OverMemoryKill): the step's resident set and its limit, in bytes.
MEMORY_KILL = re.compile(r"exceeded memory limit \((\d+) > (\d+)\), being killed")
OUTPUT_TAIL = 64 * 1024  # bytes of the job's output read for that line


def memory_kill(text):
    """(resident bytes, limit bytes) of the last step slurmstepd killed past its memory in
    this output, or None."""
    found = MEMORY_KILL.findall(text or "")
    return (int(found[-1][0]), int(found[-1][1])) if found else None


def read_memory_kill(path):
    """The same, from the end of the job's output file; None when it cannot be read."""
    try:
        with open(path, "rb") as output:
            output.seek(max(os.path.getsize(path) - OUTPUT_TAIL, 0))
            return memory_kill(output.read().decode("utf-8", "replace"))
    except (OSError, ValueError):
        return None


def _with_memory_kill(record):
    """Without accounting no step records a peak: a job killed (signal 9) past its memory
    is known by slurmstepd's line in its output, which gives the step's size and limit."""
    if record.signal != 9 or not record.stdout:
        return record
    killed = read_memory_kill(record.stdout)
    if killed is None:
        return record
    return replace(record, max_rss=killed[0], req_mem=record.req_mem or killed[1])


def parse_scontrol_jobs(text):
    """scontrol -o show job ID: one line per job (per array task) -> Records, estimated.
    An ended job's exit code and allocation (TRES) are only here."""
    records = []
    for line in text.splitlines():
        job = _kv(line)
        if not job.get("JobId", "").isdigit():
            continue
        array, task = job.get("ArrayJobId", ""), job.get("ArrayTaskId", "")
        job_id = array if array.isdigit() and task else job["JobId"]
        raw = f"{job_id}_{task}" if array.isdigit() and task else job["JobId"]
        state = job.get("JobState", "UNKNOWN")
        start, end = (
            _started(state, parse_time(job.get("StartTime"))),
            parse_time(job.get("EndTime")),
        )
        final = state in FINAL
        code, _, signal = job.get("ExitCode", "").partition(":")
        tres = job.get("TRES", "")
        gpus, gres = gpus_in(tres)
        nodes = job.get("NumNodes", "").split("-")[0]
        started = start is not None
        records.append(
            Record(
                job_id=job_id,
                task=task if array.isdigit() else "",
                raw_id=raw,
                name=job.get("JobName", ""),
                state=state,
                submit=parse_time(job.get("SubmitTime")),
                start=start,
                end=end if final and started else None,
                elapsed=int((end - start).total_seconds()) if final and started and end else 0,
                exit_code=_int(code),
                signal=_int(signal),
                nodelist=job.get("NodeList", "") if started else "",
                nodes=_int(nodes),
                gpus=gpus,
                gres=gres,
                reason=job.get("Reason", "") if job.get("Reason") != "None" else "",
                req_mem=parse_bytes(job.get("MinMemoryNode", "")) or None,
                time_limit=parse_limit(job.get("TimeLimit", "")),
                cpus=_int(job.get("NumCPUs", "")),
                alloc_tres=tres,
                stdout=job.get("StdOut", ""),
                estimated=True,
            )
        )
    return records


def _int(text):
    return int(text) if (text or "").isdigit() else 0


def _float(text):
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def _cancelled_by(state):
    words = state.split()
    return words[2] if len(words) == 3 and words[:2] == ["CANCELLED", "by"] else ""


class Slurm:
    """The commands, run with TZ=UTC so sacct prints and sbatch reads UTC."""

    def __init__(self, *, partition="", workdir=".", timeout=30, accounting="auto"):
        self.partition = partition
        self.workdir = workdir
        self.timeout = timeout
        # "auto": sacct, until it says the cluster keeps no accounting; "none": never sacct.
        self.accounting = accounting or "auto"
        self.last_seen = {}  # raw id -> (Record, when): a vanished job's last known state
        # raw id -> attempts this agent saw requeued (the controller keeps only the latest)
        self.earlier = {}
        self.remembered = None  # what WATCHED_FILE holds, once read
        self.env = {**os.environ, "TZ": "UTC", "SLURM_TIME_FORMAT": "standard"}
        self.calls = 0  # commands run, for the benchmark

    def run(self, args, stdin=None):
        self.calls += 1
        try:
            done = subprocess.run(  # noqa: S603 - fixed Slurm commands, no shell
                args,
                input=stdin,
                capture_output=True,
                text=True,
                env=self.env,
                timeout=self.timeout,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise SlurmError(f"{args[0]}: {error}") from None
        if done.returncode != 0:
            message = f"{' '.join(args[:2])}: {done.stderr.strip()[:500]}"
            permanent = "submission failed" in done.stderr and not any(
                t in done.stderr for t in TRANSIENT
            )
            raise (SlurmRefused if permanent else SlurmError)(message)
        return done.stdout

    def folder(self, key):
        """The folder a dispatch's jobs run in, under the workdir: its phases share it
        (staging fills it, the run reads it, delivery sends its outputs) and no other job
        does (two jobs writing result.txt in one folder overwrote each other's output)."""
        path = os.path.join(self.workdir, re.sub(r"[^A-Za-z0-9_.-]", "_", key) or "job")
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as error:
            raise SlurmError(f"cannot make the job's folder {path}: {error}") from None
        return path

    def sbatch(self, script, *, name, after="", folder=None):
        folder = folder or self.workdir
        args = ["sbatch", "--parsable", f"--job-name={name}", f"--chdir={folder}",
                f"--output={folder}/%x-%j.out"]  # fmt: skip
        if self.partition:
            args.append(f"--partition={self.partition}")
        if after:
            args.append(f"--dependency=afterok:{after}")
        out = self.run(args, stdin=script).strip()
        job_id = out.split(";")[0]
        if not job_id.isdigit():
            raise SlurmError(f"sbatch answered {out[:200]!r}")
        return job_id

    def find(self, names, since):
        """{job name: job id} for jobs of these names submitted since `since` (any state):
        squeue knows queued, running and just-ended jobs; sacct the older ones."""
        names = list(names)
        found = {}
        if self.accounting != "none":
            try:
                self._find_in_accounting(names, since, found)
            except SlurmError as error:
                self._without_accounting(error)
        out = self.run(["squeue", "-h", "-t", "all", f"--name={','.join(names)}", "-o", "%i|%j"])
        for line in out.splitlines():
            job, _, name = line.partition("|")
            found.setdefault(name, job.split("_")[0])
        return found

    def _find_in_accounting(self, names, since, found):
        out = self.run(["sacct", "-X", "-n", "-P", "--format=JobID,JobName",
                        f"--name={','.join(names)}", "-S", since.strftime("%Y-%m-%dT%H:%M:%S")])  # fmt: skip
        for line in out.splitlines():
            job, _, name = line.partition("|")
            found.setdefault(name, job.split("_")[0])

    def _without_accounting(self, error):
        """sacct failed: on a cluster that keeps no accounting, read the controller from now
        on; any other failure (slurmdbd down for a while) is the caller's to retry."""
        if NO_ACCOUNTING not in str(error):
            raise error
        log.warning("this cluster keeps no accounting (%s): reading squeue and scontrol, "
                    "figures are estimated", error)  # fmt: skip
        self.accounting = "none"

    def records(self, job_ids, now=None):
        """Every attempt (-D: requeued ones too) of these jobs and their array tasks, with
        their steps (an in-allocation staging step is its own phase of the ledger). Without
        accounting: what the controller still holds of them (live_records)."""
        if not job_ids:
            return []
        if self.accounting != "none":
            try:
                out = self.run(["sacct", "-D", "-n", "-P", f"--format={','.join(SACCT_FIELDS)}",
                                "-j", ",".join(sorted(set(job_ids)))])  # fmt: skip
                return parse_sacct(out)
            except SlurmError as error:
                self._without_accounting(error)
        return self.live_records(job_ids, now)

    def live_records(self, job_ids, now=None):
        """The jobs as the controller holds them: squeue for every state, scontrol for an
        ended job's exit code and allocation. A job it no longer holds is VANISHED, with
        what was last seen of it (its start, nodes and GPUs, and when it was last seen
        going, which becomes its end) when this agent saw it, nothing otherwise."""
        now = now or datetime.now(UTC)
        ids = sorted(set(job_ids))
        if self.remembered is None:
            self._recall()
        try:
            out = self.run(["squeue", "-h", "-t", "all", "-j", ",".join(ids),
                            "-o", SQUEUE_FORMAT])  # fmt: skip
        except SlurmError as error:
            if "Invalid job id" not in str(error):  # a single id the controller has forgotten
                raise
            out = ""
        records = []
        for record in parse_squeue(out):
            if record.final:
                ended = self._scontrol_job(record.raw_id)
                record = next((r for r in ended if r.raw_id == record.raw_id), record)
                record = _with_memory_kill(record)
            records.append(record)
        for record in records:
            prior = self.last_seen.get(record.raw_id)
            if prior and prior[0].start and record.start != prior[0].start:
                # Requeued since the last poll (pending again, or started anew): that attempt
                # held its allocation at least until it was last seen going.
                self.earlier.setdefault(record.raw_id, []).append(requeued(*prior))
            if record.final:
                self.last_seen.pop(record.raw_id, None)
            else:
                self.last_seen[record.raw_id] = (record, now)
        records += [r for rs in self.earlier.values() for r in rs if r.job_id in set(ids)]
        seen = {r.job_id for r in records}
        for job_id in ids:
            if job_id in seen:
                continue
            known = [(r, at) for r, at in self.last_seen.values() if r.job_id == job_id]
            for record, at in known or [(None, now)]:
                records.append(vanished(job_id, record, at))
        self._remember(set(ids))
        return records

    def _recall(self):
        """Read what an earlier run of the agent saw (WATCHED_FILE); nothing if it is absent
        or unreadable (then as after a first start: a vanished job's start is unknown)."""
        path = Path(self.workdir) / WATCHED_FILE
        self.remembered = ""
        try:
            text = path.read_text()
            data = json.loads(text)
            self.last_seen = {
                raw: (_record_from(record), datetime.fromisoformat(at))
                for raw, (record, at) in data["last_seen"].items()
            }
            self.earlier = {
                raw: [_record_from(r) for r in records] for raw, records in data["earlier"].items()
            }
            self.remembered = text
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, KeyError) as error:
            log.warning("cannot read %s (%s): starting without it", path, error)

    def _remember(self, ids):
        """Keep what was seen of the jobs still watched, written whole (a crash mid-write
        leaves the earlier file), and only when it changed."""
        self.last_seen = {k: v for k, v in self.last_seen.items() if v[0].job_id in ids}
        self.earlier = {k: v for k, v in self.earlier.items() if v and v[0].job_id in ids}
        text = json.dumps(
            {
                "last_seen": {
                    raw: [_record_data(r), at.isoformat()]
                    for raw, (r, at) in self.last_seen.items()
                },
                "earlier": {raw: [_record_data(r) for r in rs] for raw, rs in self.earlier.items()},
            },
            sort_keys=True,
        )
        if text == self.remembered:
            return
        path = Path(self.workdir) / WATCHED_FILE
        try:
            draft = path.with_suffix(".tmp")
            draft.write_text(text)
            os.replace(draft, path)
            self.remembered = text
        except OSError as error:
            log.warning("cannot write %s (%s): a restart will not know it", path, error)

    def _scontrol_job(self, raw_id):
        try:
            return parse_scontrol_jobs(self.run(["scontrol", "-o", "show", "job", raw_id]))
        except SlurmError as error:
            if "Invalid job id" in str(error):  # forgotten since squeue listed it
                return []
            raise

    def scancel(self, job_ids):
        if job_ids:
            self.run(["scancel", *sorted(set(job_ids))])

    def partition_info(self):
        """The partition as a job sees it: node count, per-node CPUs, memory, GRES, time limit."""
        name = self.partition or self._default_partition()
        fields = _kv(self.run(["scontrol", "-o", "show", "partition", name]))
        nodes = fields.get("Nodes", "")
        info = {
            "nodes": int(fields.get("TotalNodes", "0") or 0),
            "max_time_seconds": parse_limit(fields.get("MaxTime", "")),
            "cpus_per_node": None,
            "memory_per_node_mb": None,
            "tmp_disk_per_node_mb": None,
            "gres_per_node": {},
        }
        if nodes:
            for line in self.run(["scontrol", "-o", "show", "node", nodes]).splitlines():
                node = _kv(line)
                for key, field in (("CPUTot", "cpus_per_node"), ("RealMemory", "memory_per_node_mb"),
                                   ("TmpDisk", "tmp_disk_per_node_mb")):  # fmt: skip
                    value = node.get(key, "")
                    if value.isdigit():
                        info[field] = max(info[field] or 0, int(value))
                for gres, count in _gres(node.get("Gres", "")).items():
                    info["gres_per_node"][gres] = max(info["gres_per_node"].get(gres, 0), count)
        return info

    def _default_partition(self):
        for line in self.run(["sinfo", "-h", "-o", "%P"]).splitlines():
            if line.endswith("*"):
                return line[:-1]
        raise SlurmError("no default partition: give --partition")


TIMES = ("submit", "start", "end")


def _record_data(record):
    data = asdict(record)
    for name in TIMES:
        data[name] = data[name].isoformat() if data[name] else None
    return data


def _record_from(data):
    known = {f.name for f in fields(Record)}
    values = {k: v for k, v in data.items() if k in known}
    for name in TIMES:
        values[name] = datetime.fromisoformat(values[name]) if values.get(name) else None
    return Record(**values)


def requeued(last, last_seen_at):
    """An attempt the controller replaced by a new one (requeued after a preemption or a lost
    node): ended, as far as is known, when it was last seen going."""
    return replace(
        last,
        state="REQUEUED",
        end=last_seen_at,
        elapsed=int((last_seen_at - last.start).total_seconds()),
    )


def vanished(job_id, last=None, last_seen_at=None):
    """A watched job the controller no longer holds. Its start, nodes and GPUs are what this
    agent last saw (nothing after a restart); its end is when it was last seen going, the
    latest moment it is known to have held its allocation: a lower bound, never a guess."""
    if last is None:
        return Record(job_id=job_id, task="", raw_id=job_id, name="", state=VANISHED,
                      submit=None, start=None, end=None, elapsed=0, exit_code=0, signal=0,
                      nodelist="", nodes=0, gpus=0, gres="", reason="", estimated=True)  # fmt: skip
    end = last_seen_at if last.start else None
    return replace(
        last,
        state=VANISHED,
        end=end,
        elapsed=int((end - last.start).total_seconds()) if end else 0,
        reason="",
    )


def _kv(line):
    return dict(word.split("=", 1) for word in line.split() if "=" in word)


def _gres(text):
    """'gpu:h100:8(S:0),gpu:a100:2' -> {'gpu:h100': 8, 'gpu:a100': 2}."""
    out = {}
    for item in re.sub(r"\([^)]*\)", "", text or "").split(","):
        parts = item.split(":")
        if len(parts) >= 2 and parts[-1].isdigit():
            out[":".join(parts[:-1])] = int(parts[-1])
    return out
