"""Where a mounted location sits in the job: read, written, checkpoints, credentials or code.

Real files mount buckets the job writes (checkpoints, results) as often as buckets it
reads, and ship keys and code the same way. An engineer tells them apart by what the
file does with the mount point (a copy, a new bucket, commands that read or write it);
a name like /outputs only says what the team meant, so when the file says nothing more
this module answers UNCLEAR instead of guessing. Keys are known by their paths."""

import functools
import re
from dataclasses import dataclass
from enum import StrEnum

# Words of a variable's name that make it a credential (HF_TOKEN, WANDB_API_KEY,
# AWS_SECRET_ACCESS_KEY, OSN_KEY_ID, GITHUB_PAT, TLS_KEYFILE, SHARD_PSK: a pre-shared key).
# Whole words only: TOKENIZER_NAME, MAX_TOKENS and tokenizer_path are settings, not secrets.
SECRET_WORDS = {
    "token", "secret", "password", "passwd", "pat", "credential", "credentials", "key",
    "apikey", "keyfile", "accesskey", "secretkey", "privatekey", "psk", "passphrase",
}  # fmt: skip


# A key that names a place or an order, not a secret (S3_KEY_PREFIX, SORT_KEY).
NOT_SECRET_WORDS = {"prefix", "object", "sort", "partition", "cache", "public", "cert", "certfile"}


# Names that are a key's in one word, with no separator to split them on: a name ending in
# PASSWORD or PASSWD (PostgreSQL's PGPASSWORD, DBPASSWORD), and the clients' own (MySQL's
# MYSQL_PWD, where PWD alone is the working directory; sshpass's SSHPASS; redis-cli's
# REDISCLI_AUTH).
SECRET_ENDINGS = ("password", "passwd")
WHOLE_SECRET_NAMES = {"mysql_pwd", "sshpass", "rediscli_auth"}


# A record's or a mapping's key, not a secret one, when KEY is the only secret word and the
# name says what it looks up (ENV_KEY picks an environment, INPUT_KEY and PROMPT_KEY a field of
# the data, LABEL_KEY a column).
LOOKUP_WORDS = {
    "env", "environment", "input", "output", "prompt", "label", "chosen", "rejected", "field",
    "column", "dict", "dataset", "lookup",
}  # fmt: skip


# …unless another word says what kind of key it is (LABEL_STUDIO_API_KEY, FIELD_ENCRYPTION_KEY).
KEY_KINDS = {"api", "encryption", "private", "access", "signing", "auth", "secret", "master"}


# (asked again for each line a name is on; a 1 MB file names some tens of thousands: a smaller
# cache is emptied before a name comes round again)
@functools.lru_cache(maxsize=65536)
def secret_name(name):
    words = re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", str(name)).lower())
    secret = {w for w in words if w in SECRET_WORDS or w.endswith(SECRET_ENDINGS)}
    if "_".join(w for w in words if w) in WHOLE_SECRET_NAMES:
        return True
    if (
        secret == {"key"}
        and any(w in LOOKUP_WORDS for w in words)
        and not any(w in KEY_KINDS for w in words)
    ):
        return False
    return bool(secret) and not any(w in NOT_SECRET_WORDS for w in words)


# Where a line of the file is shown (a value's source, a note, the values an import lists), a
# key written in it is hidden: the value of a variable, an option or a YAML key named for one
# (`HF_TOKEN=hf_x`, `--hub_token x`, `OPENAI_API_KEY: sk-…`), a key given to a login command
# (`wandb login …`, `docker login -p …`), a bearer token, a URL's password, and any word shaped
# like a known service's token (`hf_…`, `ghp_…`, `sk-…`, `AKIA…`). Each pattern starts at a
# name's or a word's first character and reads each part once (possessive): linear. Whether a
# name is a key's is told by secret_name, on the few lines that hold a secret word at all.
SHOWN_ASSIGNMENT = re.compile(r"""(?<![\w$-])([A-Za-z_]\w*+)=("[^"]*"|'[^']*'|[^\s;&|'"]++)""")
SHOWN_OPTION = re.compile(
    r"""(?<![\w-])(--?[A-Za-z][\w-]*+)([= ]++)("[^"]*"|'[^']*'|[^\s;&|'"-][^\s;&|'"]*+)"""
)
SHOWN_YAML_KEY = re.compile(
    r"""(?<![\w$-])([A-Za-z_]\w*+)(:[ \t]++)("[^"]*"|'[^']*'|[^\s#'"][^\s#]*+)"""
)
LOGIN_KEY = re.compile(
    r"""(\b(?:wandb|huggingface-cli|hf)[ \t]+(?:auth[ \t]+)?login[ \t]+|"""
    r"""\bdocker[ \t]+login\b[^\n;&|]*?[ \t]-p[ \t]+|\bBearer[ \t]+)([^\s$'"-][^\s;&|'"]*)"""
)
# A key set by a tool's own settings command (`aws configure set aws_secret_access_key …`, `dvc
# remote modify --local store secret_access_key …`): hidden when the setting's name is a key's.
SETTING_KEY = re.compile(
    r"""(\b(?:configure|config)[ \t]+set[ \t]+|\bremote[ \t]+modify(?:[ \t]+--local)?[ \t]+"""
    r"""[\w.-]++[ \t]+)([\w.-]++)([ \t]+)([^\s$'"-][^\s;&|'"]*+)"""
)
# An HTTP header holding a key (`-headers "X-Api-Key: k"`, `-H 'X-Auth-Token: t'`): a name of
# dashed words, a colon, the value.
SHOWN_HEADER = re.compile(
    r"(?<![\w-])([A-Za-z][A-Za-z0-9]*+(?:-[A-Za-z0-9]++)++)(:[ \t]*+)([^\s;&|'\"]++)"
)
URL_PASSWORD = re.compile(r"\b([a-z][a-z0-9+.-]*://[^/\s:@]+:)([^@\s/]+)@")
TOKEN_SHAPED = re.compile(
    r"\b(?:hf_[A-Za-z0-9]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{20,}|"
    r"sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|xox[abpr]-[\w-]{10,}|AKIA[0-9A-Z]{16})\b"
)
HIDDEN = "…"
# (plain looks, in the lowered text, for what the patterns need before any is tried: most
# lines hold none of it, and a line can be a megabyte long)
NAMES_A_KEY = ("key", "token", "secret", "passw", "pat", "credential", "psk", "passphrase")
NAMES_A_KEY += tuple(WHOLE_SECRET_NAMES)  # (`passw` finds the names ending in it)
HOLDS_A_KEY = ("login", "bearer", "://", "hf_", "gh", "glpat-", "sk-", "xox", "akia")


