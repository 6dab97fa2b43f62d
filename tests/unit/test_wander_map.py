"""The wander map (``graphmind wander map``): projection, encoding helpers and the drawing,
without a database."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from graphmind.errors import ConfigError, NotFoundError
from graphmind.wander.map import (
    GREYS,
    MATPLOTLIB_MISSING,
    NO_DOMAIN,
    MapReport,
    domain_colours,
    draw_map,
    project_2d,
    render_map,
    sizes,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _line_data(n: int = 40, dims: int = 16, seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points spread along one direction of a high-dimensional space, with a little noise."""
    rng = np.random.default_rng(seed)
    direction = rng.normal(size=dims)
    direction /= np.linalg.norm(direction)
    t = np.linspace(-5, 5, n)
    return t[:, None] * direction + 0.05 * rng.normal(size=(n, dims)), t, direction


def test_pca_recovers_the_dominant_axis():
    vectors, t, _ = _line_data()
    coords, method = project_2d(vectors, method="pca")
    assert method == "pca" and coords.shape == (40, 2)
    assert abs(np.corrcoef(coords[:, 0], t)[0, 1]) > 0.999
    assert np.var(coords[:, 0]) > 100 * np.var(coords[:, 1])


def test_pca_is_deterministic_and_its_signs_are_fixed():
    vectors, _, direction = _line_data()
    first, _ = project_2d(vectors, method="pca")
    assert np.array_equal(first, project_2d(vectors.copy(), method="pca")[0])
    # the same points along the opposite direction: the axis is the same, so is the map
    flipped, _ = project_2d(vectors - 2 * np.outer(vectors @ direction, direction), method="pca")
    assert np.allclose(np.abs(flipped[:, 0]), np.abs(first[:, 0]), atol=1e-6)
    # the sign rule: the largest loading of the first component is positive
    centred = vectors - vectors.mean(axis=0)
    axis = np.linalg.lstsq(centred, first[:, 0], rcond=None)[0]
    assert axis[np.argmax(np.abs(axis))] > 0


def test_auto_projection_falls_back_to_pca_without_umap(monkeypatch):
    monkeypatch.setitem(sys.modules, "umap", None)  # import umap raises ImportError
    vectors, _, _ = _line_data()
    coords, method = project_2d(vectors)
    assert method == "pca" and coords.shape == (40, 2)
    with pytest.raises(ConfigError):
        project_2d(vectors, method="umap")
    with pytest.raises(ValueError):
        project_2d(vectors, method="tsne")


def test_one_point_sits_at_the_origin_and_two_points_on_a_line():
    one, method = project_2d(np.array([[0.3, 0.1, 0.9]]))
    assert method == "pca" and np.array_equal(one, np.zeros((1, 2)))
    two, _ = project_2d(np.array([[0.0, 0.0, 1.0], [0.0, 2.0, 1.0]]))
    assert two.shape == (2, 2)
    assert np.allclose(two[:, 1], 0) and np.isclose(abs(two[0, 0] - two[1, 0]), 2.0)
    assert np.allclose(two.sum(axis=0), 0)  # centred
    same, _ = project_2d(np.ones((3, 4)))
    assert np.array_equal(same, np.zeros((3, 2)))


def test_sizes_grow_with_the_square_root_of_visits():
    assert np.allclose(sizes([0, 1, 4, 9]), [30, 70, 110, 150])
    assert sizes([-2])[0] == 30 and sizes([10_000])[0] == 700  # clipped at both ends


def test_domain_colours_are_stable_and_grey_for_no_domain():
    colours = domain_colours(["queues", "retries", NO_DOMAIN, "queues", "code"])
    assert colours == domain_colours([NO_DOMAIN, "code", "retries", "queues"])
    assert colours[NO_DOMAIN] == GREYS[NO_DOMAIN]
    named = [colours[d] for d in ("code", "queues", "retries")]
    assert len(set(named)) == 3 and GREYS[NO_DOMAIN] not in named
    assert all(c.startswith("#") and len(c) == 7 for c in colours.values())


