"""Words of a shell line as sh reads them (quotes and backslashes), in linear time.

`shlex.split` builds each token one character at a time (`token = token + char`), so a
single long word costs the square of its length: one 990 KB `#SBATCH` line took 15 s."""

import re

# A word: runs of plain characters, backslash escapes and quoted strings, up to a blank.
# Possessive quantifiers: an unclosed quote fails at once instead of trying every way to
# cut the text before it (exponential).
WORD = re.compile(r"""(?:[^\s'"\\]++|\\.|'[^']*+'|"(?:[^"\\]++|\\.)*+")++""", re.DOTALL)
PART = re.compile(r"""\\(.)|'([^']*+)'|"((?:[^"\\]++|\\.)*+)"|([^\s'"\\]++)""", re.DOTALL)
# Inside double quotes a backslash escapes only a quote or itself (as shlex reads it).
IN_DOUBLE = re.compile(r"""\\([\\"])""")


def split(text):
    """Like shlex.split(text, comments=False); ValueError on an unclosed quote."""
    words, end = [], 0
    for match in WORD.finditer(text):
        if text[end : match.start()].strip():
            raise ValueError("No closing quotation")
        end = match.end()
        parts = []
        for part in PART.finditer(match.group(0)):
            escaped, single, double, plain = part.groups()
            if escaped is not None:
                parts.append(escaped)
            elif single is not None:
                parts.append(single)
            elif double is not None:
                parts.append(IN_DOUBLE.sub(r"\1", double))
            else:
                parts.append(plain)
        words.append("".join(parts))
    if text[end:].strip():
        raise ValueError("No closing quotation")
    return words
