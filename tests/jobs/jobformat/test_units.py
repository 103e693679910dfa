from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobs.jobformat import units
from jobs.jobformat.units import UnitError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2.5 TiB", 2.5 * 2**40),
        ("800 GB", 800 * 10**9),
        ("800GB", 800 * 10**9),
        ("1,024 MiB", 2**30),
        ("8G", 8 * 2**30),  # Slurm spelling: binary
        ("512 bytes", 512),
        ("3 PB", 3 * 10**15),
    ],
)
def test_parse_size(text, expected):
    assert units.parse_size(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("500", "not a size"),
        (500, "has no unit"),
        ("about 2 TB", "“about 2 TB” is an approximate number: write the exact value"),
        ("2-4 TB", "“2-4 TB” is a range: write the one value to plan for"),
        ("12 parsecs", "“parsecs” is not a unit of size"),
        ("0.3 B", "whole number of bytes"),
        ("9e30 TB", "beyond any job"),
        ("", "not a size"),
    ],
)
def test_parse_size_refuses_inexact_text(text, message):
    with pytest.raises(UnitError, match=message):
        units.parse_size(text)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("36h", 36 * 3600),
        ("90 min", 5400),
        ("1d 4h", 28 * 3600),
        ("2.5 hours", 9000),
        ("01:30:00", 5400),
        ("2-00:00:00", 172800),
        ("100:00:00", 360000),
        ("1h 30min 15s", 5415),
        ("2 weeks", 14 * 86400),
    ],
)
def test_parse_duration(text, seconds):
    assert units.parse_duration(text) == seconds


@pytest.mark.parametrize(
    "text", ["36", 36, "a while", "until it converges", "1:75:00", "99999 days", "h"]
)
def test_parse_duration_refuses(text):
    with pytest.raises(UnitError):
        units.parse_duration(text)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(129600, "36h"), (5400, "1h 30min"), (172800, "2d"), (45, "45s"), (0, "0s")],
)
def test_format_duration(seconds, text):
    assert units.format_duration(seconds) == text


@pytest.mark.parametrize(
    ("nbytes", "text"),
    [
        (2748779069440, "2.5 TiB"),
        (500 * 10**9, "500 GB"),
        (1500, "1.5 KB"),
        (1, "1 B"),
        (1023, "1023 B"),
    ],
)
def test_format_size(nbytes, text):
    assert units.format_size(nbytes) == text


def test_parse_when():
    assert units.parse_when("2027-03-01T09:00Z") == datetime(2027, 3, 1, 9, tzinfo=UTC)
    assert units.parse_when("2027-03-01") == datetime(2027, 3, 1, tzinfo=UTC)
    assert units.parse_when("2027-03-01T10:00+01:00") == datetime(2027, 3, 1, 9, tzinfo=UTC)
    with pytest.raises(UnitError, match="is not a date: write the day, e.g. 31 March 2027"):
        units.parse_when("next Tuesday")
    assert units.format_when(units.parse_when("2027-03-01")) == "2027-03-01T00:00Z"


@pytest.mark.parametrize(
    "text", ["31 March 2027", "31st March 2027", "March 31, 2027", "31 Mar 2027"]
)
def test_a_day_written_in_words_is_that_day(text):
    assert units.parse_when(text) == datetime(2027, 3, 31, tzinfo=UTC)


@pytest.mark.parametrize("text", ["31 February 2027", "31 Smarch 2027", "end of March"])
def test_a_day_that_is_none_is_refused_in_words(text):
    with pytest.raises(UnitError, match="write the day"):
        units.parse_when(text)


def test_how_often_is_read_with_every():
    assert units.parse_duration("every 6 weeks") == units.parse_duration("6w") == 6 * 7 * 86400


def test_an_estimate_is_said_in_one_sentence_in_every_parser():
    for parse in (units.parse_size, units.parse_duration, units.parse_when, units.parse_amount):
        with pytest.raises(UnitError) as refused:
            parse("roughly 40GB")
        message = str(refused.value)
        assert message.startswith(
            "“roughly 40GB” is an estimate (“roughly”): write the exact value"
        )
        assert "'" not in message


def test_parse_amount():
    value, unit = units.parse_amount("12,000 video-hours")
    assert value == 12000 and unit == "video-hours"
    assert units.format_amount(*units.parse_amount("1.2e12 tokens")) == "1200000000000 tokens"
    for bad in ("lots of tokens", "4096", 4096, "-5 runs"):
        with pytest.raises(UnitError):
            units.parse_amount(bad)


@given(st.integers(min_value=0, max_value=10**21))
def test_size_round_trips_exactly(nbytes):
    assert units.parse_size(units.format_size(nbytes)) == nbytes


@given(st.integers(min_value=0, max_value=units.MAX_SECONDS))
def test_duration_round_trips_exactly(seconds):
    assert units.parse_duration(units.format_duration(seconds)) == seconds


@given(st.one_of(st.text(max_size=80), st.integers(), st.floats(), st.booleans(), st.none()))
def test_parsers_answer_a_value_that_round_trips_or_a_sentence(value):
    """Any input: either a value of the right kind, printed back to the same value, or a
    UnitError a person can read (never another exception, never an empty message)."""

    def outcome(parse):
        try:
            return parse(value), None
        except UnitError as error:
            return None, str(error)

    checks = {
        units.parse_size: lambda v: units.parse_size(units.format_size(v)) == v,
        units.parse_duration: lambda v: units.parse_duration(units.format_duration(v)) == v,
        units.parse_when: lambda v: v.tzinfo is not None and v.utcoffset().total_seconds() == 0,
        units.parse_amount: lambda v: v[0] > 0 and units.parse_amount(units.format_amount(*v)) == v,
    }
    for parse, holds in checks.items():
        result, message = outcome(parse)
        if message is None:
            assert holds(result), (parse.__name__, value, result)
        else:
            assert len(message) > 10 and message.endswith("."), message


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (units.parse_size, "1,5 TB"),
        (units.parse_size, "1,50 TB"),
        (units.parse_size, "1,5000 GB"),
        (units.parse_duration, "1,5h"),
        (units.parse_amount, "2,5 video-hours"),
    ],
)
def test_a_decimal_comma_is_refused_in_words_not_read_as_thousands(parse, text):
    # Read as thousands, "1,5 TB" would be 15 TB without a word to the person.
    with pytest.raises(UnitError, match="has a comma that does not separate thousands"):
        parse(text)
    assert units.parse_size("1,500 TB") == 1500 * 10**12
