"""``graphmind wander map``: a 2-D map of a wander session (wander spec, "Standard Plot Encoding").

Encoding:

- position: semantic similarity, the loci's embeddings projected to 2-D;
- colour: the locus's first domain, a stable categorical palette (tab10, then tab20's light
  shades; greys for "(no domain)" and "other": the domains past the legend's 12);
- size: how often the session visited the locus (30 + 40·sqrt(visits));
- path: the trace, a segment per step, light (early) to dark (late); arrowheads if short;
- stars: loci the session's crystals are evidenced by or came from;
- halos: resonance clusters, a translucent circle around the loci each resonance's residues
  stepped to (radius from their spread, opacity from strength), named by its first 2 themes.

Projection: UMAP when the ``umap`` package is installed and there are at least 5 loci (it keeps
neighbourhoods, which is what a walk is about; random_state=42), else PCA by numpy's SVD of the
centred embeddings, with each component's sign fixed so the map does not flip between runs.
t-SNE or scikit-learn's PCA would add a heavy dependency for no gain at this size.

Drawing uses matplotlib's object API on an Agg canvas (``Figure``, no pyplot), so it neither
switches the global backend nor leaves figures open; matplotlib is the ``map`` extra.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from graphmind.errors import ConfigError, NotFoundError

NO_DOMAIN, OTHER = "(no domain)", "other"
MAX_LEGEND, MAX_CRYSTAL_LABELS, MAX_HALOS, MAX_HALO_LABELS, MAX_ARROWS = 12, 8, 8, 5, 60
HALO = {"confirmed": "#37474f", "candidate": "#78909c"}
POINT_OFFSETS = ((8, 8), (8, -8), (-8, 8), (-8, -8), (0, 16), (0, -16), (14, 0), (-14, 0))
HALO_OFFSETS = ((0, 5), (0, -5), (30, 5), (-30, 5), (0, 15))
# tab10 without its grey, then the light tab20 shades of the same hues.
PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#bcbd22",
    "#17becf",
    "#aec7e8",
    "#ffbb78",
    "#98df8a",
    "#ff9896",
    "#c5b0d5",
    "#c49c94",
    "#f7b6d2",
    "#dbdb8d",
    "#9edae5",
)
GREYS = {NO_DOMAIN: "#9e9e9e", OTHER: "#616161"}
MATPLOTLIB_MISSING = "graphmind wander map needs matplotlib: pip install 'graphmind[map]'"


@dataclass(frozen=True)
class MapReport:
    out: str
    loci: int
    steps: int
    crystals: int
    resonance_clusters: int
    projection: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def project_2d(vectors: np.ndarray, method: str = "auto") -> tuple[np.ndarray, str]:
    """(n, 2) coordinates of ``vectors`` (n, d) and the method used: "umap" or "pca"."""
    if method not in ("auto", "umap", "pca"):
        raise ValueError(f"unknown projection {method!r}: auto, umap or pca")
    x = np.asarray(vectors, dtype=float).reshape(len(vectors), -1)
    if method != "pca" and len(x) >= 5:
        try:
            import umap  # optional: not a dependency
        except ImportError:
            if method == "umap":
                raise ConfigError("the umap projection needs umap-learn: pip install umap-learn") from None
        else:
            reducer = umap.UMAP(n_components=2, n_neighbors=min(15, len(x) - 1), random_state=42)
            return np.asarray(reducer.fit_transform(x), dtype=float), "umap"
    coords = np.zeros((len(x), 2))
    if len(x) < 2:
        return coords, "pca"
    centred = x - x.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    for k in range(min(2, len(s))):
        if s[k] <= 1e-12 * max(s[0], 1e-300):
            break  # no spread left along this axis (2 points: a line)
        axis = vt[k] if vt[k][np.argmax(np.abs(vt[k]))] >= 0 else -vt[k]
        coords[:, k] = centred @ axis
    return coords, "pca"


def domain_colours(domains: list[str]) -> dict[str, str]:
    """A colour for each domain: the palette in sorted order of names; greys for the catch-alls."""
    named = sorted({d for d in domains if d not in GREYS})
    colours = {d: PALETTE[i % len(PALETTE)] for i, d in enumerate(named)}
    colours.update({d: GREYS[d] for d in set(domains) & set(GREYS)})
    return colours


def sizes(visits) -> np.ndarray:
    """Marker areas (points²) from visit counts: 30 + 40·sqrt(visits), capped at 700."""
    v = np.clip(np.asarray(visits, dtype=float), 0, None)
    return np.minimum(30 + 40 * np.sqrt(v), 700)


def draw_map(loci: list[dict], marks: dict, out: Path, title: str) -> MapReport:
    """Draw the map of ``loci`` (rows of wander/list_map_loci) with ``marks`` (the row of
    wander/list_map_marks) to a PNG at ``out`` (150 dpi)."""
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle
    from matplotlib.ticker import MaxNLocator

    loci = [row for row in loci if row.get("embedding")]
    dims = Counter(len(row["embedding"]) for row in loci).most_common(1)
    loci = [row for row in loci if dims and len(row["embedding"]) == dims[0][0]]
    if not loci:
        raise NotFoundError("there are no loci with an embedding to map")
    index = {row["id"]: i for i, row in enumerate(loci)}
    xy, projection = project_2d(np.array([row["embedding"] for row in loci]))
    span = float(np.ptp(xy, axis=0).max()) or 1.0

    firsts = [(row.get("domains") or [NO_DOMAIN])[0] for row in loci]
    shown = [d for d, _ in Counter(firsts).most_common() if d != NO_DOMAIN][:MAX_LEGEND]
    firsts = [d if d in shown or d == NO_DOMAIN else OTHER for d in firsts]
    colours = domain_colours(firsts)
    visits = [row.get("visits") or 0 for row in loci]

    steps = [(index[a], index[b]) for a, b in marks.get("steps") or [] if a in index and b in index]
    crystal_ids = [c for c in dict.fromkeys(marks.get("crystal_loci") or []) if c in index]
    clusters = [
        dict(c, idx=[index[i] for i in c.get("loci") or [] if i in index])
        for c in marks.get("resonance_clusters") or []
    ]
    clusters = sorted((c for c in clusters if c["idx"]), key=lambda c: (-(c.get("strength") or 0), c["id"]))

    fig = Figure(figsize=(11, 8.5), dpi=150, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_aspect("equal", adjustable="datalim")

    top = max((c.get("strength") or 0 for c in clusters), default=1) or 1
    notes = []  # (point, text, is_halo, bold): placed last, so they avoid each other
    for rank, c in enumerate(clusters[:MAX_HALOS]):
        pts = xy[c["idx"]]
        centre = pts.mean(axis=0)
        radius = float(np.sqrt(((pts - centre) ** 2).sum(axis=1).mean())) + 0.04 * span
        alpha = 0.04 + 0.16 * (c.get("strength") or 0) / top
        colour = HALO.get(str(c.get("status")), HALO["candidate"])
        ax.add_patch(Circle(centre, radius, facecolor=colour, alpha=alpha, edgecolor="none", zorder=0))
        ax.add_patch(
            Circle(
                centre,
                radius,
                fill=False,
                edgecolor=colour,
                alpha=min(1, 2 * alpha + 0.1),
                linestyle="--",
                linewidth=0.7,
                zorder=0,
            )
        )
        if rank < MAX_HALO_LABELS and c.get("themes"):
            notes.append(((centre[0], centre[1] + radius), " · ".join(c["themes"][:2]), True, False))

    if steps:
        lines = LineCollection(
            [np.array([xy[a], xy[b]]) for a, b in steps],
            array=np.arange(len(steps)),
            linewidths=0.8,
            alpha=0.55,
            zorder=1,  # light grey (not white) to black:
            cmap=ListedColormap(colormaps["Greys"](np.linspace(0.3, 1, 256))),
        )
        lines.set_clim(min(0, len(steps) - 2), len(steps) - 1)  # a lone step is drawn dark
        ax.add_collection(lines)
        if len(steps) <= MAX_ARROWS:
            for a, b in ((a, b) for a, b in steps if a != b):
                mid = (xy[a] + xy[b]) / 2
                ax.annotate(
                    "",
                    xy=mid + (xy[b] - xy[a]) * 0.05,
                    xytext=mid,
                    zorder=1,
                    arrowprops=dict(arrowstyle="-|>", color="#424242", lw=0.8, mutation_scale=9),
                )
        if len(steps) > 1:
            bar = fig.colorbar(lines, ax=ax, shrink=0.3, aspect=25, pad=0.01, location="bottom")
            bar.set_label("trace: step", fontsize=7)
            bar.ax.tick_params(labelsize=7)
            bar.ax.xaxis.set_major_locator(MaxNLocator(integer=True))

    ax.scatter(
        xy[:, 0],
        xy[:, 1],
        s=sizes(visits),
        c=[colours[d] for d in firsts],
        edgecolors="white",
        linewidths=0.6,
        zorder=2,
    )
    if crystal_ids:
        stars = xy[[index[c] for c in crystal_ids]]
        ax.scatter(stars[:, 0], stars[:, 1], marker="*", s=170, c="gold", edgecolors="black", linewidths=0.8, zorder=3)

    handles: list[Any] = [
        Line2D([], [], marker="o", linestyle="", color=colours[d], markersize=7, label=d)
        for d in [*shown, *[d for d in (OTHER, NO_DOMAIN) if d in colours]]
    ]
    handles += (
        [
            Line2D(
                [],
                [],
                marker="*",
                linestyle="",
                markerfacecolor="gold",
                markeredgecolor="black",
                markersize=12,
                label="crystal",
            )
        ]
        if crystal_ids
        else []
    )
    handles += [
        Circle((0, 0), 1, facecolor=HALO[k], alpha=0.3, label=f"resonance, {k}")
        for k in HALO
        if any(HALO.get(str(c.get("status")), HALO["candidate"]) == HALO[k] for c in clusters[:MAX_HALOS])
    ]
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize=8,
        frameon=False,
        title="first domain",
        title_fontsize=8,
    )
    ax.set(xticks=[], yticks=[])
    ax.set_xlabel(f"{projection.upper()} 1 (semantic)", fontsize=8)
    ax.set_ylabel(f"{projection.upper()} 2 (semantic)", fontsize=8)
    report = MapReport(str(out), len(loci), len(steps), len(crystal_ids), len(clusters), projection)
    ax.set_title(
        f"{title}\n{report.loci} loci · {report.steps} steps · {report.crystals} crystal loci · "
        f"{report.resonance_clusters} resonance clusters"
        f"{f' ({MAX_HALOS} strongest drawn)' if len(clusters) > MAX_HALOS else ''} · "
        f"{projection.upper()} projection",
        fontsize=10,
    )
    seed = (
        loci[steps[0][0]]["id"]
        if steps
        else next((row["id"] for row in loci if row.get("source_type") == "SEED"), loci[0]["id"])
    )
    last = loci[steps[-1][1]]["id"] if steps else None
    labelled = {seed: "seed: ", **({last: "last: "} if last and last != seed else {})}
    for c in sorted(crystal_ids, key=lambda c: -visits[index[c]])[:MAX_CRYSTAL_LABELS]:
        labelled.setdefault(c, "")
    notes = [
        (xy[index[i]], prefix + str(loci[index[i]].get("concept") or i)[:30], False, bool(prefix))
        for i, prefix in labelled.items()
    ] + notes
    _place_labels(fig, ax, notes)

    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=150, format="png")
    return report


def render_map(store, mind: str, session_id: str, out: Path) -> MapReport:
    """Read a session's loci and marks from the graph and draw its map to ``out``."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ConfigError(MATPLOTLIB_MISSING) from None
    loci = store.read("wander/list_map_loci", mind=mind, session_id=session_id)
    if not loci:
        raise NotFoundError(f"wander session {session_id!r} of mind {mind!r} has no loci to map")
    rows = store.read("wander/list_map_marks", mind=mind, session_id=session_id)
    return draw_map(loci, rows[0] if rows else {}, Path(out), f"Wander session {session_id}")


