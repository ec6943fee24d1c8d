"""Learning the player's tile set, in the sidebar: the consent
switch (off by default), the tiles kept, and the button that learns the set.

With the switch on, every read the player confirms or corrects (and a hand
typed for a photo) is kept as a labelled crop in their data folder
(:mod:`okey_vision.app.learning`). The button fits the set
(:func:`okey_vision.calibrate.learn.learn`: fit, then the guard) and shows
what was learned or why it is not used. The app's reader looks at the
calibration file before each read, so the next photo is read with it.
"""

from __future__ import annotations

import streamlit as st

from okey_vision.app.learning import keep
from okey_vision.app.sections.common import log, reader
from okey_vision.app.state import AppState
from okey_vision.calibrate.text import say
from okey_vision.errors import OkeyError
from okey_vision.lang import count
from okey_vision.report.labels import sentence


def learning_section(app: AppState) -> None:
    """The switch; with it on, keep what the player confirmed or corrected, and offer to learn."""
    lang = app.lang
    app.learning = st.toggle(say("label.learn", lang), key="learn_on", value=False, help=say("learn_help", lang))
    if not app.learning:
        return
    try:
        n = keep(app)
    except (OSError, OkeyError) as exc:  # a full or read-only disk (FileError, naming it): said, the page goes on
        log.warning("corrections not kept: %s", exc)
        st.caption(sentence(str(exc)))
        n = 0
    if n:
        log.info("kept %d tiles to learn the set", n)
        st.caption(say("kept_now", lang, n=count(n, "tile", lang)))
    if st.button(say("label.fit_button", lang), key="fit_set", help=say("fit_help", lang)):
        from okey_vision.calibrate.learn import learn, show
        from okey_vision.vision.reader import RackReader

        read, _ = reader()  # the page's reader, loaded once: its networks are shared, not loaded again
        owner = getattr(read, "__self__", None)
        try:
            with st.spinner(say("fitting", lang)):
                learned = learn(owner if isinstance(owner, RackReader) else RackReader())
        except OkeyError as exc:  # the calibration cannot be saved (FileError, naming the file): said
            log.warning("calibration not learned: %s", exc)
            st.error(sentence(str(exc)))
            return
        lines = learned.lines(lang)
        failed = learned.verdict is not None and not learned.verdict.passed
        (st.warning if failed else st.info)(" ".join(lines))
        st.caption(" ".join(show(lang=lang)[:1]))


__all__ = ["learning_section"]
