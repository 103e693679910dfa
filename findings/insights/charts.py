"""Geometry for the insights' server-rendered SVG charts: labelled horizontal bars, drawn by
templates/findings/insights/_bars.html with a title, a description and the numbers beside."""


def bars(items, *, title, unit="", width=640, bar=16, label_width=230, fmt="{:g}"):
    """items: [(label, value)]; None values are drawn as absent and say so."""
    values = [v for _, v in items if v is not None]
    top = max(values) if values else 0
    usable = width - label_width - 70
    scale = usable / top if top else 0
    rows = []
    for i, (label, value) in enumerate(items):
        rows.append(
            {
                "label": label if len(label) <= 34 else label[:33] + "…",
                "full": label,
                "y": 8 + i * (bar + 8),
                "width": round(max((value or 0) * scale, 1 if value else 0), 1),
                "text": "—" if value is None else fmt.format(value) + unit,
            }
        )
    summary = "; ".join(f"{r['full']}: {r['text']}" for r in rows) or "no data yet"
    return {
        "title": title,
        "desc": summary + ".",
        "rows": rows,
        "width": width,
        "height": 16 + len(rows) * (bar + 8),
        "bar": bar,
        "x0": label_width,
    }
