from neo4j._codec.packstream.v1 import PackableBuffer, Packer

from graphmind.store import graph_store


def _packed(value) -> bytes:
    buffer = PackableBuffer()
    Packer(buffer).pack(value)
    return bytes(buffer.data)


def test_long_lists_travel_with_a_short_repr_and_the_same_bytes():
    rows = [{"uid": f"m:n{i}", "props": {"text": "x" * 50}} for i in range(5000)]
    ids = ["a", "b"]
    with graph_store._sent({"rows": rows, "ids": ids, "mind": "m"}) as sent:
        assert repr(sent) == "{'rows': <5000 items>, 'ids': ['a', 'b'], 'mind': 'm'}"
        assert sent["ids"] is ids and sent["rows"] == rows
        assert _packed(sent) == _packed({"rows": rows, "ids": ids, "mind": "m"})
        kept = sent["rows"]
    assert kept == [] and len(rows) == 5000  # the copy is emptied, the caller's list untouched


def test_the_copies_are_emptied_when_the_call_fails():
    rows = list(range(100))
    try:
        with graph_store._sent({"rows": rows}) as sent:
            kept = sent["rows"]
            raise RuntimeError("server gone")
    except RuntimeError:
        pass
    assert kept == [] and rows == list(range(100))
