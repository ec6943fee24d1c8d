"""The organiser's check: photos of declared hands in, a verdict for each out.

* :mod:`~okey_vision.check.verdict` -- one photo's reads -> a :class:`Verdict`
  (pure Python): the hand built as everywhere (``Hand.of`` over the reads),
  judged by the solver's ``declare``, with the coach's distance.
* :mod:`~okey_vision.check.photos`  -- the photos to check (paths, folders,
  sidecar indicators) read in parallel with the one shared reader.
* :mod:`~okey_vision.check.text`    -- its words, English and Turkish.

The report drawn from the verdicts (HTML) is :mod:`okey_vision.report.html`;
the command is :mod:`okey_vision.cli.check`, the app's page
:mod:`okey_vision.app.sections.check`.
"""

from okey_vision.check.verdict import CheckError, Source, Verdict, judge

__all__ = ["CheckError", "Source", "Verdict", "judge"]
