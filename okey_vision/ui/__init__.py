"""Pure helpers behind the Streamlit app (``app.py``).

* :mod:`okey_vision.ui.scores`  -- the score table of a game (pure Python).
* :mod:`okey_vision.ui.round`   -- the live round: indicator, seen tiles, turns.
* :mod:`okey_vision.ui.advice`  -- one call from a hand to everything shown
  (arrangement, declaration, ranked discards), or a plain message.
* :mod:`okey_vision.ui.render`  -- the hand drawn as tiles (HTML/CSS).
* :mod:`okey_vision.ui.photo`   -- photo bytes in, reads out, boxes drawn on it.
* :mod:`okey_vision.ui.sample`  -- the embedded sample rack photo and how it is rendered.
* :mod:`okey_vision.ui.testing` -- stand-in readers for testing the app without weights.
* :mod:`okey_vision.ui.state`   -- the app's session state, typed: ``AppState``, an ``Entry`` per rack tile.
* :mod:`okey_vision.ui.sections` -- the page's sections (the only Streamlit code here).

Nothing here imports Streamlit but ``sections``; numpy and OpenCV load lazily in ``photo``.
"""