# A value no key has: a number or a switch (`MAX_TOKEN=512`, `USE_AUTH_TOKEN=true`).
NOT_A_KEY_VALUE = re.compile(r"[+-]?\d+(?:\.\d+)?|true|false|yes|no|none|null|on|off", re.I)


def hides(name, value):
    """Whether a value shown beside its name is hidden: a key's, not a variable's (`$HF_TOKEN`
    names no key; in single quotes `'$x'` is the text itself) nor a number or a switch."""
    literal = value[:1] == "'"
    value = value.strip("'\"")
    return (
        (literal or value[:1] != "$")
        and not NOT_A_KEY_VALUE.fullmatch(value)
        and secret_name(name.lstrip("-"))
    )


def masked(line):
    """The line with the keys written in it hidden (see above)."""
    if not isinstance(line, str):
        return line
    lower = line.lower()
    if any(word in lower for word in HOLDS_A_KEY):
        line = LOGIN_KEY.sub(lambda m: f"{m.group(1)}{HIDDEN}", line)
        line = URL_PASSWORD.sub(lambda m: f"{m.group(1)}{HIDDEN}@", line)
        line = TOKEN_SHAPED.sub(HIDDEN, line)
    if not any(word in lower for word in NAMES_A_KEY):
        return line
    line = SETTING_KEY.sub(
        lambda m: (
            f"{m.group(1)}{m.group(2)}{m.group(3)}{HIDDEN}"
            if hides(m.group(2).rsplit(".", 1)[-1], m.group(4))
            else m.group(0)
        ),
        line,
    )
    line = SHOWN_ASSIGNMENT.sub(
        lambda m: f"{m.group(1)}={HIDDEN}" if hides(m.group(1), m.group(2)) else m.group(0),
        line,
    )
    if ":" in line and "-" in line:
        line = SHOWN_HEADER.sub(
            lambda m: (
                f"{m.group(1)}{m.group(2)}{HIDDEN}" if hides(m.group(1), m.group(3)) else m.group(0)
            ),
            line,
        )
    line = SHOWN_YAML_KEY.sub(
        lambda m: (
            f"{m.group(1)}{m.group(2)}{HIDDEN}" if hides(m.group(1), m.group(3)) else m.group(0)
        ),
        line,
    )
    return SHOWN_OPTION.sub(
        lambda m: (
            f"{m.group(1)}{m.group(2)}{HIDDEN}" if hides(m.group(1), m.group(3)) else m.group(0)
        ),
        line,
    )


SHOWN_CHARACTERS = 200
LEADING_SPACE = re.compile(r"\s*")


@functools.lru_cache(maxsize=64)  # (one line gives many values: thousands, on a long one)
def shown_line(line):
    """A line as the import page shows it beside a value read from it: its first 200
    characters, stripped, a key in it hidden before the cut (its closing quote may lie past
    it). Only a bounded part of a long line is copied or searched."""
    start = LEADING_SPACE.match(line).end()
    return masked(line[start : start + SHOWN_CHARACTERS + 1000])[:SHOWN_CHARACTERS].rstrip()


class Use(StrEnum):
    READ = "read"
    WRITTEN = "written"
    CHECKPOINT = "checkpoint"
    CREDENTIAL = "credential"
    CODE = "code"
    CONFIG = "config"
    UNCLEAR = "unclear"


