"""`$VAR` / `${VAR}` in a file's locations, expanded from the file's own variables.

SkyPilot substitutes `envs` into file_mounts and the commands; a variable the file
leaves without a value is set at launch (`--env`, `--secret`), so it is kept as
written and named as missing, never guessed."""

import re

VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# Set by the launcher on every node at run time: not missing from the file.
RUNTIME = re.compile(r"^(?:SKYPILOT_|SLURM_|HOME$|USER$|PWD$|HOSTNAME$)")


class Variables:
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
            text = VARIABLE.sub(one, text)
            if "$" not in text:
                break
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
