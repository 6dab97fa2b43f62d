"""dream/clustering.py against the libraries it stands beside (issue 23, item 6).

The hand-written Louvain is checked against networkx's ``louvain_communities`` on the same
graphs, the k-NN graph's TF-IDF mixing against scikit-learn's cosine similarity, and the whole
``cluster_vectors`` against scikit-learn's KMeans given the true number of clusters.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import adjusted_rand_score
from sklearn.metrics.pairwise import cosine_similarity

from graphmind.dream import clustering as c


def _planted_graph(seed: int, groups: int = 6, size: int = 25, p_in: float = 0.35, p_out: float = 0.02):
    """A planted-partition graph as (n, rows, cols, weights, truth), rows < cols."""
    graph = nx.planted_partition_graph(groups, size, p_in, p_out, seed=seed)
    edges = np.array(sorted((min(a, b), max(a, b)) for a, b in graph.edges()))
    truth = np.repeat(np.arange(groups), size)
    return graph, len(truth), edges[:, 0], edges[:, 1], np.ones(len(edges)), truth


def _modularity(graph: nx.Graph, labels: np.ndarray) -> float:
    parts = [set(np.flatnonzero(labels == k).tolist()) for k in np.unique(labels)]
    return nx.community.modularity(graph, parts)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_louvain_finds_the_communities_networkx_finds(seed):
    graph, n, rows, cols, w, truth = _planted_graph(seed)
    ours = c._louvain(n, rows, cols, w, 1.0, seed)
    theirs = np.zeros(n, np.int64)
    for label, members in enumerate(nx.community.louvain_communities(graph, resolution=1.0, seed=seed)):
        theirs[list(members)] = label
    assert adjusted_rand_score(theirs, ours) >= 0.9
    assert abs(_modularity(graph, ours) - _modularity(graph, theirs)) <= 0.02
    assert adjusted_rand_score(truth, ours) >= 0.9


def test_louvain_on_a_corrupted_graph_loses_the_planted_partition():
    """The check can fail: with the edges shuffled, no method recovers the planted groups."""
    graph, n, rows, cols, w, truth = _planted_graph(0)
    rng = np.random.default_rng(0)
    shuffled = rng.permutation(n)
    ours = c._louvain(n, shuffled[rows], shuffled[cols], w, 1.0, 0)
    assert adjusted_rand_score(truth, ours) < 0.2


def test_pair_dots_are_scikit_learns_tfidf_cosines():
    texts = [
        "retry the payment with an idempotency key",
        "the idempotency key stopped duplicate payments",
        "ack timeout raised but duplicates remain",
        "raise the ack timeout on the queue consumer",
        "prune the apple trees before the frost",
    ]
    a, b = np.array([0, 0, 2, 1, 4]), np.array([1, 2, 3, 3, 2])
    ours = c._pair_dots(c._tfidf(texts), a, b)
    vectorizer = TfidfVectorizer(token_pattern=c._TOKEN.pattern, sublinear_tf=True)
    reference = cosine_similarity(vectorizer.fit_transform(texts))[a, b]
    np.testing.assert_allclose(ours, reference, atol=1e-9)
    assert ours[0] > 0.1 and ours[4] == 0.0  # shared words score, none score zero


@pytest.mark.parametrize("seed", [0, 1])
def test_cluster_vectors_recovers_separated_groups_at_least_as_well_as_kmeans_given_k(seed):
    x, truth = make_blobs(n_samples=240, centers=8, n_features=24, cluster_std=1.0, random_state=seed)
    labels = c.cluster_vectors(x - x.mean(axis=0), min_cluster_size=3, seed=seed)
    kmeans = KMeans(n_clusters=8, n_init=10, random_state=seed).fit_predict(x)
    ours = adjusted_rand_score(truth[labels >= 0], labels[labels >= 0])
    assert (labels >= 0).mean() >= 0.9
    assert ours >= adjusted_rand_score(truth, kmeans) - 0.05 and ours >= 0.85


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_a_scale_of_its_own_the_q_rule_runs_to_dust_and_max_clusters_holds_it(seed):
    """Vectors with no groups: the q rule's fixed point keeps raising the resolution (on
    210 rows about 100 communities, most rows in none of 3 or more); capped at 30 it stops
    there, every row in a community of 3 or more."""
    x = np.random.default_rng(seed).normal(size=(210, 48))
    free = c.cluster_vectors(x, min_cluster_size=1, seed=seed)
    capped = c.cluster_vectors(x, min_cluster_size=1, seed=seed, max_clusters=30)
    assert free.max() + 1 > 60
    assert 27 <= capped.max() + 1 <= 30  # the bisection finds the resolution just under the cap
    assert (c.cluster_vectors(x, min_cluster_size=3, seed=seed) < 0).mean() > 0.4
    assert (c.cluster_vectors(x, min_cluster_size=3, seed=seed, max_clusters=30) >= 0).all()


@pytest.mark.parametrize("seed", [0, 1])
def test_parts_that_no_edge_links_stay_apart_under_any_cap(seed):
    """Louvain never joins parts of the k-NN graph that no edge links: 8 apart blobs stay 8."""
    x, _ = make_blobs(n_samples=240, centers=8, n_features=24, cluster_std=1.0, random_state=seed)
    free = c.cluster_vectors(x - x.mean(axis=0), min_cluster_size=1, seed=seed)
    tight = c.cluster_vectors(x - x.mean(axis=0), min_cluster_size=1, seed=seed, max_clusters=4)
    np.testing.assert_array_equal(free, tight)
    noise = np.random.default_rng(seed).normal(size=(240, 24))
    assert c.cluster_vectors(noise, min_cluster_size=1, seed=seed, max_clusters=4).max() + 1 <= 4


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_small_batch_with_groups_of_its_own_keeps_them_under_a_tighter_cap(seed):
    """4 topics x 5 (a night's few new experiences): the q rule finds them, leaving no dust,
    so a cap of 2 (one per 7) does not merge them."""
    rng = np.random.default_rng(seed)
    x = np.vstack([a + 0.3 * rng.normal(size=(5, 32)) for a in rng.normal(size=(4, 32))])
    labels = c.cluster_vectors(x, min_cluster_size=1, seed=seed, max_clusters=2)
    assert adjusted_rand_score(np.repeat(np.arange(4), 5), labels) == 1.0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_near_duplicates_added_to_the_graph_do_not_hide_the_dust(seed):
    """Rows after ``counted`` (a duplicate beside each) sit by their twin: counted with the
    rest they would turn every community of one or two into one of two or four."""
    rng = np.random.default_rng(seed)
    reps = rng.normal(size=(140, 32))
    x = np.vstack([reps, reps + 0.2 * rng.normal(size=reps.shape)])
    labels = c.cluster_vectors(x, min_cluster_size=1, seed=seed, max_clusters=20, counted=140)
    assert len(np.unique(labels[:140])) <= 20
    uncounted = c.cluster_vectors(x, min_cluster_size=1, seed=seed, max_clusters=20)
    assert len(np.unique(uncounted[:140])) > 20


def test_group_clusters_merges_and_keeps_apart_by_similarity():
    rng = np.random.default_rng(3)
    anchors = rng.normal(size=(3, 32))
    centroids = np.vstack([a + 0.05 * rng.normal(size=(4, 32)) for a in anchors])
    groups = c.group_clusters(centroids, seed=0)
    truth = np.repeat(np.arange(3), 4)
    assert len(np.unique(groups)) < len(centroids)
    assert adjusted_rand_score(truth, groups) == 1.0


def test_the_blocked_neighbour_search_and_pair_dots_do_not_depend_on_the_block_size(monkeypatch):
    from graphmind.dream import clustering

    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 16)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    monkeypatch.setattr(clustering, "_BLOCK_BYTES", 4 * 300 * 7)  # 7 rows a block
    small = clustering._nearest(x, 5)
    monkeypatch.setattr(clustering, "_BLOCK_BYTES", 4 * 300 * 300)  # one block
    whole = clustering._nearest(x, 5)
    assert np.array_equal(small[0], whole[0]) and np.allclose(small[1], whole[1])
    tfidf = clustering._tfidf([f"word{i % 7} word{i % 5} term{i % 3}" for i in range(300)])
    a, b = rng.integers(0, 300, 1000), rng.integers(0, 300, 1000)
    assert np.allclose(clustering._pair_dots(tfidf, a, b, chunk=37), clustering._pair_dots(tfidf, a, b))