def _place_labels(fig, ax, notes: list[tuple[Any, str, bool, bool]]) -> None:
    """Annotate each point at the first offset where its box overlaps no label placed before and
    stays inside the axes (else at the offset with the fewest clashes)."""
    fig.draw_without_rendering()  # lay the figure out so display coordinates are final
    renderer, frame = fig.canvas.get_renderer(), ax.get_window_extent()
    placed: list[Any] = []
    for point, text, halo, bold in notes:
        offsets = HALO_OFFSETS if halo else POINT_OFFSETS
        best: tuple[int, Any, Any] | None = None
        for dx, dy in offsets:
            note = ax.annotate(
                text,
                point,
                xytext=(dx, dy),
                textcoords="offset points",
                fontsize=7,
                ha="center" if halo else "left" if dx >= 0 else "right",
                va="center",
                weight="bold" if bold else "normal",
                style="italic" if halo else "normal",
                color="#263238",
                zorder=1 if halo else 4,
                bbox=None if halo else dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.75),
                arrowprops=None if halo else dict(arrowstyle="-", color="#757575", lw=0.4),
            )
            box = note.get_window_extent(renderer)
            inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
            clash = sum(box.overlaps(other) for other in placed) + (0 if inside else 2)
            if best is not None:
                (note if clash >= best[0] else best[1]).remove()
            if best is None or clash < best[0]:
                best = (clash, note, box)
            if clash == 0:
                break
        if best is not None:
            placed.append(best[2])
