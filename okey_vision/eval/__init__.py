"""Evaluation: what the benchmarks, the tests and the calibration's guard
judge the reader and the coach with. Nothing here loads at run time of the
app or the command line, and nothing heavy loads on import of the package.

* :mod:`~okey_vision.eval.shared` -- where the shared real photos are (``real_pixels``);
* :mod:`~okey_vision.eval.match` -- the one greedy IoU matching of labels and reads;
* :mod:`~okey_vision.eval.views` -- real photos as they are and through views that carry their labels;
  the scoring of reads;
* :mod:`~okey_vision.eval.racks` -- rendered racks with known hands, a scene's rack in rack order,
  reads from a truth record;
* :mod:`~okey_vision.eval.hands` -- seeded hand generators;
* :mod:`~okey_vision.eval.brute` -- brute-force references for the solver;
* :mod:`~okey_vision.eval.hostile` -- hostile image bytes;
* :mod:`~okey_vision.eval.baseline` -- the baseline coach, from git history;
* :mod:`~okey_vision.eval.external` -- packages imported from a folder outside the environment.
"""
