"""`$VAR` / `${VAR}` in a file's locations, expanded from the file's own variables.

SkyPilot substitutes `envs` into file_mounts and the commands; a variable the file
leaves without a value is set at launch (`--env`, `--secret`), so it is kept as
written and named as missing, never guessed."""

import functools
import re

VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# Set by the launcher on every node at run time: not missing from the file.
RUNTIME = re.compile(r"^(?:SKYPILOT_|SLURM_|HOME$|USER$|PWD$|HOSTNAME$)")


class Variables:
    ambiguous = frozenset()  # names a script sets to two different values (script_variables)
    choices = {}  # of those, name -> the plain values the script gives it, in order

    def __init__(self, values):
        self.values = {}
        self.unset = set()
        for key, value in (values or {}).items():
            if value is None or (isinstance(value, str) and not value.strip()):
                self.unset.add(str(key))
            elif isinstance(value, bool):
                self.values[str(key)] = "true" if value else "false"
            elif not isinstance(value, dict | list):
                # YAML reads 2027-03-01 as a date and 7 as a number; the shell sees the text.
                self.values[str(key)] = str(value)
        self.missing = []  # names used in a location without a value, in order

    def expand(self, text, record=True):
        """Expand what the file gives; keep the rest, and record it as missing when it is a
        location (a script's own variables are not missing)."""
        if not isinstance(text, str) or "$" not in text:
            return text

        def one(match):
            name = match.group(1) or match.group(2)
            if name in self.values:
                return self.values[name]
            if record and not RUNTIME.match(name) and name not in self.missing:
                self.missing.append(name)
            return match.group(0)

        # Real files nest a few levels (A=$B/x, B=$C/y); four passes cover them.
        for _ in range(4):
            expanded = VARIABLE.sub(one, text)
            if expanded == text or "$" not in expanded:
                return expanded
            text = expanded
        return text

    def aliases_of(self, path):
        """Variables whose value is this path, so a script's "$CKPT_DIR" names the mount."""
        path = path.rstrip("/")
        return [k for k, v in self.values.items() if v.rstrip("/") == path and path]


def unresolved(text):
    """Variable names left in a location (for the precision check)."""
    if not isinstance(text, str):
        return []
    names = []
    for match in VARIABLE.finditer(text):
        name = match.group(1) or match.group(2)
        if not RUNTIME.match(name) and name not in names:
            names.append(name)
    return names


# --- a shell script's own variables -----------------------------------------------------------

