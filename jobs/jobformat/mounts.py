"""Where a mounted location sits in the job: read, written, checkpoints, credentials or code.

Real files mount buckets the job writes (checkpoints, results) as often as buckets it
reads, and ship keys and code the same way. An engineer tells them apart from the
names and from what the commands do with the mount point; so does this module, and
when neither says, it answers UNCLEAR instead of guessing."""

import re
from dataclasses import dataclass
from enum import StrEnum


class Use(StrEnum):
    READ = "read"
    WRITTEN = "written"
    CHECKPOINT = "checkpoint"
    CREDENTIAL = "credential"
    CODE = "code"
    UNCLEAR = "unclear"


CREDENTIAL = re.compile(
    r"(?:^|/)\.ssh(?:/|$)|(?:^|/)\.aws(?:/|$)|(?:^|/)\.kaggle(?:/|$)|\.netrc$|\.config/gcloud|"
    r"(?:^|/)\.kube(?:/|$)|kubeconfig|(?:^|/)credentials?(?:\.json)?$|service[-_]?account[^/]*\.json$|"
    r"(?:^|/)(?:hf_|api_|auth_|access_)?token(?:\.\w+)?$|\.pem$|\.key$|id_rsa|id_ed25519|id_ecdsa|"
    r"\.huggingface/token|\.cache/huggingface/token|\.docker/config\.json$|(?:^|/)\.wandb|"
    r"(?:^|/)secrets?(?:/|$)",
    re.IGNORECASE,
)
CHECKPOINT = re.compile(r"ckpt|checkpoint", re.IGNORECASE)
OUTPUT_NAME = re.compile(
    r"outputs?\b|outputs?[-_/]|results?\b|results?[-_/]|artifacts?\b|artifacts?[-_/]|"
    r"(?:^|[-_/])(?:out|export|exports|logs?|predictions?|embeddings?|masks?|upload)(?:$|[-_/])",
    re.IGNORECASE,
)
DATA_NAME = re.compile(r"data|dataset|corpus|input|footage|videos?|images?|shards?", re.IGNORECASE)
CLOUD = re.compile(r"^(?:s3|gs|gcs|r2|az|azure|oci|cos|hf|https?|nebius|cw|ibm)://", re.IGNORECASE)

# Options that name where a program writes.
WRITE_OPTION = (
    r"--?[\w.-]*(?:output|out|save|ckpt|checkpoint|dump|export|log_dir|logdir|logging_dir|"
    r"model_dir|dest|target|results?|persist|upload)[\w.-]*"
)


@dataclass(frozen=True)
class Verdict:
    use: Use
    reason: str


def _refs(path, aliases):
    """Regex alternatives that name the mount point in a script: the path or a variable
    whose value is the path."""
    names = [re.escape(path.rstrip("/"))] if path else []
    if path.startswith("~/"):
        names.append(r"(?:\$HOME|\$\{HOME\})" + re.escape(path[1:].rstrip("/")))
    for var in aliases:
        names.append(rf"\$\{{?{re.escape(var)}\}}?")
    return "(?:" + "|".join(names) + ")" if names else None


def writes_to(script, path, aliases=()):
    """True when the commands write under path (redirects, output options, cp/mv/tee/touch)."""
    ref = _refs(path, aliases)
    if not script or not ref:
        return False
    patterns = [
        rf"(?:^|[^<])>>?\s*[\"']?{ref}",
        rf"\btee\s+(?:-a\s+)?[\"']?{ref}",
        rf"\btouch\s+[\"']?{ref}",
        rf"{WRITE_OPTION}(?:=|\s+)[\"']?{ref}",
        rf"\b(?:cp|mv|rsync|gsutil\s+(?:-m\s+)?cp|aws\s+s3\s+(?:cp|sync)|rclone\s+(?:copy|sync))\b"
        rf"[^\n|;&]*\s[\"']?{ref}[^\s;&|]*[\"']?\s*(?:$|[;&|])",
        rf"\b(?:save|save_pretrained|to_parquet|to_csv|savez?|write)\w*\([^)\n]*[\"']?{ref}",
        rf"\bunzip\b[^\n]*-d\s+[\"']?{ref}",
        rf"\b(?:wget|curl)\b[^\n]*(?:-O|-o|-P|--output[\w-]*)\s*[\"']?{ref}",
        rf"\b(?:huggingface-cli|hf)\s+download\b[^\n]*--local-dir\s+[\"']?{ref}",
    ]
    return any(re.search(p, script, flags=re.MULTILINE) for p in patterns)


