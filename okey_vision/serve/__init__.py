"""The reader on a Ray cluster (the ``serve`` extra): the reader service and the club's check.

- :mod:`okey_vision.serve.cluster`: joining a Ray cluster, or starting a
  one-machine Ray here;
- :mod:`okey_vision.serve.deployment`: the Ray Serve deployment holding the
  ONNX reader, batching the requests of many tables' apps, its replicas
  spread over the cluster's cores; apps reach it through
  :class:`~okey_vision.vision.service.RemoteReader`;
- :mod:`okey_vision.serve.spread`: ``okey-vision check --ray``, the photos
  spread over the cluster's workers, rows in the photos' order.

Every module here imports Ray; nothing outside ``serve/`` and the command
line imports them, so the app and the reader never need Ray.
"""