CREDENTIAL = re.compile(
    r"(?:^|/)\.ssh(?:/|$)|(?:^|/)\.aws(?:/|$)|(?:^|/)\.kaggle(?:/|$)|\.netrc$|\.config/gcloud|"
    r"(?:^|/)\.kube(?:/|$)|(?:^|/)\.azure(?:/|$)|kubeconfig|(?:^|/)credentials?(?:\.json)?$|service[-_]?account[^/]*\.json$|"
    r"(?:^|/)(?:hf_|api_|auth_|access_)?token(?:\.\w+)?$|\.pem$|\.key$|id_rsa|id_ed25519|id_ecdsa|"
    r"\.huggingface/token|\.cache/huggingface/token|\.docker/config\.json$|(?:^|/)\.wandb|"
    r"(?:^|/)secrets?(?:/|$)|"
    # git's credential store: the tokens `git push`/`gh` use, in plain text
    r"(?:^|/)\.git-credentials$|"
    # A dotenv file (`.env`, `.env.production`, `.env_anthropic`, `.env-prod`) holds the
    # program's secrets, not its code; a template of one (`.env.example`, `.env.local.example`,
    # `.env.dev.sample`: by its last suffix) holds none.
    r"(?:^|/)\.env(?![^/]*[._-](?:example|sample|template|dist)$)(?:[._-][\w-]+(?:\.[\w-]+)*)?$",
    re.IGNORECASE,
)
# A user's shell, editor, SSH client or tool settings copied into the home folder on the node:
# they shape the session, not the job's code or data. An SSH client's settings (`~/.ssh/config`:
# host aliases, which key to use) and the hosts it trusts (`known_hosts`) hold no secret; the
# keys beside them (`~/.ssh/id_*`, a whole `~/.ssh` folder) are credentials. A tracker's settings
# (`~/.config/wandb`: entity, base URL; its key is in `~/.netrc`) are the user's too, and so is the
# AWS CLI's `~/.aws/config` (profiles, regions, endpoints), its keys being in `~/.aws/credentials`.
USER_CONFIG = re.compile(
    r"^(?:~|\$HOME|\$\{HOME\}|/root|/home/[\w.-]+)/\.(?:bashrc|bash_profile|bash_aliases|profile|"
    r"zshrc|inputrc|vimrc|tmux\.conf|screenrc|condarc|"
    r"config/(?:nvim|htop|tmux|wandb)(?:/.*)?|ssh/(?:config|known_hosts)|aws/config)$"
)
SSH_SETTINGS = re.compile(
    r"(?:^|/)\.?ssh[\w.-]*/(?:config|known_hosts)$|(?:^|/)\.?\w*ssh_config$|(?:^|/)\.aws/config$"
)

CHECKPOINT = re.compile(r"ckpt|checkpoint", re.IGNORECASE)
# An option naming where a run resumes from or loads its own state.
RESUMES = re.compile(r"resume|restore|ckpt|checkpoint|continue", re.IGNORECASE)
OUTPUT_NAME = re.compile(
    r"outputs?\b|outputs?[-_/]|results?\b|results?[-_/]|artifacts?\b|artifacts?[-_/]|"
    r"(?:^|[-_/])(?:out|export|exports|logs?|predictions?|embeddings?|masks?|upload)(?:$|[-_/])",
    re.IGNORECASE,
)
DATA_NAME = re.compile(r"data|dataset|corpus|input|footage|videos?|images?|shards?", re.IGNORECASE)
# What a program loads rather than runs: trained weights, checkpoints, a tokenizer, by a folder's
# name or a weights file's extension. Copied from the launching machine, they are an input
# wherever they land (even inside the workdir); only code is run from there.
WEIGHTS_NAME = re.compile(
    r"(?:^|[/_.-])(?:ckpts?|checkpoints?|weights?|tokenizers?)(?:$|[/_.-])|"
    r"\.(?:safetensors|gguf|ggml|pt|pth|ckpt|onnx|h5|npz|pkl)$",
    re.IGNORECASE,
)
# A folder of its own at the node's root for models (`/models`, `/mnt/models`): what a program
# loads; code copied to the node goes where it runs from, not there.
MODELS_MOUNT = re.compile(r"^(?:/mnt)?/models?/?$", re.IGNORECASE)
CLOUD = re.compile(r"^(?:s3|gs|gcs|r2|az|azure|oci|cos|hf|https?|nebius|cw|ibm)://", re.IGNORECASE)

# Options that name where a program writes.
WRITE_WORDS = (
    "output", "out", "save", "ckpt", "checkpoint", "dump", "export", "log_dir", "logdir",
    "logging_dir", "model_dir", "dest", "target", "result", "persist", "upload",
)  # fmt: skip
WRITE_WORD = "(?:" + "|".join(WRITE_WORDS) + ")"
WRITE_OPTION = rf"--?[\w.-]*{WRITE_WORD}[\w.-]*"


@dataclass(frozen=True)
class Verdict:
    use: Use
    reason: str


def _key_file(path):
    """A path that holds a key or a secret; SSH client settings beside the keys hold none."""
    return bool(CREDENTIAL.search(path)) and not SSH_SETTINGS.search(path)


