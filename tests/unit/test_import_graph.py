"""No import cycles between graphmind's packages (issue 23): the layers stay one-way.

A package is ``graphmind.<name>`` (a subpackage, or a top-level module such as ``graphmind.mind``).
Every ``import graphmind.x...`` or ``from graphmind.x... import``, at any depth of a module (lazy
imports inside functions included), is an edge from the importing package to ``graphmind.x``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2] / "graphmind"


def package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def import_graph(root: Path) -> nx.DiGraph:
    """Package -> package edges of the tree under ``root`` (named ``root.name``), with the file
    that makes each edge."""
    graph = nx.DiGraph()
    top = root.name
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        source = package_of(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        graph.add_node(source)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                target = package_of(name)
                if name.startswith(f"{top}.") and target != source:
                    graph.add_edge(source, target, where=str(path.relative_to(root.parent)))
    return graph


def package_cycles(root: Path) -> list[list[str]]:
    return sorted(sorted(cycle) for cycle in nx.simple_cycles(import_graph(root)))


def test_graphmind_has_no_import_cycle_between_packages():
    graph = import_graph(ROOT)
    assert len(graph) > 20 and graph.has_edge("graphmind.mind", "graphmind.app")  # the graph was read
    cycles = package_cycles(ROOT)
    witnesses = [
        " -> ".join(f"{a} ({graph.edges[a, b]['where']})" for a, b in zip(c, c[1:] + c[:1], strict=True))
        for c in nx.simple_cycles(graph)
    ]
    assert cycles == [], "import cycles between packages:\n" + "\n".join(witnesses)


def test_the_check_finds_a_cycle_made_by_a_lazy_import(tmp_path):
    pkg = tmp_path / "demo"
    for name, body in {
        "__init__.py": "",
        "llm/__init__.py": "def behaviours():\n    from demo.dream.rules import RULES\n    return RULES\n",
        "dream/__init__.py": "",
        "dream/rules.py": "from demo.llm import behaviours\nRULES = {}\n",
        "store.py": "import demo.llm\n",
    }.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(body)
    assert package_cycles(pkg) == [["demo.dream", "demo.llm"]]
    (pkg / "llm/__init__.py").write_text("def behaviours():\n    return {}\n")
    assert package_cycles(pkg) == []
