"""Learning the player's own tile set from their corrections.

- :mod:`~okey_vision.calibrate.align`: the tiles a player gives for a photo,
  in rack order, aligned with the photo's reads as a diff aligns lines;
- :mod:`~okey_vision.calibrate.store`: the labelled crops kept on the
  player's machine (their data folder, never sent anywhere);
- :mod:`~okey_vision.calibrate.fit`: the set's experts fitted on them (a
  :class:`~okey_vision.vision.calibration.Calibration`, beside the shipped
  networks);
- :mod:`~okey_vision.calibrate.guard`: a fit that reads real photos worse
  than the shipped reader is not used;
- :mod:`~okey_vision.calibrate.text`: its words, English and Turkish.

The command line is ``okey-vision calibrate`` (:mod:`okey_vision.cli.calibrate`);
the app's switch and button are in :mod:`okey_vision.app.sections.calibrate`.
"""