def _refs(path, aliases):
    """Regex alternatives that name the mount point in a script: the path or a variable
    whose value is the path."""
    # The path ends where a name cannot go on: `/out` is not `/outputs`.
    end = r"(?![\w.-])"
    names = [re.escape(path.rstrip("/")) + end] if path else []
    if path.startswith("~/"):
        names.append(r"(?:\$HOME|\$\{HOME\})" + re.escape(path[1:].rstrip("/")) + end)
    for var in aliases:
        names.append(rf"\$\{{?{re.escape(var)}\}}?(?!\w)")
    return "(?:" + "|".join(names) + ")" if names else None


def script_aliases(script, path):
    """Variables the commands set to the path (`OUT=/outputs`, `export DATA_DIR="/data"`),
    so that "$OUT" later names the mount."""
    if not script or not path or path.rstrip("/") not in script:
        return []
    target = re.escape(path.rstrip("/"))
    found = re.findall(
        rf"^\s*(?:export\s+)?([A-Za-z_]\w*)=[\"']?{target}/?[\"']?\s*(?:[;#]|$)",
        script,
        flags=re.MULTILINE,
    )
    return list(dict.fromkeys(found))


# `key=value` overrides (Hydra, OmegaConf, HF argparse) after a command on the same logical
# line: the key names what the value is for. A line that starts with the assignment sets a
# shell variable (`out_dir=/outputs`), which says nothing yet.
OVERRIDE = r"^[ \t]*[^\s#][^\n]*?[ \t]([a-z][\w.+-]*)"


def _overrides(script, ref):
    """The key of each override whose value is the mount point."""
    text = script.replace("\\\n", " ")
    for match in re.finditer(rf"{OVERRIDE}=[\"']?{ref}", text, flags=re.MULTILINE):
        yield match.group(1)


def _named(script, path, aliases):
    """Whether the script holds the mount point's text at all (every pattern below needs it):
    a plain search first, so a file with thousands of mounts does not build their patterns."""
    needles = [path.rstrip("/"), *aliases]
    if path.startswith("~/"):
        needles.append(path[1:].rstrip("/"))
    return any(n and n in script for n in needles)


COPY_COMMAND = re.compile(
    r"\b(?:cp|mv|rsync|gsutil\s+(?:-m\s+)?cp|aws\s+s3\s+(?:cp|sync)|rclone\s+(?:copy|sync))\b"
)
# A word that sends output elsewhere (`>> sync.log`, `2>log`, `2>&1`): not the destination.
REDIRECT_WORD = re.compile(r"\d?>>?(?:&\d)?(\S*)")


def _copied_into(script, ref):
    """True when a copy command (cp, mv, rsync, `aws s3 cp`, `rclone copy` …) has a
    destination, its last word, under ref. Each command is read once, cut at | ; &, and only
    its last word is tested: a search across a whole line backtracked on long lines."""
    target = re.compile(rf"[\"']?{ref}")
    for line in script.splitlines():
        if not COPY_COMMAND.search(line):
            continue
        # (`2>&1` holds an & that does not end the command)
        for command in re.split(r"[|;&]", re.sub(r"\d?>&\d", " ", line)):
            words = command.split()
            # Its output sent to a log after the destination, `rsync a /mnt/b >> sync.log`,
            # as a crontab line runs it inside quotes.
            while words:
                if words[-1] in ('"', "'"):
                    words.pop()
                    continue
                redirect = REDIRECT_WORD.fullmatch(words[-1])
                if redirect:
                    words.pop()
                    continue
                if len(words) > 1 and REDIRECT_WORD.fullmatch(words[-2]):
                    del words[-2:]
                    continue
                break
            if (
                len(words) > 1
                and target.match(words[-1])
                and COPY_COMMAND.search(" ".join(words[:-1]))
            ):
                return True
    return False


def writes_to(script, path, aliases=()):
    """True when the commands write under path (redirects, output options, cp/mv/tee/touch)."""
    ref = _refs(path, aliases)
    if not script or not ref or not _named(script, path, aliases):
        return False
    # (the words one of which a pattern needs, the pattern)
    patterns = [
        ((">",), rf"(?:^|[^<])>>?\s*[\"']?{ref}"),
        (("tee",), rf"\btee\s+(?:-a\s+)?[\"']?{ref}"),
        (("touch",), rf"\btouch\s+[\"']?{ref}"),
        (WRITE_WORDS, rf"{WRITE_OPTION}(?:=|\s+)[\"']?{ref}"),
        (
            ("save", "to_parquet", "to_csv", "write"),
            rf"\b(?:save|save_pretrained|to_parquet|to_csv|savez?|write)\w*\([^)\n]*[\"']?{ref}",
        ),
        (("unzip",), rf"\bunzip\b[^\n]*-d\s+[\"']?{ref}"),
        # (dd's `of=` operand, the file it writes: commands.KEY_VALUE_PROGRAMS)
        (("of=",), rf"\bdd\s[^\n]*\bof=[\"']?{ref}"),
        (("wget", "curl"), rf"\b(?:wget|curl)\b[^\n]*(?:-O|-o|-P|--output[\w-]*)\s*[\"']?{ref}"),
        (("download",), rf"\b(?:huggingface-cli|hf)\s+download\b[^\n]*--local-dir\s+[\"']?{ref}"),
    ]
    if "=" in script and any(re.search(WRITE_WORD, key) for key in _overrides(script, ref)):
        return True
    if any(word in script for word in ("cp", "mv", "rsync", "aws", "rclone")) and _copied_into(
        script, ref
    ):
        return True
    # A pattern runs only when one of its words is in the script: each search is a pass over
    # a run script that can be a megabyte long, and a substring test costs far less.
    return any(
        re.search(pattern, script, flags=re.MULTILINE)
        for words, pattern in patterns
        if any(word in script for word in words)
    )


