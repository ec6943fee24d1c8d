"""What a Turkish page or ``--lang tr`` output must not say: an
English word of the interface, or a tile in the project's Latin notation
(a Turkish player reads *k* as kırmızı, red).

The English words are every word of the interface's English texts (the
coach's, the 101 coach's, the check's, the calibration's, the command
line's, the reader service's and the app's sentences, the words of 101, the photo
errors, and Streamlit's own widget texts) that no Turkish text uses too
("okey", "JPEG" and the like are both). Command-line options, the program's
name and file names are not words of either language and are left out.
"""

from __future__ import annotations

import re

from okey_vision.calibrate.text import SENTENCES as CALIBRATE
from okey_vision.check.text import SENTENCES as CHECK
from okey_vision.cli.common import SENTENCES as CLI
from okey_vision.coach.text import SENTENCES as COACH
from okey_vision.errors import ImageProblem
from okey_vision.lang import TILE_NOTATION, WORDS_101
from okey_vision.report.labels import ERRORS_TR, TEXT
from okey_vision.vision.wire import SENTENCES as SERVICE
from okey_vision.yuzbir.text import SENTENCES as YUZBIR

#: Streamlit's own English texts on the page's widgets (the uploader, the
#: camera, a select box, a text box, the status widget, the main menu).
STREAMLIT = ("Drag and drop file here", "Drag and drop files here", "Browse files", "Limit 200MB per file",
             "per file", "Upload", "Take Photo", "Clear photo", "Press Enter to apply", "Choose an option",
             "Choose options", "No results", "Running", "Stop", "Deploy", "Rerun", "Settings", "Print",
             "Record a screencast", "About", "Clear cache", "Delete", "Remove", "Switch camera")

WORD = re.compile(r"[A-Za-zÇĞİÖŞÜçğıöşü]+")
#: Not words of a language: options, the program and its commands, paths and file names, template fields.
NOT_WORDS = re.compile(r"--[\w-]+|okey-vision(?: \w+)*|\S+\.(?:jpe?g|png|webp|bmp|tiff?|txt|html|npz)\b"
                       r"|(?:/[\w.-]+)+|{[^}]*}|\$\w+|\b[A-Z_]{2,}\b")


def _words(texts) -> set[str]:
    """The words of ``texts`` (lower case; single letters are not words here: "e.g.", "s")."""
    return {w.lower() for text in texts for w in WORD.findall(NOT_WORDS.sub(" ", text)) if len(w) > 1}


def _english() -> set[str]:
    tables = (COACH, CHECK, CALIBRATE, TEXT, YUZBIR, WORDS_101, CLI, SERVICE)
    en = [pair[0] for table in tables for pair in table.values()]
    en += [p.template for p in ImageProblem] + list(STREAMLIT)
    tr = [pair[1] for table in tables for pair in table.values()] + list(ERRORS_TR.values())
    return _words(en) - _words(tr)


#: The English words of the interface (lower case) that no Turkish text says.
ENGLISH = _english()


def english_words(text: str) -> list[str]:
    """The interface's English words in ``text`` (lower case, in order)."""
    return [w for w in WORD.findall(NOT_WORDS.sub(" ", text)) if w.lower() in ENGLISH]


def latin_tiles(text: str) -> list[str]:
    """The tiles written in the Latin notation in ``text`` (options and file names left out)."""
    return [m.group(0) for m in TILE_NOTATION.finditer(re.sub(r"--[\w-]+\s+\S+", " ", text))]
