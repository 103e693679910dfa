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


# Options that hand a program something to load. A write option wins over these
# (`--output_data` names where it writes).
READ_OPTION = (
    r"--?[\w.-]*(?:input|src|model_name_or_path|model_path|load|from|source|weights|resume|"
    r"data|dataset|corpus|train|valid|eval|test)[\w.-]*"
)
# Commands that only look at or take from a path: listing, printing, copying it elsewhere.
READ_TOOL = (
    r"\b(?:ls|cat|head|tail|wc|du|tree|stat|md5sum|sha256sum|zcat|less|find|tar\s+-?[a-z]*x)"
)
COPY_FROM = (
    r"\b(?:cp|rsync|gsutil\s+(?:-m\s+)?cp|aws\s+s3\s+(?:cp|sync)|rclone\s+(?:copy|sync)|"
    r"ln\s+-s\w*)"
)


def reads_from(script, path, aliases=()):
    """True when the commands read path: hand it to a program as something to load, list
    or print it, or copy from it."""
    ref = _refs(path, aliases)
    if not script or not ref:
        return False
    for match in re.finditer(rf"({READ_OPTION})(?:=|\s+)[\"']?{ref}", script):
        if not re.fullmatch(WRITE_OPTION, match.group(1)):
            return True
    # An option named for what the mount holds (`--scenes /scenes`) hands it over as input;
    # a generic one (`--dirs /mnt/a /mnt/b`) does not say.
    base = re.sub(r"\W", "", path.rstrip("/").rsplit("/", 1)[-1]).lower()
    for match in re.finditer(rf"--?([\w.-]+)(?:=|\s+)[\"']?{ref}", script):
        option = re.sub(r"\W|_", "", match.group(1)).lower()
        if (
            base
            and option == base.replace("_", "")
            and not re.fullmatch(WRITE_OPTION, "--" + option)
        ):
            return True
    patterns = [
        rf"{READ_TOOL}\b(?:\s+-[\w-]+)*\s+[\"']?{ref}",
        rf"{COPY_FROM}(?:\s+-[\w-]+(?:=\S+)?)*\s+[\"']?{ref}(?:[/\s\"']|$)",
        rf"<\s*[\"']?{ref}",
    ]
    return any(re.search(p, script, flags=re.MULTILINE) for p in patterns)


def classify(mount_path, location, *, script="", aliases=(), new_bucket=False, copied=False):
    """How the job uses one mounted location (mount_path on the node, location its source).

    A direction is stated only on evidence: a copy (it can only be read), a new bucket (it
    holds only what the job writes), or commands that write or read the mount. A name alone
    (`/outputs`, `/data`) says where the team meant things to go, not what the job does:
    such a mount is UNCLEAR, except that a new bucket named for checkpoints is where they go."""
    # Keys are recognised by where they are mounted or copied from, never by a bucket name.
    local = location if _is_local(location) else ""
    if CREDENTIAL.search(mount_path) or (local and CREDENTIAL.search(local)):
        return Verdict(Use.CREDENTIAL, "a key or credential file")
    if copied:
        # A copy is made before the job starts and nothing written to it goes back.
        if _is_local(location) and OUTPUT_NAME.search(mount_path) and OUTPUT_NAME.search(location):
            # A local results folder sent to the node: not code, and the file does not say
            # whether the job reads it or expects its results to land there.
            return Verdict(Use.UNCLEAR, "a local output folder copied to the node")
        if _is_local(location) and not (DATA_NAME.search(mount_path) or DATA_NAME.search(location)):
            return Verdict(Use.CODE, "files copied from the launching machine")
        return Verdict(Use.READ, "copied to the node before the job starts")
    written = writes_to(script, mount_path, aliases)
    named_checkpoint = CHECKPOINT.search(mount_path) or (
        CHECKPOINT.search(location) and not OUTPUT_NAME.search(mount_path)
    )
    if written:
        if named_checkpoint:
            return Verdict(Use.CHECKPOINT, "named for checkpoints, and the commands write into it")
        return Verdict(Use.WRITTEN, "the commands write into it")
    if new_bucket:
        # A bucket created empty by the launcher holds only what the job writes into it.
        if named_checkpoint:
            return Verdict(Use.CHECKPOINT, "a new bucket named for checkpoints")
        return Verdict(Use.WRITTEN, "a new, empty bucket the job writes into")
    if reads_from(script, mount_path, aliases):
        if named_checkpoint:
            return Verdict(Use.READ, "a checkpoint the job loads")
        return Verdict(Use.READ, "the commands read it")
    if location and _is_local(location):
        # Uploaded from the launching machine into a bucket mounted on the node (a mount,
        # not a copy): what the job does with it is not said.
        return Verdict(Use.UNCLEAR, "local files uploaded and mounted")
    return Verdict(Use.UNCLEAR, "neither the file nor its commands say")


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
