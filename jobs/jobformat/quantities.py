"""Quantity values of the format. Each keeps the text the team wrote and, when that
text is exact, its canonical value; a draft with "about 2 TB" is kept as written
and the precision check says what is wrong with it."""

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic_core import core_schema

from . import units

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")  # fmt: skip


@dataclass(frozen=True)
class Quantity:
    text: str
    value: Any = None
    error: str = ""

    parse: ClassVar = None
    format: ClassVar = None
    json_schema: ClassVar[dict] = {}

    @classmethod
    def of(cls, raw):
        if isinstance(raw, cls):
            return raw
        text = raw if isinstance(raw, str) else str(raw)
        try:
            value = cls.parse(raw)
        except units.UnitError as error:
            return cls(text=text.strip()[:500], value=None, error=str(error))
        # Printed back as typed ('48h' stays '48h', '9,000 video-hours' keeps its comma):
        # the person wrote it, and it is exact. Numbers from files are formatted.
        if isinstance(raw, str):
            return cls(text=" ".join(raw.split())[:500], value=value)
        return cls(text=cls.format(value), value=value)

    @property
    def exact(self):
        return self.value is not None

    def __str__(self):
        return self.text

    @classmethod
    def __get_pydantic_core_schema__(cls, source, handler):
        def validate(raw):
            if raw is None or (isinstance(raw, str) and not raw.strip()):
                raise ValueError("empty")
            return cls.of(raw)

        return core_schema.no_info_plain_validator_function(
            validate,
            serialization=core_schema.plain_serializer_function_ser_schema(lambda q: q.text),
        )

    @classmethod
    def __get_pydantic_json_schema__(cls, schema, handler):
        return dict(cls.json_schema)


class Size(Quantity):
    parse = staticmethod(units.parse_size)
    format = staticmethod(units.format_size)
    json_schema: ClassVar[dict] = {
        "type": "string",
        "description": "A number and a unit: B, KB, MB, GB, TB, PB (powers of 1000) or KiB…PiB (1024).",
        "examples": ["2.5 TiB", "800 GB"],
    }

    @property
    def bytes(self):
        return self.value


class Duration(Quantity):
    parse = staticmethod(units.parse_duration)
    format = staticmethod(units.format_duration)
    json_schema: ClassVar[dict] = {
        "type": "string",
        "description": "A duration with its unit (s, min, h, d, w) or HH:MM:SS / D-HH:MM:SS.",
        "examples": ["36h", "90 min", "1d 4h"],
    }

    @property
    def seconds(self):
        return self.value


class When(Quantity):
    parse = staticmethod(units.parse_when)
    format = staticmethod(units.format_when)
    json_schema: ClassVar[dict] = {
        "type": "string",
        "description": "An ISO 8601 date or date-time; a date alone means 00:00 UTC.",
        "examples": ["2027-03-01T09:00Z", "2027-03-15"],
    }

    def in_words(self):
        """As people read it: a whole day (00:00 UTC, as "2027-03-31" is read) is
        "31 March 2027"; a moment with a time of its own, or a vague date, as typed."""
        v = self.value
        if v is None or (v.hour, v.minute, v.second, v.microsecond) != (0, 0, 0, 0):
            return self.text
        return f"{v.day} {MONTH_NAMES[v.month - 1]} {v.year}"


class Amount(Quantity):
    """How much work, in the team's own unit: '12,000 video-hours', '1.2e12 tokens'."""

    parse = staticmethod(units.parse_amount)
    format = staticmethod(lambda pair: units.format_amount(*pair))
    json_schema: ClassVar[dict] = {
        "type": "string",
        "description": "A number and what it counts, in the team's own unit.",
        "examples": ["12,000 video-hours", "1.2e12 tokens", "4096 simulations"],
    }
