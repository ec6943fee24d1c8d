"""The app's page sections (Streamlit), each drawing one part of ``app.py``'s page.

* :mod:`~okey_vision.app.sections.common` -- the session's :class:`~okey_vision.app.state.AppState`,
  its words, the reader (loaded once per server with ``st.cache_resource``).
* :mod:`~okey_vision.app.sections.photo`   -- the photo in (upload or camera), read into the state,
  shown boxed; tap a tile to correct it.
* :mod:`~okey_vision.app.sections.advice`  -- the move, the hand grouped, the ranked discards.
* :mod:`~okey_vision.app.sections.correct` -- a picker per tile, add, clear, type the hand.
* :mod:`~okey_vision.app.sections.round`   -- the indicator and the tiles seen this round.
* :mod:`~okey_vision.app.sections.scores`  -- the scoring scheme and the score table.
* :mod:`~okey_vision.app.sections.live`    -- live coaching from the camera.

Widgets give values; a widget whose change must show above it in the same run
(a tile picker under the advice) has a callback that makes one
:class:`~okey_vision.app.state.AppState` change. The drawing itself (tiles as
HTML, boxes on the photo) lives in :mod:`okey_vision.report.render` and
:mod:`okey_vision.report.photo`.
"""