# `NAME=value`, `export`/`readonly`/`declare -r`/`local NAME=value`, at the start of a line or
# of a command in it (`if …; then X=b; fi`, `[ … ] && X=b`): lookbehinds keep the scan one pass
# over the text however long a line is. The value is plain text and quoted strings; a command
# substitution `$(…)` without nesting is kept as text (it names no value we can state, but a
# command built in a variable, `CMD="$(pwd)/train.py --data $D"`, is still read word by word).
# Each piece of a value is one character or one quoted string, matched one way only, so a line
# that is no assignment after all (`X=aaaa…(`) fails in linear time, not by trying every split.
SCRIPT_ASSIGNMENT = re.compile(
    r"""(?:^|(?<=[;&|])|(?<=then)|(?<=else)|(?<=\bdo)|(?<=[\w*]\)))[ \t]*"""
    r"""(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_]\w*)="""
    r"""((?:[^\s"'`;&|()\\$]|\$(?!\()|\$\([^()"'`]*\)|\\.|"""
    r""""(?:[^"`$\\]|\$(?!\()|\$\(\([^()"`]*\)\)|\$\([^()"`]*\)|\\.)*"|'[^']*')*)"""
    r"""[ \t]*(?=$|[;&|#])""",
    re.MULTILINE,
)
SCRIPT_QUOTED = re.compile(r""""((?:[^"\\]|\\.)*)"|'([^']*)'""")
# ${NAME:-default} (and :=, -, =): the value set before, else the fallback.
DEFAULTED = re.compile(r"\$\{([A-Za-z_]\w*):?[-=]([^{}`]*)\}")
# A default that names another variable (`${OUT:-${ROOT}/data}`): that variable's value first.
# (each part read one way: `{` is never a plain character, so no backtracking over the parts;
# a match whose default names no variable is left to DEFAULTED)
NESTED_DEFAULT = re.compile(r"\$\{([A-Za-z_]\w*):?[-=]((?:[^{}`]|\$\{[A-Za-z_]\w*\})*)\}")
PLAIN_BRACED = re.compile(r"\$\{([A-Za-z_]\w*)\}")
CONTINUED = re.compile(r"\\\n")
# `: "${NAME:=default}"` on a line of its own; a default holding no `$`, quote or brace, so one
# class repeated once: linear.
# (a default may name the submit directory or another variable: `${IMAGE:=$(pwd)/x.sqsh}`,
# `${MOUNT:=$(pwd):$DATA_PATH}`; each `$` starts one of those two, so still one pass)
COLON_DEFAULT = re.compile(
    r"""^[ \t]*:[ \t]+"?\$\{([A-Za-z_]\w*):?=((?:[^{}`"$\n]|\$(?:\(pwd\)|[A-Za-z_]\w*+))*+)\}"?"""
    r"""[ \t]*(?=$|#)""",
    re.MULTILINE,
)
DECLARED = re.compile(r"(?:export|readonly|local|declare(?:[ \t]+-\w+)*)[ \t]+")
# A variable set to the directory the job was submitted from by sbatch's own variable
# (`ROOT=$SLURM_SUBMIT_DIR`, `P="${SLURM_SUBMIT_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"`):
# `$PWD`, the name the commands' reader gives the submit directory. (In a Slurm job the variable
# is always set: a fallback, for a run outside Slurm, never applies; the fallback may hold
# nested quotes SCRIPT_ASSIGNMENT does not read, so the line's start is enough.)
# Only the whole value: `OUT=$SLURM_SUBMIT_DIR/results` keeps its own reading.
SUBMIT_DIR_ALONE = r"""\$(?:(?:SLURM_SUBMIT_DIR(?!\w)|\{SLURM_SUBMIT_DIR\})["']?+(?=[ \t;]|$)|\{SLURM_SUBMIT_DIR:?[-=])"""
SUBMIT_DIR_VALUE = re.compile(
    r"""^[ \t]*+(?:(?:export|readonly|local|declare)[ \t]++)?+([A-Za-z_]\w*+)=["']?+"""
    + SUBMIT_DIR_ALONE,
    re.MULTILINE,
)
SUBMIT_DIR_RAW = re.compile(r"""["']?+""" + SUBMIT_DIR_ALONE, re.MULTILINE)
WHOLE_SUBSTITUTION = re.compile(r"\s*\$\([^()]*\)\s*")


def script_variables(text, given=None):
    """The variables a script sets, as the shell sets them on the way to its commands, over
    the values the file gives outside it (`given`: SkyPilot's envs). One reader for both
    importers and for the commands' reader.

    - quoted pieces are joined (`OUT="/scratch"/"$USER"`), `${X:-default}` takes X when it
      is set before, else the default;
    - `X=$X/more` extends X (`CMD="$CMD --load …"` too); with no X before, X is left unset
      when the rest is a path (the environment's X), and is the rest when it is a command;
    - a name given two different values (`X=a`, later `X=b` in an if) is left unset and
      listed in `.ambiguous`: which one the job uses depends on the run, and a location is
      kept as written rather than guessed."""
    base = given.values if isinstance(given, Variables) else (given or {})
    values, twice, given_each = _assigned(text or "", tuple(Variables(base).values.items()))
    variables = Variables(values)
    variables.ambiguous = twice
    variables.choices = {name: given_each[name] for name in twice if name in given_each}
    return variables


POSITIONAL = re.compile(r"\$\{?[0-9@*]\}?")
# The script's argument with a fallback (`CKPT="${2:-save/final.pt}"`): the fallback, as any
# variable's (`N=${N:-2}` is 2).
POSITIONAL_DEFAULT = re.compile(r"\$\{[0-9]:?-([^{}`$]*)\}")


