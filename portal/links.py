"""Links to the rows of a list without a URL reversal per row.

`reverse()` walks the URL patterns each time (~10 µs); a 50-row list with two links a row
spent more on that than on its query. `row_url(name, *args)` reverses a name once with
stand-ins for its integer arguments and then puts each row's numbers in their place: the
same string `reverse(name, args=args)` gives, for patterns whose integer parts are plain
numbers (`<id:pk>`), which is every pattern a list links to."""

from functools import lru_cache

from django.urls import get_script_prefix, reverse

# Stand-ins that fit an <id:…> converter and appear in no pattern's fixed text.
_MARKS = ("9000000001", "9000000002", "9000000003")


@lru_cache(maxsize=256)
def _parts(name, shape, prefix):
    """The reversed URL cut at each stand-in. `prefix` (the script prefix) is only part of
    the key: reverse() reads it itself."""
    marks = iter(_MARKS)
    args = [next(marks) if kept is None else kept for kept in shape]
    url = reverse(name, args=args)
    parts, positions = [url], []
    for i, kept in enumerate(shape):
        if kept is None:
            mark = args[i]
            head, tail = parts[-1].split(mark, 1)
            parts[-1:] = [head, tail]
            positions.append(i)
    return tuple(parts), tuple(positions)


def row_url(name, *args):
    """reverse(name, args=args), with a reversal per name rather than per call: the integer
    arguments vary, the others (a step's slug, an export format) are part of the cache key."""
    shape = tuple(None if type(a) is int else a for a in args)
    parts, positions = _parts(name, shape, get_script_prefix())
    if not positions:
        return parts[0]
    out = [parts[0]]
    for k, i in enumerate(positions):
        out.append(str(args[i]))
        out.append(parts[k + 1])
    return "".join(out)
