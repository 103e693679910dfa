"""Parse human quantities ("2.5 TiB", "36h", "90 min", "2027-03-01T09:00Z") into
canonical units (bytes, seconds, aware datetimes) and print them back exactly.

Printing is exact: parse(format(x)) == x for every value this module produces,
which is what lets YAML and JSON round-trip without loss."""

import math
import re
from datetime import UTC, date, datetime, time
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

NUMBER = r"[0-9][0-9_,]*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+"

SIZE_UNITS = {
    "b": 1,
    "byte": 1,
    "bytes": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "pb": 10**15,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
    "pib": 2**50,
    # Slurm and Kubernetes spellings are binary.
    "k": 2**10,
    "m": 2**20,
    "g": 2**30,
    "t": 2**40,
    "p": 2**50,
    "ki": 2**10,
    "mi": 2**20,
    "gi": 2**30,
    "ti": 2**40,
    "pi": 2**50,
}
_SIZE_PRINT = [
    ("PiB", 2**50),
    ("TiB", 2**40),
    ("GiB", 2**30),
    ("MiB", 2**20),
    ("KiB", 2**10),
    ("PB", 10**15),
    ("TB", 10**12),
    ("GB", 10**9),
    ("MB", 10**6),
    ("KB", 10**3),
]

# Slurm and Kubernetes spellings print as the binary units they mean.
_SPELLING = {"k": "KiB", "m": "MiB", "g": "GiB", "t": "TiB", "p": "PiB", "ki": "KiB",
             "mi": "MiB", "gi": "GiB", "ti": "TiB", "pi": "PiB", "b": "B", "byte": "B", "bytes": "B"}  # fmt: skip

DURATION_UNITS = {
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "d": 86400,
    "day": 86400,
    "days": 86400,
    "w": 604800,
    "week": 604800,
    "weeks": 604800,
}

MAX_BYTES = 10**21  # a zettabyte: beyond any job, and keeps numbers sane
MAX_SECONDS = 10 * 366 * 86400  # ten years


class UnitError(ValueError):
    """The text is not an exact quantity; the message says what would be."""


def quoted(text, limit=60):
    """What a person typed, as messages show it: “…”, cut at `limit` characters."""
    text = str(text).strip()
    return f"“{text if len(text) <= limit else text[:limit] + '…'}”"


# Words that make a quantity an estimate or a wish (pattern, what it makes the value). One list
# for the format's own check, the job editor and the intake form, so they say the same thing.
VAGUE = [
    (r"\broughly\b", "an estimate (“roughly”)"),
    (r"\b(?:about|around|approximately|approx\.?|circa|ca\.)\s*~?\d", "an approximate number"),
    (r"~\s*\d", "an approximate number (“~”)"),
    (r"\b\d+(?:\.\d+)?\s*-?ish\b|\bish\b", "an estimate (“-ish”)"),
    (r"\ba few\b|\ba couple(?: of)?\b|\bseveral\b", "a vague count"),
    (r"\blots\b|\ba lot\b|\bloads of\b|\btons of\b", "a vague amount"),
    (r"\bTBD\b|\bTBC\b|\bto be (?:determined|confirmed|decided)\b", "not decided yet"),
    (r"\b(?:as soon as possible|ASAP)\b", "a wish, not a date (“as soon as possible”)"),
    (r"\bthe usual\b|\bas usual\b|\bas needed\b|\bwhatever\b", "an unstated convention"),
    (r"\bor so\b|\bmore or less\b|\bgive or take\b", "an approximate number"),
    (r"\buntil (?:it )?converges?\b|\buntil convergence\b", "open-ended (“until it converges”)"),
    (r"\b(?:maybe|probably|perhaps|not sure|unknown)\b", "uncertain"),
]
RANGE = re.compile(r"\d\s*(?:-|–|to)\s*\d")


def vague_words(text):
    """What the vague words in `text` make it, first the strongest; [] when there are none."""
    return [what for pattern, what in VAGUE if re.search(pattern, str(text), flags=re.IGNORECASE)]


def not_exact(text, example):
    """The sentence for a quantity typed as an estimate or a range, or None: the same words in
    every form ('“roughly 40GB” is an estimate (“roughly”): write the exact value to plan for,
    e.g. 40 GB.')."""
    words = vague_words(text)
    if words:
        return f"{quoted(text)} is {words[0]}: write the exact value to plan for, e.g. {example}."
    if RANGE.search(str(text)) and not re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}.*", str(text)):
        return f"{quoted(text)} is a range: write the one value to plan for, e.g. {example}."
    return None


# A comma in a number separates thousands, in threes: "1,5 TB" is a decimal comma, which
# would otherwise be read as 15 TB without a word.
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _number(text):
    if "," in text and not _GROUPED.fullmatch(text):
        raise UnitError(
            f"{quoted(text)} has a comma that does not separate thousands: write a decimal "
            "with a point, e.g. 1.5, and thousands in threes, e.g. 52,000."
        )
    try:
        value = Decimal(text.replace(",", "").replace("_", ""))
    except InvalidOperation:
        raise UnitError(f"{quoted(text)} is not a number.") from None
    if not value.is_finite():
        raise UnitError(f"{quoted(text)} is not a finite number.")
    return value