# A value the script requires (`${1:?usage: run.sh <pdb>}`, `${OUT:?set OUT}`): bash stops with
# the message when it is missing.
REQUIRED_VALUE = re.compile(r"\$\{([0-9]|[A-Za-z_]\w*):?\?[^{}]*\}")


# A shell parameter operation on one variable (`${F%.json}`, `${P##*/}`, `${S/a/b}`).
PARAMETER_OPERATION = re.compile(r"\$\{([A-Za-z_]\w*)(?:%%?|##?|//?|\^\^?|,,?)[^{}]*\}")


@functools.lru_cache(maxsize=8)
def _assigned(text, given):
    """(values, names set twice, each name's plain values in order); cached because an sbatch script's commands and directives
    are read from the same body more than once (a hetjob's components share one)."""
    values = dict(given)
    own, twice, fallbacks, each = {}, set(), {}, {}
    last_set = {}  # name -> where its last assignment at the top of the script ends
    joined = _joined(text or "")
    submitted = set()
    if "SLURM_SUBMIT_DIR" in joined:
        submitted = {m.group(1) for m in SUBMIT_DIR_VALUE.finditer(joined)}
        values.update(dict.fromkeys(submitted, "$PWD"))
    line_start = read_to = 0  # (the start of the line read up to read_to: one pass over the text)
    for m in SCRIPT_ASSIGNMENT.finditer(joined):
        name, raw = m.groups()
        assigned_to = m.end()  # (m is reused below)
        line_start = joined.rfind("\n", read_to, m.start(1)) + 1 or line_start
        read_to = m.start(1)
        value = SCRIPT_QUOTED.sub(_unquoted, raw) if ("'" in raw or '"' in raw) else raw
        if name in submitted and SUBMIT_DIR_RAW.match(raw.rstrip()):
            value = "$PWD"  # (SUBMIT_DIR_VALUE)
        # (each reading of `$…` is tried only where the value holds one: most are plain)
        if "$(" in value and WHOLE_SUBSTITUTION.fullmatch(value):
            continue  # `ADDR=$(scontrol show …)`: a command's output, known when it runs
        if (
            "${" in value
            and (m := PARAMETER_OPERATION.fullmatch(value))
            and m.group(1) not in values
        ):
            # `JOBNAME=${JSON%.json}` of a name known only when the job runs: kept by its own
            # name where a path uses it (`$OUT/${JOBNAME}`), as a command's output is.
            continue
        if value[:2] == "${" and (m := POSITIONAL_DEFAULT.fullmatch(value)):
            value = _bare(m.group(1))
        elif value[:2] == "${" and (m := REQUIRED_VALUE.fullmatch(value)):
            # `INPUT="${1:?usage…}"`, `OUT="${OUT_DIR:?must be set}"`: the value, which the
            # script insists is given (else bash prints the message and stops)
            value = f"${m.group(1)}"
        if value[:1] == "$" and POSITIONAL.fullmatch(value):
            # `GENOME=$1`: the script's argument, kept by its name (`$GENOME`); another value
            # later makes the name one of two. After a value of the script's own
            # (`DATA=data/train`, then `--data) DATA="$2"` in an option loop) it is that
            # default's override at launch, as `${2:-data/train}` is: the default stands.
            # (in a block or after a test: indented, or after a `case` pattern or `&&`; a
            # declaring word is short, so a long prefix is another command's, looked at no further)
            prefix = joined[max(line_start, read_to - 80) : read_to]
            nested = read_to > line_start and not (
                read_to - line_start <= 80 and DECLARED.fullmatch(prefix)
            )
            if (
                nested
                and name in own
                and not POSITIONAL.fullmatch(own[name])
                and "$" not in own[name]
            ):
                continue
            if name in own and own[name] != value:
                twice.add(name)
            own[name] = value
            values.pop(name, None)
            continue
        if "$" in value:
            if (m := DEFAULTED.fullmatch(value)) and m.group(1) == name and name in fallbacks:
                # `X=${X:-a}` and elsewhere `X=${X:-b}` (the arms of a `case`): two defaults,
                # which one holds depends on the run.
                if fallbacks[name] != m.group(2):
                    twice.add(name)
                continue
            if m and m.group(1) == name and name not in own:
                fallbacks[name] = m.group(2)
            if "${" in value and NESTED_DEFAULT.search(value):
                value = NESTED_DEFAULT.sub(
                    lambda m: (
                        m.group(0)
                        if "${" not in m.group(2)  # (a plain default: DEFAULTED's)
                        else values.get(m.group(1))
                        or PLAIN_BRACED.sub(
                            lambda n: values.get(n.group(1), n.group(0)), _bare(m.group(2))
                        )
                    ),
                    value,
                )
            value = DEFAULTED.sub(lambda m: values.get(m.group(1)) or _bare(m.group(2)), value)
            if any((m.group(1) or m.group(2)) == name for m in VARIABLE.finditer(value)):
                rest = re.sub(rf"\$\{{?{name}\}}?(?!\w)", "", value)
                if values.get(name):
                    value = Variables({name: values[name]}).expand(value, record=False)
                elif rest.lstrip()[:1] == "-":
                    value = rest.strip()  # options added to a command built in the variable
                else:
                    continue
                own[name] = values[name] = value
                continue
        top = read_to == line_start and "$" not in raw
        if name in own and own[name] != value:
            if top and name in last_set and _overwritten(joined, last_set[name], line_start, name):
                # set again at the top of the script before anything uses it (a block of
                # settings where a later line replaces an earlier one): the later value holds
                own[name] = values[name] = value
                each[name] = [value]
                last_set[name] = assigned_to
                continue
            twice.add(name)
        own[name] = values[name] = value
        each.setdefault(name, []).append(value)  # (a tuple grown by `+=` is copied each time)
        if top and "$" not in raw:  # (a plain value; a default of its own, `${X:-a}`, is not)
            last_set[name] = assigned_to
        else:
            last_set.pop(name, None)
    each = {name: tuple(plain) for name, plain in each.items()}
    return {k: v for k, v in values.items() if k not in twice}, frozenset(twice), each


