"""Geometry for the insights' server-rendered SVG charts: labelled horizontal bars, drawn by
templates/findings/insights/_bars.html with a title, a description and the numbers beside."""

import textwrap

# An SVG text does not wrap by itself: a label longer than its column is written on as many
# lines as it needs (about 7 px a character at the charts' font size), never cut.
CHAR_PX = 7
LINE_PX = 14
GAP_PX = 8


def bars(items, *, title, unit="", width=640, bar=16, label_width=230, fmt="{:g}"):
    """items: [(label, value)]; None values are drawn as absent and say so."""
    values = [v for _, v in items if v is not None]
    top = max(values) if values else 0
    usable = width - label_width - 70
    scale = usable / top if top else 0
    rows = []
    y = 8
    for label, value in items:
        lines = textwrap.wrap(label, width=max(8, (label_width - 8) // CHAR_PX)) or [""]
        height = max(bar, len(lines) * LINE_PX)
        rows.append(
            {
                "label": label,
                "lines": [(12 if i == 0 else LINE_PX, line) for i, line in enumerate(lines)],
                "y": y,
                "width": round(max((value or 0) * scale, 1 if value else 0), 1),
                "text": "—" if value is None else fmt.format(value) + unit,
            }
        )
        y += height + GAP_PX
    summary = "; ".join(f"{r['label']}: {r['text']}" for r in rows) or "no data yet"
    return {
        "title": title,
        "desc": summary + ".",
        "rows": rows,
        "width": width,
        "height": y + 8,
        "bar": bar,
        "x0": label_width,
    }
