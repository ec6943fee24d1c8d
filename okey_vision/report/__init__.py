"""What the app and the organiser's report show, with no Streamlit: the app's
words, the analysis shown, tiles drawn as HTML, boxes drawn on a photo, and
the check's HTML report.

* :mod:`okey_vision.report.labels`   -- every label and message shown, English and Turkish.
* :mod:`okey_vision.report.analysis` -- one call from a hand to everything shown
  (arrangement, declaration, ranked discards), or a plain message; the move on the rack.
* :mod:`okey_vision.report.render` -- the hand drawn as tiles (HTML/CSS).
* :mod:`okey_vision.report.photo`  -- photo bytes in, reads out, boxes and the move drawn on it.
* :mod:`okey_vision.report.zoom`   -- the photo zoomed to the rack, a tap back to a read, where labels go.
* :mod:`okey_vision.report.html`   -- the organiser's report: one self-contained HTML file.

The app (:mod:`okey_vision.app`) and the command line draw with these;
nothing here imports Streamlit or the app. numpy and OpenCV load lazily.
"""
