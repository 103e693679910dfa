"""The API's JSON reader: bounded and clean before any endpoint sees the body.

Nesting 900 deep made later code (copies, validation) overflow the stack: a 500. A body is
refused (400) past MAX_DEPTH levels or MAX_VALUES values, and NUL characters, which
PostgreSQL cannot store, are removed from every string, once, here."""

import json

from ninja.parser import Parser

MAX_DEPTH = 40
MAX_VALUES = 200_000
NUL = "\x00"


class BodyRefused(ValueError):
    pass


def clean(value):
    """A copy of `value` without NUL in any string, checked for depth and size. Iterative:
    no recursion, whatever the depth."""
    root = [value]
    stack = [(root, 0, value, 0)]
    count = 0
    while stack:
        parent, key, node, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise BodyRefused(f"The body holds more than {MAX_VALUES:,} values.")
        if depth > MAX_DEPTH:
            raise BodyRefused(f"The body is nested more than {MAX_DEPTH} levels deep.")
        if isinstance(node, str):
            if NUL in node:
                parent[key] = node.replace(NUL, "")
        elif isinstance(node, dict):
            copy = {}
            for k, v in node.items():
                k = k.replace(NUL, "")
                copy[k] = v
                stack.append((copy, k, v, depth + 1))
            parent[key] = copy
        elif isinstance(node, list):
            copy = list(node)
            parent[key] = copy
            stack.extend((copy, i, v, depth + 1) for i, v in enumerate(node))
    return root[0]


class BoundedParser(Parser):
    def parse_body(self, request):
        # A failure here is answered 400 by django-ninja ("Cannot parse request body").
        return clean(json.loads(request.body))