# A download command: wget, curl, the Hub's client.
FETCH_TOOL = re.compile(r"\b(?:wget|curl)\b|\b(?:huggingface-cli|hf)\s+download\b")


def only_fetched_into(script, path, aliases=()):
    """True when the only writes under path are downloads the commands name the source of
    (`wget URL -O /data/x.json`, `curl -o`, `huggingface-cli download org/x --local-dir`): the
    mount keeps a copy of that source, the data the job reads, and makes nothing of its own."""
    ref = _refs(path, aliases)
    if not script or not ref or not any(w in script for w in ("wget", "curl", "download")):
        return False
    into = re.compile(rf"(?:-O|-o|-P|--output[\w-]*|--local-dir)\s*[\"']?{ref}")

    def fetch(line):
        # (the tool, then its target after it: two searches, each once over the line)
        tool = FETCH_TOOL.search(line)
        return bool(tool and into.search(line, tool.end()))

    lines = script.splitlines()
    kept = [line for line in lines if not fetch(line)]
    fetched = [line for line in lines if fetch(line)]
    if not fetched or not all("://" in line or "download" in line for line in fetched):
        return False
    return not writes_to("\n".join(kept), path, aliases)


# Options that hand a program something to load. A write option wins over these
# (`--output_data` names where it writes).
READ_WORD = (
    r"(?:input|src|model_name_or_path|model_path|load|from|source|weights|resume|"
    r"data|dataset|corpus|train|valid|eval|test)"
)
READ_OPTION = rf"--?[\w.-]*{READ_WORD}[\w.-]*"
# Commands that only look at or take from a path: listing, printing, copying it elsewhere.
# A symlink (`ln -s /outputs out`) is not among them: the job may write through it.
READ_TOOL = (
    r"\b(?:ls|cat|head|tail|wc|du|tree|stat|md5sum|sha256sum|zcat|less|find|tar\s+-?[a-z]*x)"
)
COPY_FROM = r"\b(?:cp|rsync|gsutil\s+(?:-m\s+)?cp|aws\s+s3\s+(?:cp|sync)|rclone\s+(?:copy|sync))"


# `install` (coreutils) copying programs into place, not making folders (`install -d`).
INSTALL_LINE = re.compile(r"^\s*(?:sudo\s++(?:-[\w-]++\s++)*+)?install\s")


@functools.lru_cache(maxsize=8)
def _install_lines(script):
    """The commands of script that install programs (a script is read once per mount)."""
    if "install" not in script:
        return ()
    return tuple(
        line for line in script.splitlines()
        if INSTALL_LINE.match(line) and "-d" not in line.split()
    )  # fmt: skip


# A file install puts in place that holds data, not a program: weights, tables, archives.
DATA_EXTENSIONS = frozenset({
    "bin", "safetensors", "gguf", "ggml", "pt", "pth", "ckpt", "onnx", "h5", "hdf5", "npy",
    "npz", "pkl", "pickle", "parquet", "arrow", "csv", "tsv", "json", "jsonl", "txt", "tar",
    "gz", "tgz", "zip", "zst", "xz", "bz2", "nc", "fit", "fits", "tfrecord", "tfrecords", "db",
    "sqlite", "img", "iso", "vcf", "bam", "fastq", "fasta", "fa", "dat", "raw", "model",
    "vocab", "yaml", "yml",
})  # fmt: skip


def _installs_programs(words, named):
    """True when an install command puts programs in place: its mode is executable (`-m 755`,
    `-m u+x`), or, with no mode given, no file it takes from the place is named as data
    (install's own 755 is no sign: it is the default whatever the file)."""
    mode = ""
    for i, word in enumerate(words):
        if word in ("-m", "--mode") and i + 1 < len(words):
            mode = words[i + 1]
        elif word.startswith("--mode="):
            mode = word[7:]
        elif word[:2] == "-m" and len(word) > 2:
            mode = word[2:]
    if mode:
        digits = mode[-3:] if mode.isascii() and mode.isdigit() else ""
        return bool((digits and int(digits[0]) % 2) or "x" in mode)
    sources = [w for w in words[1:-1] if w[:1] != "-" and named.search(w)]
    names = (_unquoted(w).rsplit("/", 1)[-1] for w in sources)
    return not any("." in n and n.rsplit(".", 1)[1].lower() in DATA_EXTENSIONS for n in names)


def _unquoted(word):
    return word.strip("\"'")