def reads_from(script, path, aliases=()):
    """True when the commands hand path to a program as something to load."""
    ref = _refs(path, aliases)
    if not script or not ref:
        return False
    option = (
        r"--?[\w.-]*(?:input|model_name_or_path|model_path|load|from|source|weights|resume)[\w.-]*"
    )
    return bool(re.search(rf"{option}(?:=|\s+)[\"']?{ref}", script))


def classify(mount_path, location, *, script="", aliases=(), new_bucket=False, copied=False):
    """How the job uses one mounted location (mount_path on the node, location its source)."""
    # Keys are recognised by where they are mounted or copied from, never by a bucket name.
    local = location if _is_local(location) else ""
    if CREDENTIAL.search(mount_path) or (local and CREDENTIAL.search(local)):
        return Verdict(Use.CREDENTIAL, "a key or credential file")
    if copied:
        # A copy is made before the job starts and nothing written to it goes back.
        if _is_local(location) and not (DATA_NAME.search(mount_path) or DATA_NAME.search(location)):
            return Verdict(Use.CODE, "files copied from the launching machine")
        return Verdict(Use.READ, "copied to the node before the job starts")
    written = writes_to(script, mount_path, aliases)
    named_checkpoint = CHECKPOINT.search(mount_path) or (
        CHECKPOINT.search(location) and not OUTPUT_NAME.search(mount_path)
    )
    if named_checkpoint and (written or not reads_from(script, mount_path, aliases)):
        return Verdict(Use.CHECKPOINT, "named for checkpoints")
    if written:
        return Verdict(Use.WRITTEN, "the commands write into it")
    if new_bucket:
        # A bucket created empty by the launcher holds only what the job writes into it.
        return Verdict(Use.WRITTEN, "a new, empty bucket the job writes into")
    if location and CLOUD.match(location):
        return Verdict(Use.READ, "an existing bucket the job reads")
    if named_checkpoint:
        return Verdict(Use.READ, "a checkpoint the job loads")
    if location and _is_local(location):
        if DATA_NAME.search(mount_path) or DATA_NAME.search(location):
            return Verdict(Use.READ, "data uploaded from the launching machine")
        return Verdict(Use.CODE, "files copied from the launching machine")
    if OUTPUT_NAME.search(mount_path):
        return Verdict(Use.WRITTEN, "named for output")
    if DATA_NAME.search(mount_path):
        return Verdict(Use.READ, "named for data")
    return Verdict(Use.UNCLEAR, "neither its name nor the commands say")


def _is_local(location):
    return bool(location) and not CLOUD.match(location) and "://" not in location


URI = r"(?:s3|gs|gcs|r2|az|oci|cos|hf)://[^\s\"';|&)]+"
COPY_TOOL = (
    r"\b(?:aws\s+s3\s+(?:cp|sync|mv)|gsutil\s+(?:-m\s+)?(?:cp|rsync|mv)|gcloud\s+storage\s+"
    r"(?:cp|rsync|mv)|rclone\s+(?:copy|sync|move)|s5cmd\s+(?:cp|sync|mv)|azcopy\s+(?:copy|sync))"
)


def script_locations(script):
    """Cloud locations the commands read and write, in order: ([read], [written]).

    Only what the commands say outright: an option naming an output (`--output-dir s3://…`)
    or a copy tool's destination is written; any other option or a copy's source is read."""
    reads, writes = [], []
    if not script:
        return reads, writes
    text = script.replace("\\\n", " ")
    for line in text.splitlines():
        for match in re.finditer(rf"{COPY_TOOL}((?:\s+--?[\w-]+(?:=\S+)?)*)\s+(\S+)\s+(\S+)", line):
            source, target = match.group(2).strip("\"'"), match.group(3).strip("\"'")
            if re.fullmatch(URI, target):
                writes.append(target)
            if re.fullmatch(URI, source):
                reads.append(source)
        for match in re.finditer(rf"(--?[\w.-]+)(?:=|\s+)[\"']?({URI})", line):
            option, uri = match.group(1), match.group(2)
            (writes if re.fullmatch(WRITE_OPTION, option) else reads).append(uri)
    unique_writes = list(dict.fromkeys(writes))
    unique_reads = [u for u in dict.fromkeys(reads) if u not in unique_writes]
    return unique_reads, unique_writes