def parse_size(text):
    """'2.5 TiB' -> 2748779069440 (bytes). A bare number is refused: say the unit."""
    if isinstance(text, bool):
        raise UnitError("A size needs a number and a unit, e.g. '2.5 TiB' or '800 GB'.")
    if isinstance(text, int | float):
        raise UnitError(f"{text} has no unit: write e.g. '{text} GB' or '{text} GiB'.")
    match = re.fullmatch(rf"\s*({NUMBER})\s*([A-Za-z]+)\s*", str(text))
    if not match:
        raise UnitError(
            not_exact(text, "2.5 TiB")
            or f"{quoted(text)} is not a size: write a number and a unit, e.g. 2.5 TiB or 800 GB."
        )
    unit = match.group(2).lower()
    if unit not in SIZE_UNITS:
        raise UnitError(
            f"{quoted(match.group(2))} is not a unit of size: use B, KB, MB, GB, TB, PB, or KiB to PiB."
        )
    value = _number(match.group(1)) * SIZE_UNITS[unit]
    if value > MAX_BYTES:
        raise UnitError("That size is beyond any job (more than a zettabyte).")
    if SIZE_UNITS[unit] == 1 and value != value.to_integral_value():
        raise UnitError(f"{quoted(text)} is not a whole number of bytes.")
    # '1.8 TiB' is exact as written though it is not a whole number of bytes: keep it to
    # the byte (size_text prints it back as typed).
    return int(value.to_integral_value(rounding=ROUND_HALF_EVEN))


def size_text(text):
    """The typed size in the format's spelling ('1.8tib' -> '1.8 TiB'), when its exact value
    is not a whole number of bytes and so cannot be printed back from the bytes alone."""
    match = re.fullmatch(rf"\s*({NUMBER})\s*([A-Za-z]+)\s*", str(text))
    if not match or match.group(2).lower() not in SIZE_UNITS:
        return None
    value = _number(match.group(1)) * SIZE_UNITS[match.group(2).lower()]
    if value == value.to_integral_value():
        return None
    unit = next((u for u, f in _SIZE_PRINT if u.lower() == match.group(2).lower()), None)
    unit = unit or _SPELLING.get(match.group(2).lower(), match.group(2))
    return f"{_plain(_number(match.group(1)))} {unit}"


def format_size(nbytes):
    """Exact and short: 2748779069440 -> '2.5 TiB', 500000000000 -> '500 GB'."""
    if not 0 <= nbytes <= MAX_BYTES:
        raise UnitError("That size is beyond any job (more than a zettabyte).")
    candidates = []
    for unit, factor in _SIZE_PRINT:
        if nbytes >= factor:
            for places in range(0, 4):
                scaled = Decimal(nbytes) / factor
                rounded = round(scaled, places)
                if rounded * factor == nbytes:
                    candidates.append(f"{_plain(rounded)} {unit}")
                    break
    candidates.append(f"{nbytes} B")
    return min(candidates, key=len)


def size_for_people(nbytes):
    """A size as a person would write it in a sentence: exact when that is short
    ('2.5 TiB', '800 GB'), otherwise three figures in the largest binary unit that fits
    (39102345888 KiB -> '36.4 TiB'). For messages only: never stored."""
    exact = format_size(nbytes)
    if len(exact.split(" ")[0].replace(".", "")) <= 4:
        return exact
    for unit, factor in _SIZE_PRINT[:5]:
        if nbytes >= factor:
            scaled = Decimal(nbytes) / factor
            places = 0 if scaled >= 100 else 1 if scaled >= 10 else 2
            return f"{_plain(round(scaled, places))} {unit}"
    return f"{nbytes} B"


