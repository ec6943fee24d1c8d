"""The one matching of labelled tiles and reads: greedy, one to one, by IoU.

Every pair is scored, the best pair taken first, and a label or a read once
taken is never taken again; pairs below the threshold are never matched.
The benchmarks, the real-pixel views and the detected crops of training all
match this way.

>>> greedy_match([(0, 0, 10, 10), (20, 0, 30, 10)], [(21, 0, 31, 10), (1, 0, 11, 10)], box_iou, 0.4)
[(1, 0, 0.8181818181818182), (0, 1, 0.8181818181818182)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

A = TypeVar("A")
B = TypeVar("B")


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two (x1, y1, x2, y2) boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / u if u > 0 else 0.0


def greedy_match(labels: Sequence[A], reads: Sequence[B], iou: Callable[[A, B], float],
                 threshold: float) -> list[tuple[int, int, float]]:
    """(label index, read index, IoU) of each pair matched, best first: the
    pairs by falling IoU (ties: the later indices first), each label and each
    read in one pair at most, none below ``threshold``."""
    pairs = sorted(((iou(a, b), i, j) for i, a in enumerate(labels) for j, b in enumerate(reads)), reverse=True)
    used_l: set[int] = set()
    used_r: set[int] = set()
    out = []
    for v, i, j in pairs:
        if v < threshold:
            break
        if i in used_l or j in used_r:
            continue
        used_l.add(i)
        used_r.add(j)
        out.append((i, j, v))
    return out


def match(truth: Sequence[tuple], reads: Sequence, thr: float = 0.4) -> list[tuple[int, int]]:
    """(truth index, read index) pairs of ``truth`` ((tile, box) each) and
    reads (their ``box``), matched by box IoU at least ``thr``."""
    return [(i, j) for i, j, _ in greedy_match(truth, reads, lambda t, r: box_iou(t[1], r.box), thr)]


__all__ = ["box_iou", "greedy_match", "match"]
