"""The one language type: the app, the coach's sentences and the command line
all speak in a :class:`Lang`.

>>> Lang.pick("tr"), Lang.pick(None, "tr-TR,tr;q=0.9,en;q=0.8"), Lang.pick(None, "de-DE")
(<Lang.TR: 'tr'>, <Lang.TR: 'tr'>, <Lang.EN: 'en'>)
>>> Lang.of("tr") is Lang.TR, Lang.TR == "tr"
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum


class Lang(str, Enum):
    """The languages every text exists in (a ``str`` enum: ``Lang.TR == "tr"``)."""

    EN = "en"
    TR = "tr"

    @property
    def label(self) -> str:
        """The language's own name, for the switch."""
        return {"en": "English", "tr": "Türkçe"}[self.value]

    @classmethod
    def of(cls, lang: Lang | str) -> Lang:
        """``lang`` as a :class:`Lang` (a code such as ``"tr"`` is accepted)."""
        return cls(lang)

    @classmethod
    def pick(cls, query: str | None, accept_language: str | None = None) -> Lang:
        """``?lang=`` when it names a language, else Turkish when the browser
        asks for it first among ours (Accept-Language), else English."""
        if query and query.lower()[:2] in {lang.value for lang in cls}:
            return cls(query.lower()[:2])
        for part in (accept_language or "").split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in {lang.value for lang in cls}:
                return cls(code)
        return cls.EN


def fill(table: Mapping[str, tuple[str, str]], key: str, lang: Lang | str = Lang.EN, **fields: object) -> str:
    """The text ``key`` of ``table`` (key -> (English, Turkish)) in ``lang``,
    its ``{fields}`` filled: every module's words are looked up this one way.

    >>> fill({"hi": ("Hello {name}.", "Merhaba {name}.")}, "hi", Lang.TR, name="Ayşe")
    'Merhaba Ayşe.'
    """
    en, tr = table[key]
    return (tr if Lang.of(lang) is Lang.TR else en).format(**fields)


__all__ = ["Lang", "fill"]
