"""Training and export of the tile reader's models (ultralytics and torch).

Apart from the runtime reader (:mod:`okey_vision.vision`, onnxruntime only):
nothing under ``okey_vision/vision/`` imports this package, torch or
ultralytics. One module a concern:

* :mod:`~okey_vision.training.paths` -- where data, runs and models live; the log;
* :mod:`~okey_vision.training.data` -- the detectors' data (upright, oriented, row strips);
* :mod:`~okey_vision.training.views` -- the oriented detector's data as the reader's normalised views;
* :mod:`~okey_vision.training.crop_data` -- the classifiers' crops (rendered, real, detected);
* :mod:`~okey_vision.training.recover` -- a trainable checkpoint rebuilt from a shipped ONNX model;
* :mod:`~okey_vision.training.export` -- shipping a run's weights, mixing checkpoints, ONNX export;
* :mod:`~okey_vision.training.quantize` -- the ONNX networks computing in int8, calibrated on the reader's inputs;
* :mod:`~okey_vision.training.runs` -- the recipes and the ultralytics training runs;
* :mod:`~okey_vision.training.torchnet` -- running a ``.pt`` checkpoint in the reader (torch backend);
* ``python -m okey_vision.training`` (:mod:`okey_vision.cli.train`, ``okey-vision train``) -- its command line;
* :mod:`~okey_vision.training.retrain` -- every model from its yaml in one command.
"""

import os

# Set before any ultralytics import: nothing is downloaded, ever (no network here).
os.environ.setdefault("YOLO_OFFLINE", "1")
