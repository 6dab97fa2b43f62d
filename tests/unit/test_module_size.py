"""Every module of graphmind stays under 400 lines (DEVELOPERS.md), as the formatter lays it out."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "graphmind"
LIMIT = 400


def long_modules(root: Path, limit: int = LIMIT) -> dict[str, int]:
    sizes = {
        str(p.relative_to(root.parent)): len(p.read_text(encoding="utf-8").splitlines()) for p in root.rglob("*.py")
    }
    return {name: n for name, n in sorted(sizes.items()) if n >= limit}


def test_no_module_reaches_400_lines():
    assert len(list(ROOT.rglob("*.py"))) > 100  # the tree was read
    assert long_modules(ROOT) == {}


def test_the_check_names_a_long_module(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "short.py").write_text("x = 1\n")
    (pkg / "long.py").write_text("x = 1\n" * LIMIT)
    assert long_modules(pkg) == {"pkg/long.py": LIMIT}
