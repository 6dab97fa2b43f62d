import re
import subprocess
import sys

import pytest

import graphmind
from graphmind.config import Settings
from graphmind.errors import ConfigError, GraphmindError, InputError, RunError
from graphmind.models import NODE_TYPES, base_label
from graphmind.recall._logic import INDEX_FIELDS
from graphmind.store.schema import load_schema, split_statements


def test_public_api_is_sorted_importable_and_documented():
    assert graphmind.__all__ == sorted(graphmind.__all__)
    for name in graphmind.__all__:
        assert (getattr(graphmind, name).__doc__ or "").strip(), f"graphmind.{name} has no docstring"


def test_every_type_minds_public_methods_take_or_return_is_exported():
    """A user can name (import from ``graphmind``) whatever Mind hands them or asks for."""
    import inspect
    import typing

    from graphmind.mind import Mind

    missing: set[str] = set()

    def walk(tp: object) -> None:
        if typing.get_origin(tp) is not None:
            for arg in typing.get_args(tp):
                walk(arg)
        elif inspect.isclass(tp) and tp.__module__.startswith("graphmind") and tp.__name__ not in graphmind.__all__:
            missing.add(f"{tp.__module__}.{tp.__name__}")

    for name, member in inspect.getmembers(Mind):
        function = member.fget if isinstance(member, property) else member
        if not name.startswith("_") and callable(function):
            for hint in typing.get_type_hints(function).values():
                walk(hint)
    assert not missing, f"not exported from graphmind: {sorted(missing)}"


def test_settings_come_from_the_given_environment():
    settings = Settings.from_env(
        {"GRAPHMIND_HOME": "/tmp/gm", "NEO4J_URI": "neo4j://db:7687", "GRAPHMIND_IMPORT_BATCH": "250"}
    )
    assert settings.neo4j_uri == "neo4j://db:7687"
    assert settings.import_batch_size == 250
    assert settings.bolt_port == 7687 and settings.neo4j_database == "neo4j"


@pytest.mark.parametrize(
    ("name", "value"),
    [("GRAPHMIND_IMPORT_BATCH", "many"), ("GRAPHMIND_BOLT_PORT", "70000"), ("GRAPHMIND_NEO4J_HEAP", "lots")],
)
def test_bad_settings_raise_a_config_error(name, value):
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({"GRAPHMIND_HOME": "/tmp/gm", name: value})


def test_importing_graphmind_reads_no_environment_and_opens_nothing():
    code = "import os; os.environ.clear(); import graphmind, graphmind.cli, graphmind.store; print('ok')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize("name", ["felix\n", "felix\r\n", "\nfelix", "a:b", "", "x" * 65])
def test_a_mind_name_is_checked_whole(name):
    from graphmind.errors import ValidationError
    from graphmind.mind import check_mind_name

    assert check_mind_name("felix.v2-a_b") == "felix.v2-a_b"
    with pytest.raises(ValidationError, match="mind name"):
        check_mind_name(name)


def test_error_tree_exit_codes():
    assert issubclass(ConfigError, InputError) and InputError.exit_code == 2
    assert RunError.exit_code == 1 and issubclass(RunError, GraphmindError)


def test_every_label_shares_a_label_with_a_uid_constraint():
    text = " ".join(s.text for s in load_schema())
    for label in NODE_TYPES:
        assert f"FOR (n:{base_label(label)}) REQUIRE n.uid IS UNIQUE" in text, label


def test_schema_statements_split_on_line_end_semicolons():
    assert split_statements("// c\nCREATE A;\nCREATE B\n  OPTIONS {x: 1};\n") == [
        "CREATE A",
        "CREATE B\n  OPTIONS {x: 1}",
    ]


def test_the_full_text_index_covers_every_text_field_and_the_mind():
    statement = next(s.text for s in load_schema() if "FULLTEXT INDEX memory_search" in s.text)
    indexed = set(re.findall(r"\bn\.([a-z_]+)\b", statement.split("ON EACH", 1)[1]))
    assert indexed == {f for model in NODE_TYPES.values() for f in model.TEXT_FIELDS} | {"text", "mind"}
    assert len(indexed) == INDEX_FIELDS  # an unqualified term is asked in each (recall's clause budget)