def parse_duration(text):
    """'36h', '90 min', '1d 4h', '2.5 hours', '01:30:00', '2-00:00:00' -> seconds."""
    if isinstance(text, bool):
        raise UnitError("A duration needs a number and a unit, e.g. '36h' or '90 min'.")
    if isinstance(text, int | float):
        raise UnitError(f"{text} has no unit: write e.g. '{text}h' or '{text} min'.")
    # "every 6 weeks", as people say how often something comes, is the 6 weeks between.
    raw = re.sub(r"^(?:once\s+)?every\s+", "", str(text).strip().lower())
    clock = re.fullmatch(r"(?:(\d+)-)?(\d+):(\d{1,2})(?::(\d{1,2}))?", raw)
    if clock:
        days, hours, minutes, seconds = (int(g or 0) for g in clock.groups())
        if minutes > 59 or seconds > 59:
            raise UnitError(
                f"{quoted(text)} is not a time on a clock: write HH:MM:SS, e.g. 36:00:00."
            )
        total = days * 86400 + hours * 3600 + minutes * 60 + seconds
    else:
        parts = re.findall(rf"({NUMBER})\s*([a-z]+)", raw)
        leftover = re.sub(rf"({NUMBER})\s*([a-z]+)", "", raw).replace("and", "")
        if not parts or leftover.strip(" ,"):
            raise UnitError(
                not_exact(text, "36h")
                or f"{quoted(text)} is not a length of time: write e.g. 36h, 90 min or 1d 4h."
            )
        total = Decimal(0)
        for number, unit in parts:
            if unit not in DURATION_UNITS:
                raise UnitError(f"{quoted(unit)} is not a unit of time: use s, min, h, d or w.")
            total += _number(number) * DURATION_UNITS[unit]
        if total != total.to_integral_value():
            raise UnitError(f"{quoted(text)} is not a whole number of seconds.")
        total = int(total)
    if total > MAX_SECONDS:
        raise UnitError("That duration is longer than ten years.")
    return total


def format_duration(seconds):
    """Exact: 129600 -> '36h', 5400 -> '1h 30min', 172800 -> '2d'."""
    if seconds == 0:
        return "0s"
    if seconds >= 2 * 86400 and seconds % 86400 == 0:
        return f"{seconds // 86400}d"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = []
    if hours:
        parts.append(f"{hours}h")
    if minutes:
        parts.append(f"{minutes}min")
    if secs:
        parts.append(f"{secs}s")
    return " ".join(parts)


def parse_when(text):
    """ISO 8601 date or date-time -> aware UTC datetime; a date alone means 00:00 UTC."""
    if isinstance(text, datetime):
        value = text
    elif isinstance(text, date):
        value = datetime.combine(text, time.min)
    else:
        raw = str(text).strip()
        if raw.endswith(("Z", "z")):
            raw = raw[:-1] + "+00:00"
        raw = re.sub(r"\s*UTC$", "+00:00", raw, flags=re.IGNORECASE)
        try:
            value = datetime.fromisoformat(raw) if raw[:1].isdigit() else None
        except ValueError:
            value = None
        value = value or _day_in_words(raw)
        if value is None:
            raise UnitError(
                not_exact(text, "31 March 2027")
                or f"{quoted(text)} is not a date: write the day, e.g. 31 March 2027 or 2027-03-31."
            )
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise UnitError(f"{quoted(text)} is outside the calendar.") from None


MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        1,
    )  # fmt: skip
    for name in names
}


def _day_in_words(raw):
    """'31 March 2027', 'March 31, 2027', '31 Mar 2027' -> that day, 00:00 UTC; else None."""
    words = re.fullmatch(
        r"(?:(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?|([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?)"
        r"\s+(\d{4})",
        raw.strip().lower(),
    )
    if not words:
        return None
    day, month = (words[1], words[2]) if words[1] else (words[4], words[3])
    if month not in MONTHS:
        return None
    try:
        return datetime(int(words[5]), MONTHS[month], int(day), tzinfo=UTC)
    except ValueError:
        return None


def format_when(value):
    if value.second or value.microsecond:
        return (
            value.strftime("%Y-%m-%dT%H:%M:%S")
            + (f".{value.microsecond:06d}" if value.microsecond else "")
            + "Z"
        )
    return value.strftime("%Y-%m-%dT%H:%MZ")


def parse_amount(text):
    """'12,000 video-hours' -> (Decimal('12000'), 'video-hours'). The unit is the team's own."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        raise UnitError(f"{text} has no unit: say what it counts, e.g. '{text} video-hours'.")
    match = re.fullmatch(rf"\s*({NUMBER})\s*([^\d\s].{{0,60}}?)\s*", str(text))
    if not match:
        raise UnitError(
            not_exact(text, "12,000 video-hours")
            or f"{quoted(text)} is not an amount: write a number and what it counts, "
            "e.g. 12,000 video-hours or 1.2e12 tokens."
        )
    value = _number(match.group(1))
    if value <= 0 or value > Decimal("1e30"):
        raise UnitError("An amount of work is a positive number.")
    return value, match.group(2)


def format_amount(value, unit):
    return f"{_plain(value)} {unit}"


def _plain(value):
    """Decimal without exponent or trailing zeros: 2.50 -> '2.5', 1.2E+12 -> '1200000000000'."""
    value = Decimal(value)
    if value == value.to_integral_value() and abs(value) < Decimal("1e21"):
        return str(int(value))
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def number_for_people(value):
    """A number as a person writes it: 1536.0 -> '1,536', 1152.25 -> '1,152.25', never
    '1.2e+06' or float noise (to 3 decimals)."""
    value = round(value, 3)
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,}"


def hours(seconds):
    return seconds / 3600 if seconds is not None else None


def is_close(a, b, rel):
    return math.isclose(a, b, rel_tol=rel)
