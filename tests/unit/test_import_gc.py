import gc

import pytest

from graphmind.io.importer import cyclic_gc_paused


@pytest.fixture
def collector_restored():
    enabled = gc.isenabled()
    yield
    gc.enable() if enabled else gc.disable()


def test_the_collector_is_paused_inside_and_enabled_again_after(collector_restored):
    gc.enable()
    with cyclic_gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off(collector_restored):
    gc.disable()
    with cyclic_gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_the_collector_is_enabled_again_when_the_import_fails(collector_restored):
    gc.enable()
    with pytest.raises(RuntimeError), cyclic_gc_paused():
        raise RuntimeError("write failed")
    assert gc.isenabled()