def _session(n: int = 30) -> tuple[list[dict], dict]:
    rng = np.random.default_rng(7)
    centres = rng.normal(size=(3, 24)) * 3
    domains = ["queues", "retries", "people"]
    loci = [
        {
            "id": f"locus-{i}",
            "concept": f"concept number {i} with a rather long name indeed",
            "domains": [domains[i % 3]] if i else [],
            "embedding": list(centres[i % 3] + rng.normal(size=24)),
            "visits": int(i % 5),
            "source_type": "SEED" if i == 0 else "MEMORY",
        }
        for i in range(n)
    ]
    path = [0, 3, 6, 1, 4, 7, 10, 13, 2, 5, 8, 11]
    marks = {
        "steps": [[f"locus-{a}", f"locus-{b}"] for a, b in zip(path, path[1:])],
        "crystal_loci": ["locus-4", "locus-10", "locus-missing"],
        "resonance_clusters": [
            {
                "id": "resonance-a",
                "themes": ["queue", "race", "lock"],
                "strength": 3.0,
                "status": "confirmed",
                "loci": ["locus-3", "locus-6", "locus-9"],
            },
            {
                "id": "resonance-gone",
                "themes": ["x"],
                "strength": 1.0,
                "status": "candidate",
                "loci": ["locus-missing"],
            },
        ],
    }
    return loci, marks


def test_draw_map_writes_a_png_and_counts_what_it_drew(tmp_path):
    from matplotlib import image

    loci, marks = _session()
    out = tmp_path / "maps" / "session.png"
    report = draw_map(loci, marks, out, "Wander session s-1")
    assert report == MapReport(
        out=str(out), loci=30, steps=11, crystals=2, resonance_clusters=1, projection=report.projection
    )
    assert report.projection in ("pca", "umap")
    assert report.as_dict()["steps"] == 11
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    pixels = image.imread(out)
    assert pixels.shape[:2] == (1275, 1650)  # 11 x 8.5 in at 150 dpi
    assert pixels[..., :3].std() > 0.05  # something was drawn


def test_draw_map_copes_with_a_lone_seed_and_loci_without_embeddings(tmp_path):
    loci, _ = _session(3)
    loci[2]["embedding"] = None
    report = draw_map(loci[:1] + loci[2:], {}, tmp_path / "seed.png", "seed only")
    assert (report.loci, report.steps, report.crystals, report.resonance_clusters) == (1, 0, 0, 0)
    with pytest.raises(NotFoundError):
        draw_map(loci[2:], {}, tmp_path / "none.png", "nothing")


def test_many_domains_fold_into_other(tmp_path):
    loci, marks = _session(40)
    for i, row in enumerate(loci):
        row["domains"] = [f"domain {i % 20:02d}"]
    report = draw_map(loci, marks, tmp_path / "many.png", "twenty domains")
    assert report.loci == 40


def _session_rows() -> tuple[list[dict], list[dict]]:
    loci, marks = _session()
    return loci, [marks]


class _Store:
    def __init__(self, loci, marks):
        self.rows = {"wander/list_map_loci": loci, "wander/list_map_marks": marks}
        self.calls = []

    def read(self, name, **params):
        self.calls.append((name, params))
        return self.rows[name]


def test_render_map_reads_both_queries_and_draws(tmp_path):
    store = _Store(*_session_rows())
    report = render_map(store, "m", "s-1", tmp_path / "map.png")
    assert report.loci == 30 and report.steps == 11
    assert store.calls == [
        ("wander/list_map_loci", {"mind": "m", "session_id": "s-1"}),
        ("wander/list_map_marks", {"mind": "m", "session_id": "s-1"}),
    ]


def test_render_map_refuses_a_session_without_loci(tmp_path):
    with pytest.raises(NotFoundError, match="s-0"):
        render_map(_Store([], []), "m", "s-0", tmp_path / "map.png")


def test_render_map_names_the_extra_when_matplotlib_is_missing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ConfigError) as raised:
        render_map(_Store(*_session_rows()), "m", "s-1", tmp_path / "map.png")
    assert str(raised.value) == MATPLOTLIB_MISSING