# Lines between two settings of one variable that cannot use it or branch: blank lines,
# comments and other settings at the start of a line.
SETTINGS_ONLY = re.compile(r"(?:[ \t]*+(?:#[^\n]*+)?\n|[A-Za-z_]\w*+=[^\n]*+\n)*+")
OVERWRITE_SPAN = 4000  # characters between the two settings looked at


def _overwritten(text, start, end, name):
    """Whether the text between a variable's setting (ending at start) and the line of its next
    one (end) holds only blank lines, comments and other settings, none using the variable: the
    first value is never read."""
    if end - start > OVERWRITE_SPAN:
        return False
    nl = text.find("\n", start, end)
    if nl < 0:
        return False  # (two settings on one line: `A=x; A=y` is left to the general rule)
    between = text[nl + 1 : end]
    if "$" + name in between or "${" + name in between:
        return False
    return SETTINGS_ONLY.fullmatch(between) is not None


def _comment_ends(text):
    """A comment line ending in `\\` (`#    --codecarbon-dir $P \\`, an option taken out of a
    list) continues nothing: bash ends a comment at the end of its line. Only a comment that is
    not itself inside a continued line (where `#` may be text in a quoted value)."""
    lines = text.split("\n")
    continued = False
    for i, line in enumerate(lines):
        if not continued and line.endswith("\\") and line.lstrip().startswith("#"):
            lines[i] = line.rstrip("\\")
        continued = lines[i].endswith("\\")
    return "\n".join(lines)


def _joined(text):
    # A value continued over lines (`ARGS="\` … `"`) is one value.
    if "\\\n" in text:
        text = CONTINUED.sub(" ", _comment_ends(text) if "#" in text else text)
    # `: "${NAME:=default}"` (the no-op command whose expansion sets NAME when it is unset)
    # is `NAME=${NAME:-default}`, read as any fallback.
    return COLON_DEFAULT.sub(r"\1=${\1:-\2}", text) if ":=" in text else text


def _unquoted(match):
    # An escaped `\$` stays escaped: it is expanded where the value is used (`srun bash -c`).
    return match.group(1) if match.group(1) is not None else match.group(2)


def _bare(default):
    return SCRIPT_QUOTED.sub(_unquoted, default) if ('"' in default or "'" in default) else default