def installed_from(script, path, aliases=()):
    """True when every command naming path installs programs from it (`install -m 755
    /r2/setup/k3s_* .`): the mount holds helper programs the job runs, its code, not data."""
    ref = _refs(path, aliases)
    if not script or not ref or not _install_lines(script) or not _named(script, path, aliases):
        return False
    named = re.compile(ref)
    installs = [line for line in _install_lines(script) if named.search(line)]
    if not installs or any(named.search(line.split()[-1]) for line in installs):
        return False  # (none from it, or it is the place programs are installed into)
    if not all(_installs_programs(line.split(), named) for line in installs):
        return False  # data put in place with install (`install -D /data/weights.bin /models`)
    lines = [
        line for line in script.splitlines()
        if named.search(line) and not line.lstrip().startswith("#")
    ]  # fmt: skip
    return len(lines) == len(installs)


def copied_out_of(script, path, aliases=()):
    """True when a copy tool's source is under path (`rsync -av /mnt/x/ data`)."""
    ref = _refs(path, aliases)
    if not script or not ref or not any(w in script for w in ("cp", "rsync", "aws", "rclone")):
        return False
    pattern = rf"{COPY_FROM}(?:\s+-[\w-]+(?:=\S+)?)*+\s+[\"']?{ref}(?:[/\s\"']|$)"
    return bool(re.search(pattern, script, flags=re.MULTILINE))


# Embeddings handed to a program on a line that says where the vector database it builds is
# kept (Chroma's `--persist-dir`, `--persist_directory`): the vectors it loads into it. (Elsewhere
# an embeddings option as often names what a program encodes and writes: left to the others.)
EMBEDDINGS_OPTION = r"--embeddings(?:[-_]dir)?"
PERSISTS = re.compile(r"\s--persist[-_]dir(?:ectory)?[=\s]")


