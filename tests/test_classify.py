"""The classify stage (okey_vision.vision.classify): faces read from tiles'
corners on a rendered rack whose faces and corners are known."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from okey_vision.synth import render_scene
from okey_vision.tiles import TILES
from okey_vision.vision.classify import Classifier, FaceReads
from okey_vision.vision.crops import turned


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    from okey_vision.vision.reader import RackReader

    r = RackReader()
    if not r.has_net("number"):
        pytest.skip("no classifier weights")
    return r.classifier


@pytest.fixture(scope="module")
def rack():
    from test_reader import CLEAN_RACK

    scene = render_scene(3, CLEAN_RACK)
    tiles = [t for t in scene.tiles if t.on_rack]
    return scene.image, [np.asarray(t.quad, np.float64) for t in tiles], [t.tile.name for t in tiles]


def test_true_corners_read_their_faces(classifier, rack) -> None:
    """Cut from its true corners, every tile of a clean rack reads its face."""
    img, quads, names = rack
    faces = classifier(img, quads)
    assert isinstance(faces, FaceReads) and len(faces) == len(quads)
    assert faces.probs.shape == (len(quads), len(TILES))
    assert np.allclose(faces.probs.sum(1), 1.0)
    assert [TILES[int(i)].name for i in faces.probs.argmax(1)] == names


def test_upside_down_corners_are_read_the_right_way_up(classifier, rack) -> None:
    """Given every tile's corners a half turn off, the rack reads the same
    faces and hands back the corners turned the right way up."""
    img, quads, names = rack
    faces = classifier(img, [turned(q) for q in quads])
    assert [TILES[int(i)].name for i in faces.probs.argmax(1)] == names
    for got, true in zip(faces.quads, quads, strict=True):
        assert np.allclose(got, true)


def test_keep_takes_the_tiles_asked_for(classifier, rack) -> None:
    img, quads, _names = rack
    faces = classifier(img, quads[:3])
    kept = faces.keep([True, False, True])
    assert len(kept) == 2 and np.allclose(kept.probs, faces.probs[[0, 2]])
    assert classifier(img, []).probs.shape == (0, len(TILES))


def test_colour_read_one_way_up_reads_the_same_faces(classifier, rack) -> None:
    """With the colour network reading only the upright crops, a rack (given
    upright or a half turn off) reads the same faces and ways up, its colour
    reads near the both-ways ones, and its number reads unchanged."""
    from dataclasses import replace

    img, quads, names = rack
    one_way = Classifier(classifier.number, classifier.color, replace(classifier.config, colour_turned=False),
                         classifier.crop)
    for qs in (quads, [turned(q) for q in quads]):
        both, once = classifier(img, qs), one_way(img, qs)
        assert [TILES[int(i)].name for i in once.probs.argmax(1)] == names
        assert all(np.allclose(a, b) for a, b in zip(once.quads, both.quads, strict=True))
        assert np.abs(once.probs - both.probs).max() < 0.2


def test_a_rack_read_one_way_up_reads_as_both_ways(classifier, rack) -> None:
    """A rack row whose tiles read surely as cut skips those tiles' turned
    crops: the same faces, corners and probabilities as read both ways up,
    their turn evidence unknown (NaN); given a half turn off, the row is read
    both ways up and turned back."""
    from dataclasses import replace

    img, quads, names = rack
    assert classifier.config.one_way_sure > 0
    both = Classifier(classifier.number, classifier.color, replace(classifier.config, one_way_sure=0.0),
                      classifier.crop)
    also = [q + 0.5 if i % 2 else None for i, q in enumerate(quads)]     # half the tiles read from second corners too
    once, twice = classifier(img, quads, also), both(img, quads, also)
    assert [TILES[int(i)].name for i in once.probs.argmax(1)] == names
    assert all(np.array_equal(a, b) for a, b in zip(once.quads, twice.quads, strict=True))
    assert np.allclose(once.probs, twice.probs, atol=1e-5)
    skipped = np.isnan(once.turn)
    assert skipped.any()                                                # the sure tiles were read one way
    assert (once.probs[skipped].max(1) >= classifier.config.one_way_sure).all()
    assert np.allclose(once.turn[~skipped], twice.turn[~skipped], atol=1e-5)
    upside = classifier(img, [turned(q) for q in quads])
    assert [TILES[int(i)].name for i in upside.probs.argmax(1)] == names
    assert not np.isnan(upside.turn).any()                              # a turned row: every tile both ways
    assert all(np.allclose(g, q) for g, q in zip(upside.quads, quads, strict=True))
