"""Drawing for the course's figures: a small SVG writer and a line plot with log axes.
Python 3 standard library only; docs/figures.py draws the figures with it."""
import math

ASCENDING, DESCENDING = "#1f5fa8", "#c0392b"
PALETTE = ["#888888", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#bcbd22", "#e7ba52", "#393b79", "#637939"]


class Svg:
    def __init__(self, width, height):
        self.width, self.height, self.parts = width, height, []

    def add(self, element):
        self.parts.append(element)

    def line(self, x1, y1, x2, y2, stroke="#222", width=1.0, dash=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                 f'stroke="{stroke}" stroke-width="{width:.1f}"{extra}/>')

    def rect(self, x, y, w, h, fill, stroke="none", opacity=1.0, rx=0):
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx}" '
                 f'fill="{fill}" stroke="{stroke}" fill-opacity="{opacity:.2f}"/>')

    def circle(self, cx, cy, r, fill):
        self.add(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}"/>')

    def polygon(self, points, fill):
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.add(f'<polygon points="{coords}" fill="{fill}"/>')

    def polyline(self, points, stroke, width=1.5, dash=None):
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<polyline points="{coords}" fill="none" stroke="{stroke}" '
                 f'stroke-width="{width:.1f}"{extra}/>')

    def path(self, d, stroke, width=1.0):
        self.add(f'<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{width:.1f}"/>')

    def text(self, x, y, content, size=12, anchor="start", fill="#222", weight="normal",
             rotate=None):
        transform = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate else ""
        content = content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
                 f'fill="{fill}" font-weight="{weight}"{transform}>{content}</text>')

    def render(self):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
                f'font-family="DejaVu Sans, Arial, sans-serif">\n'
                f'<rect width="{self.width}" height="{self.height}" fill="white"/>\n' +
                "\n".join(self.parts) + "\n</svg>\n")



def log_plot(series, title, y_label, colours, dashed=(), y_log=True, reference=None, y_ticks=None,
             x_label="n (keys)"):
    """A line plot with a log2 x axis and a log10 (or linear) y axis. series: name -> [(log2 x,
    y)]; colours: name -> colour; the series named in `dashed` are drawn dashed."""
    width, height = 760, 480
    left, right, top, bottom = 70, 190, 40, 50
    xs = sorted({q for points in series.values() for q, _ in points})
    ys = [y for points in series.values() for _, y in points if y > 0]
    x0, x1 = min(xs), max(xs)
    if y_ticks:
        y0, y1 = math.log10(y_ticks[0]), math.log10(y_ticks[-1])
    elif y_log:
        y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    else:
        y0, y1 = 0, math.ceil(max(ys))

    def px(q):
        return left + (q - x0) / (x1 - x0) * (width - left - right)

    def py(y):
        value = math.log10(y) if y_log else y
        return top + (1 - (value - y0) / (y1 - y0)) * (height - top - bottom)

    svg = Svg(width, height)
    svg.text(left, 24, title, 14, weight="bold")
    # Every size gets a grid line; labels go from the largest size down, skipping a size that
    # lies less than two doublings from the last one labelled, so that no two labels overlap.
    labels = []
    for q in reversed(xs):
        if not labels or labels[-1] - q >= 2:
            labels.append(q)
    for q in xs:
        svg.line(px(q), top, px(q), height - bottom, "#eee", 1)
        if q in labels:
            svg.text(px(q), height - bottom + 16, f"2^{q}", 10, "middle")
    values = y_ticks or ([10 ** tick for tick in range(int(y0), int(y1) + 1)] if y_log
                         else list(range(0, int(y1) + 1)))
    for value in values:
        svg.line(left, py(value), width - right, py(value), "#ddd", 1)
        svg.text(left - 6, py(value) + 4, f"{value:g}", 10, "end")
    if reference is not None:
        svg.line(left, py(reference), width - right, py(reference), "#555", 1.2, dash="5,4")
    svg.text((left + width - right) / 2, height - 12, x_label, 11, "middle")
    svg.text(18, (top + height - bottom) / 2, y_label, 11, "middle", rotate=-90)
    for index, (name, points) in enumerate(series.items()):
        colour = colours[name]
        dash = "5,3" if name in dashed else None
        svg.polyline([(px(q), py(y)) for q, y in points if y > 0], colour, 1.8, dash)
        for q, y in points:
            svg.circle(px(q), py(y), 2.2, colour)
        legend_y = top + 10 + index * 18
        svg.line(width - right + 14, legend_y, width - right + 38, legend_y, colour, 2.2)
        svg.text(width - right + 44, legend_y + 4, name, 11)
    return svg.render()