def _loads_embeddings(script, ref):
    text = script.replace("\\\n", " ")
    for match in re.finditer(rf"{EMBEDDINGS_OPTION}(?:=|\s+)[\"']?{ref}", text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        if PERSISTS.search(text, start, end if end >= 0 else len(text)):
            return True
    return False


def reads_from(script, path, aliases=()):
    """True when the commands read path: hand it to a program as something to load, list
    or print it, or copy from it."""
    ref = _refs(path, aliases)
    if not script or not ref or not _named(script, path, aliases):
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
    if "--persist" in script and _loads_embeddings(script, ref):
        return True
    for key in _overrides(script, ref):
        # The last part names the value; the ones before it name a section (`data.`,
        # `model.`), which says nothing about this value (`data.cache_dir` is written).
        if re.search(READ_WORD, key.rsplit(".", 1)[-1]) and not re.search(WRITE_WORD, key):
            return True
    patterns = [
        rf"{READ_TOOL}\b(?:\s+-[\w-]+)*\s+[\"']?{ref}",
        rf"{COPY_FROM}(?:\s+-[\w-]+(?:=\S+)?)*\s+[\"']?{ref}(?:[/\s\"']|$)",
        rf"<\s*[\"']?{ref}",
        rf"\bdd\s[^\n]*\bif=[\"']?{ref}",
        # a loop over the files in it (`for f in /data/file_*; do`): the shell lists them
        rf"^\s*for\s+\w+\s+in\s+[\"']?{ref}",
    ]
    return any(re.search(p, script, flags=re.MULTILINE) for p in patterns)


# Adapters a server or trainer loads on top of its model (`--lora-paths name=org/adapter`).
LORA_OPTIONS = {"--lora-paths", "--lora_paths", "--lora-modules", "--lora_modules",
                "--lora-path", "--lora_path", "--adapter_name_or_path", "--adapter-name-or-path"}  # fmt: skip


def loads_adapter(script, path, aliases=()):
    """True when a program is handed path as an adapter to load on its model
    (`--lora-modules name=/checkpoints`, `--lora_path /ckpt/adapter`)."""
    ref = _refs(path, aliases)
    if not script or not ref or ("lora" not in script and "adapter" not in script):
        return False
    options = "|".join(re.escape(o) for o in sorted(LORA_OPTIONS))
    return bool(re.search(rf"(?:{options})(?:=|\s+)[\"']?(?:[\w.$-]+=)?{ref}", script))


# A folder named only for what a job produces (`./outputs`, `results/`).
OUTPUT_FOLDER = re.compile(
    r"(?:^|/)(?:outputs?|results?|out|artifacts?|logs?|exports?|predictions?)/?$", re.IGNORECASE
)


def classify(
    mount_path, location, *, script="", aliases=(), new_bucket=False, copied=False, serves=False
):
    """How the job uses one mounted location (mount_path on the node, location its source).

    A direction is stated only on evidence: a copy or an upload from the launching machine
    (it brings something to the job), a new bucket (it holds only what the job writes, unless
    a service uses it: it answers from it), or
    commands that write or read the mount. A name alone (`/outputs`, `/data`) says where the
    team meant things to go, not what the job does: such a mount is UNCLEAR, except that a
    new bucket named for checkpoints is where they go."""
    # Keys are recognised by where they are mounted or copied from, never by a bucket name.
    local = location if is_local(location) else ""
    if (
        USER_CONFIG.match(mount_path.rstrip("/"))
        and (not location or local)
        and not (local and _key_file(local))
    ):
        return Verdict(Use.CONFIG, "the user's own settings, neither the job's code nor its data")
    if CREDENTIAL.search(mount_path) or (local and CREDENTIAL.search(local)):
        return Verdict(Use.CREDENTIAL, "a key or credential file")
    aliases = [*aliases, *script_aliases(script, mount_path)]
    written = writes_to(script, mount_path, aliases)
    if not written and installed_from(script, mount_path, aliases):
        return Verdict(Use.CODE, "the programs the commands install from it and run")
    if local and OUTPUT_FOLDER.search(local):
        # A local results folder sent to the node is not code, and the file does not say
        # whether the job reads it or expects its results to land there (a copy brings
        # nothing back).
        return Verdict(Use.UNCLEAR, "a local output folder sent to the node")
    if copied or (local and not written):
        # A copy is made before the job starts and nothing written to it goes back; local
        # files uploaded to a mounted bucket come from the launching machine too.
        if (
            local
            and not MODELS_MOUNT.match(mount_path)
            and not any(
                pattern.search(path)
                for pattern in (DATA_NAME, WEIGHTS_NAME)
                for path in (mount_path, local)
            )
        ):
            return Verdict(Use.CODE, "files copied from the launching machine")
        if copied:
            return Verdict(Use.READ, "copied to the node before the job starts")
        return Verdict(Use.READ, "data uploaded from the launching machine")
    named_checkpoint = CHECKPOINT.search(mount_path) or (
        CHECKPOINT.search(location) and not OUTPUT_NAME.search(mount_path)
    )
    if written and serves and new_bucket and _store_of(script, mount_path, aliases):
        # A service's database or index (`--persist-dir /vectordb/chroma`) in a named bucket:
        # it answers from what another job built there.
        return Verdict(Use.READ, "a named bucket holding the store a service answers from")
    if written:
        if named_checkpoint and not saves_turned_off(script):
            return Verdict(Use.CHECKPOINT, "named for checkpoints, and the commands write into it")
        if copied_out_of(script, mount_path, aliases):
            # (`rsync /r2/answers/ data` at the start, the results copied back there as it
            # goes: what it holds is both read and written)
            return Verdict(Use.UNCLEAR, "the commands copy out of it and write into it")
        return Verdict(Use.WRITTEN, "the commands write into it")
    read = reads_from(script, mount_path, aliases)
    if new_bucket:
        # A bucket created empty by the launcher holds only what the job writes into it;
        # one the commands only read already holds data (the name is an existing bucket's).
        if named_checkpoint and serves and loads_adapter(script, mount_path, aliases):
            # A server handed checkpoints as an adapter to load on its model
            # (`--lora-modules name=/checkpoints`) answers with what another job left there.
            return Verdict(Use.READ, "checkpoints a service loads and does not write into")
        if named_checkpoint:
            return Verdict(Use.CHECKPOINT, "a new bucket named for checkpoints")
        if read:
            return Verdict(Use.READ, "a named bucket the commands read")
        if serves and _named(script, mount_path, aliases):
            # A service answers from what it is given: a named bucket it uses and does not
            # write into is one another job filled (`name:` also mounts an existing bucket).
            return Verdict(Use.READ, "a named bucket a service uses and does not write into")
        return Verdict(Use.WRITTEN, "a new, empty bucket the job writes into")
    if read:
        if named_checkpoint:
            return Verdict(Use.READ, "a checkpoint the job loads")
        return Verdict(Use.READ, "the commands read it")
    if any(CHECKPOINT_FOLDER_VARIABLE.match(name) for name in aliases):
        # The task hands the program this mount as its checkpoint folder (`envs:
        # CHECKPOINT_DIR: /app/checkpoints`): the program keeps its checkpoints there.
        return Verdict(Use.CHECKPOINT, "given to the program as its checkpoint folder")
    return Verdict(Use.UNCLEAR, "neither the file nor its commands say")


# A trainer told to save no checkpoints along the way (`--save_steps -1`, `--save_steps 0`,
# `--save_strategy no`): what it writes at the end is the model, whatever the mount is named.
SAVE_INTERVAL = re.compile(
    r"--save[-_](?:steps|strategy|interval|every)(?:=|\s++)[\"']?+(-?\w++)", re.IGNORECASE
)


def saves_turned_off(script):
    """Whether every save interval the commands give turns saving off (and they give one)."""
    if not script or "save" not in script:
        return False
    given = [m.group(1).lower() for m in SAVE_INTERVAL.finditer(script)]
    return bool(given) and all(value in ("-1", "0", "no", "none", "false") for value in given)


# A variable naming a checkpoint folder (`CHECKPOINT_DIR`, `CKPT_ROOT`, `RUN_CHECKPOINTS_DIR`);
# not a `…_PATH`, which as often names one checkpoint file to load.
CHECKPOINT_FOLDER_VARIABLE = re.compile(
    r"^(?:\w+_)?(?:CHECKPOINTS?|CKPTS?)_(?:DIR|ROOT|FOLDER)$", re.IGNORECASE
)


def _store_of(script, path, aliases):
    """Whether a program keeps its database or index under path (`--persist-dir`, `--db-path`,
    `--index-dir`)."""
    ref = _refs(path, aliases)
    option = r"--?[\w.-]*(?:persist|db|database|index|vector|chroma)[\w.-]*"
    return bool(ref) and bool(re.search(rf"{option}(?:=|\s+)[\"']?{ref}", script or ""))


def is_local(location):
    """A path on the launching machine, not a bucket or a URL (nor a variable the file leaves
    for the launch, named for a bucket: `source: $OUTPUT_BUCKET`)."""
    return (
        bool(location)
        and not CLOUD.match(location)
        and "://" not in location
        and not BUCKET_VARIABLE.match(location)
    )


# A variable named for a bucket (`$OUTPUT_BUCKET`, `${DATA_BUCKET_NAME}`), alone or with a path.
BUCKET_VARIABLE = re.compile(r"\$\{?[A-Za-z_]{0,40}BUCKET[A-Za-z_]{0,20}\}?(?:/|$)", re.IGNORECASE)


# A bucket URI as the shell hands it over: a command's output inside it (`gs://b/$(hostname)/x`)
# is part of it. `$` is a plain character only where no `(` follows, so each URI is read one
# way (no backtracking over its parts).
URI = r"(?:s3|gs|gcs|r2|az|oci|cos|hf)://(?:[^\s\"';|&)$]|\$\([^()\n]*\)|\$(?!\())+"
COPY_TOOL = (
    r"\b(?:aws\s+s3\s+(?:cp|sync|mv)|gsutil\s+(?:-m\s+)?(?:cp|rsync|mv)|gcloud\s+storage\s+"
    r"(?:cp|rsync|mv)|rclone\s+(?:copy|sync|move)|s5cmd\s+(?:cp|sync|mv)|azcopy\s+(?:copy|sync))"
)
# One shell word: quoted parts and `$(…)` keep their spaces (each read one way, as in URI).
WORD = r"(?:\"[^\"\n]*\"|'[^'\n]*'|\$\([^()\n]*\)|[^\s\"'$]|\$(?!\())+"
CLOUD_COPY = re.compile(rf"{COPY_TOOL}((?:\s+--?[\w-]+(?:=\S+)?)*)\s+({WORD})\s+({WORD})")
URI_OPTION = re.compile(rf"(?<![\w.-])(--?[\w.-]+)(?:=|\s+)[\"']?({URI})")
CLOUD_URI = re.compile(URI)
WHOLE_WRITE_OPTION = re.compile(WRITE_OPTION)


ECHOED = re.compile(r"""\b(?:echo|printf)\s+(?:-\w+\s+)*(?:"[^"]*"|'[^']*')""")
# A copy's source ending in a glob of everything in a folder (`gs://b/model/*`).
FOLDER_GLOB = re.compile(r"/\*{1,2}$")


def copied_folder(source):
    """The folder a copy reads: `gsutil cp gs://b/model/* .` copies the folder's contents,
    so the place the data comes from is `gs://b/model`."""
    return FOLDER_GLOB.sub("", source)


def script_locations(script):
    """Cloud locations the commands read and write, in order: ([read], [written]).

    Only what the commands say outright: an option naming an output (`--output-dir s3://…`)
    or a copy tool's destination is written; any other option or a copy's source is read.
    A place the job writes before it reads it is its own copy, not read from outside, as is
    one copied down and back up (a sync of its own files); one a program's option reads before
    anything writes it (`--input_path gs://s.zarr --output_path gs://s.zarr`, a store updated
    in place) is read and written."""
    reads, writes = [], []
    if not script:
        return reads, writes
    # where a program's option first reads each place, and where it is first written
    first_read, first_write = {}, {}
    text = script.replace("\\\n", " ")
    for number, line in enumerate(text.splitlines()):
        if "://" not in line or line.lstrip().startswith("#"):
            # (nothing to find: a plain test first, run scripts can be long; a comment is
            # an example for the user, `# python x.py --remote s3://…`, not a command)
            continue
        # A command quoted for echo or printf is advice printed for the user, not run.
        if "echo" in line or "printf" in line:
            line = ECHOED.sub("echo", line)
        for match in CLOUD_COPY.finditer(line):
            source, target = match.group(2).strip("\"'"), match.group(3).strip("\"'")
            if CLOUD_URI.fullmatch(target):
                writes.append(target)
                first_write.setdefault(target, (number, match.start(3)))
            if CLOUD_URI.fullmatch(source):
                reads.append(copied_folder(source))
        # An option starts a word: tried once per word, not at every dash of a long run.
        for match in URI_OPTION.finditer(line):
            option, uri = match.group(1), match.group(2)
            written = WHOLE_WRITE_OPTION.fullmatch(option)
            (writes if written else reads).append(uri)
            if written:
                first_write.setdefault(uri, (number, match.start()))
            elif not RESUMES.search(option):
                # (a run resuming from its own checkpoints, `--resume_from s3://b/ckpt
                # --output_dir s3://b/ckpt`, reads nothing from outside)
                first_read.setdefault(uri, (number, match.start()))
    unique_writes = list(dict.fromkeys(writes))
    unique_reads = [
        u for u in dict.fromkeys(reads)
        if u not in unique_writes or first_read.get(u, first_write[u]) < first_write[u]
    ]  # fmt: skip
    return unique_reads, unique_writes
