from graphmind.io.spill import Spill


def test_batches_come_back_in_order_and_can_be_read_twice():
    spill = Spill(batch_size=3)
    for i in range(8):
        spill.add(i)
    assert spill.count == 8
    assert list(spill.batches()) == [[0, 1, 2], [3, 4, 5], [6, 7]]
    assert [x for batch in spill.batches() for x in batch] == list(range(8))
    spill.close()


def test_an_empty_spill_has_no_batches():
    spill = Spill(batch_size=5)
    assert list(spill.batches()) == []
    spill.close()
