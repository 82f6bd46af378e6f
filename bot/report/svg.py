"""Three small inline SVG plots (no script, no font or file fetched): a heat map, horizontal bars
and lines. Every label is escaped: service names and failed attempts are user text."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

INK, GRID, MUTED = "#1f2328", "#d0d7de", "#57606a"
PALETTE = ("#0969da", "#bf8700", "#1a7f37", "#cf222e", "#8250df", "#57606a")
FONT = 'font-family="system-ui, sans-serif" font-size="12"'


def _svg(width: float, height: float, body: list[str], title: str) -> Markup:
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" {FONT}><title>{escape(title)}</title>{"".join(body)}</svg>'
    )


def _text(x: float, y: float, label: str, *, anchor: str = "start", fill: str = INK, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}" {extra}>{escape(label)}</text>'


def _clip(label: str, chars: int) -> str:
    return label if len(label) <= chars else label[: chars - 1] + "…"


def heatmap(rows: Sequence[str], columns: Sequence[str], value: dict[str, dict[str, int]], title: str) -> Markup:
    """rows × columns of counts; darker is more. Column labels are YYYY-MM (every third shown)."""
    cell, left, top = 22, 170, 20
    width, height = left + cell * max(1, len(columns)) + 10, top + cell * max(1, len(rows)) + 50
    peak = max((n for r in value.values() for n in r.values()), default=0) or 1
    body = []
    for i, row in enumerate(rows):
        y = top + i * cell
        body.append(_text(left - 8, y + cell * 0.7, _clip(row, 24), anchor="end"))
        for j, column in enumerate(columns):
            n = value.get(row, {}).get(column, 0)
            shade = f'fill="#0969da" fill-opacity="{0.15 + 0.85 * n / peak:.2f}"' if n else 'fill="#f6f8fa"'
            body.append(
                f'<rect x="{left + j * cell}" y="{y}" width="{cell - 2}" height="{cell - 2}" {shade}>'
                f"<title>{escape(row)} · {column}: {n}</title></rect>"
            )
            if n:
                colour = "#ffffff" if n / peak > 0.5 else INK
                body.append(_text(left + j * cell + (cell - 2) / 2, y + cell * 0.68, str(n), anchor="middle", fill=colour,
                                  extra='font-size="10"'))  # fmt: skip
    for j, column in enumerate(columns):
        if j % 3 == 0 or (j == len(columns) - 1 and j % 3 == 2):  # the last one too, unless it would overlap
            x, y = left + j * cell + cell / 2, top + len(rows) * cell + 8
            body.append(_text(x, y, column, anchor="end", fill=MUTED, extra=f'transform="rotate(-45 {x:.1f} {y:.1f})"'))
    return _svg(width, height, body, title)


def hbars(labels: Sequence[str], values: Sequence[int], title: str, *, colours: Sequence[str] | None = None) -> Markup:
    """One bar per label, its count at the end."""
    row, left, bar_width = 26, 260, 360
    width, height = left + bar_width + 60, row * max(1, len(labels)) + 10
    peak = max(values, default=0) or 1
    body = []
    for i, (label, n) in enumerate(zip(labels, values, strict=True)):
        y = 5 + i * row
        colour = (colours or PALETTE)[i % len(colours or PALETTE)] if colours else PALETTE[0]
        body.append(_text(left - 8, y + row * 0.6, _clip(label, 40), anchor="end"))
        body.append(f'<rect x="{left}" y="{y + 4}" width="{max(2.0, bar_width * n / peak):.1f}" height="{row - 10}" fill="{colour}">'
                    f"<title>{escape(label)}: {n}</title></rect>")  # fmt: skip
        body.append(_text(left + max(2.0, bar_width * n / peak) + 6, y + row * 0.6, str(n), fill=MUTED))
    return _svg(width, height, body, title)


def lines(x: Sequence[int], series: dict[str, Sequence[float]], title: str, *, y_label: str = "") -> Markup:
    """Lines over x (k = 1…10) for values in 0…1, with a legend and the value at each point."""
    left, top, plot_w, plot_h = 50, 20, 520, 260
    width, height = left + plot_w + 170, top + plot_h + 50

    def px(i: int) -> float:
        return left + plot_w * (i / max(1, len(x) - 1))

    def py(v: float) -> float:
        return top + plot_h * (1 - v)

    body = []
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        body.append(f'<line x1="{left}" y1="{py(tick):.1f}" x2="{left + plot_w}" y2="{py(tick):.1f}" stroke="{GRID}"/>')
        body.append(_text(left - 6, py(tick) + 4, f"{tick:.2f}", anchor="end", fill=MUTED))
    for i, k in enumerate(x):
        body.append(_text(px(i), top + plot_h + 18, str(k), anchor="middle", fill=MUTED))
    body.append(_text(left + plot_w / 2, top + plot_h + 40, "k", anchor="middle", fill=MUTED))
    if y_label:
        body.append(_text(12, top + plot_h / 2, y_label, anchor="middle", fill=MUTED,
                          extra=f'transform="rotate(-90 12 {top + plot_h / 2})"'))  # fmt: skip
    for s, (name, values) in enumerate(series.items()):
        colour = PALETTE[s % len(PALETTE)]
        points = " ".join(f"{px(i):.1f},{py(v):.1f}" for i, v in enumerate(values))
        body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        for i, v in enumerate(values):
            body.append(f'<circle cx="{px(i):.1f}" cy="{py(v):.1f}" r="3.5" fill="{colour}">'
                        f"<title>{escape(name)}: Recall@{x[i]} = {v:.3f}</title></circle>")  # fmt: skip
        ly = top + 10 + s * 22
        body.append(
            f'<line x1="{left + plot_w + 20}" y1="{ly}" x2="{left + plot_w + 44}" y2="{ly}" stroke="{colour}" stroke-width="3"/>'
        )
        body.append(_text(left + plot_w + 50, ly + 4, _clip(name, 18)))
    return _svg(width, height, body, title)
