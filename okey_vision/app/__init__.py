"""The Streamlit app behind ``app.py``: its sections and the session's state.

* :mod:`okey_vision.app.scores`   -- the score table of a game (pure Python).
* :mod:`okey_vision.app.round`    -- the live round: indicator, seen tiles, turns.
* :mod:`okey_vision.app.learning` -- the player's corrections kept for the calibration.
* :mod:`okey_vision.app.state`    -- the app's session state, typed: ``AppState``, an ``Entry`` per rack tile.
* :mod:`okey_vision.app.sections` -- the page's sections (the only Streamlit code here).

What the page shows is drawn by :mod:`okey_vision.report` (words, tiles as
HTML, boxes on the photo); the live camera's worker is
:mod:`okey_vision.vision.live`; the sample photo is :mod:`okey_vision.synth.sample`.
Nothing here imports Streamlit but ``sections``.
"""
