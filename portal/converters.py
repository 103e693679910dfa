"""The path converter for a row's id in a URL (`<id:pk>`): digits that fit an id column, a
signed 64-bit integer. A longer number names no row, so the URL does not match (404)
instead of reaching a query the database refuses: SQLite raises OverflowError and
PostgreSQL "bigint out of range", each a 500 (Django's `int` converter takes any digits)."""

MAX_ID = 2**63 - 1


class RowId:
    regex = "[0-9]{1,19}"

    def to_python(self, value):
        number = int(value)
        if number > MAX_ID:
            raise ValueError(f"{value} is larger than any id")
        return number

    def to_url(self, value):
        return str(value)
