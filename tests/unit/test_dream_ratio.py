"""The compression ratio's warning: only on batches large enough for the target to apply."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import pytest

from graphmind.dream import CompressionRatioWarning, DreamParams
from graphmind.dream.run_record import checked_ratio


def _run(**params) -> SimpleNamespace:
    return SimpleNamespace(params=DreamParams(**params), warned=[])


def test_a_small_batch_of_a_few_topics_gets_its_ratio_without_a_warning() -> None:
    run = _run()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CompressionRatioWarning)
        assert checked_ratio(run, 20, 4) == 5.0
    assert run.warned == []


def test_a_large_batch_outside_the_band_is_warned_about() -> None:
    run = _run()
    with pytest.warns(CompressionRatioWarning, match=r"3.0:1 is outside the target 10:1"):
        assert checked_ratio(run, 60, 20) == 3.0
    assert len(run.warned) == 1


def test_the_floor_is_a_setting_and_no_new_pattern_gives_no_ratio() -> None:
    run = _run(ratio_min_experiences=10)
    with pytest.warns(CompressionRatioWarning):
        checked_ratio(run, 20, 4)
    assert checked_ratio(_run(), 0, 0) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error", CompressionRatioWarning)
        assert checked_ratio(_run(), 100, 10) == 10.0
