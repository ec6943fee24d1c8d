"""``okey-vision calibrate``: learn the player's own tile set from their corrections.

    okey-vision calibrate add PHOTO --tiles "r1 r2 ..."   # a photo's rack tiles, in rack order
    okey-vision calibrate fit                             # learn the set (at most 2 minutes)
    okey-vision calibrate show                            # what was learned, from how many tiles
    okey-vision calibrate reset [--forget]                # back to the shipped reader

Everything stays in the player's data folder (``$OKEY_VISION_DATA``, else
the user data directory): the tiles' crops and labels, never a whole photo.
"""

from __future__ import annotations

import argparse

from okey_vision.cli.common import add_lang
from okey_vision.lang import Lang

DESCRIPTION = """\
Learn your own tile set from your corrections. Every set has its own inks and
font (a navy blue read as black, an orange read as red); after a few photos
whose tiles you give, the reader knows your set. The shipped models stay as
they are: the calibration is a small file beside them, used only when it
reads real photos at least as well as the shipped reader.

  add PHOTO --tiles "r1 r2 ..."   store a photo's rack tiles (rows top to bottom,
                                  left to right along the rack), aligned with its reads
  fit                             learn your set from the stored tiles (at most 2 minutes)
  show                            what was learned, from how many tiles
  reset [--forget]                back to the shipped reader (--forget: delete the stored tiles too)

Stored in $OKEY_VISION_DATA, else your user data folder: each tile's small
picture and its name, never a whole photo; nothing is sent anywhere.
Exit status 2 when the tiles given cannot be aligned with the photo's reads
(fewer than half of them): nothing is stored then.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``calibrate`` subcommand's actions and options."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = DESCRIPTION
    add_lang(parser, "the lines printed")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="store a photo's rack tiles given in rack order")
    add.add_argument("photo", help="a rack photo (JPEG, PNG, ...)")
    add.add_argument("--tiles", required=True,
                     help='the rack\'s tiles in rack order, rows top to bottom, e.g. "r1 r2 r3 b7 fj"')
    fit = actions.add_parser("fit", help="learn the set from the stored tiles (at most 2 minutes)")
    show = actions.add_parser("show", help="what was learned, from how many tiles")
    reset = actions.add_parser("reset", help="back to the shipped reader")
    reset.add_argument("--forget", action="store_true", help="also delete the stored tiles")
    for action in (add, fit, show, reset):  # after the action word too: calibrate fit --lang tr
        add_lang(action, "the lines printed")


def run(args: argparse.Namespace) -> int:
    """Carry out the action; print its lines."""
    from okey_vision.calibrate.text import said
    from okey_vision.errors import require

    lang = Lang.of(getattr(args, "lang", Lang.EN))
    if args.action == "reset":  # needs no model: the file is removed
        from okey_vision.calibrate.learn import reset

        print("\n".join(reset(forget=args.forget, lang=lang)))
        return 0
    for module in ("numpy", "cv2"):
        require(module, "vision", "calibrating the reader")
    from okey_vision.calibrate import learn
    from okey_vision.calibrate.store import Store, photo_hash
    from okey_vision.errors import printable
    from okey_vision.tiles import parse_hand
    from okey_vision.vision.io import decode_image, read_photo_file
    from okey_vision.vision.reader import RackReader

    reader = RackReader()
    if args.action == "add":
        tiles = [t.name for t in parse_hand(args.tiles)]
        name = printable(str(args.photo))
        data, header = read_photo_file(args.photo)  # read once, bounded: decoded and hashed from the same bytes
        photo = decode_image(data, name, header=header)
        store = Store()
        notes = store.tidy()
        added = learn.add_photo(reader, store, photo.image, photo_hash(data), tiles)
        if added.refused:  # one error line, exit status 2 (cli.main): nothing was stored
            from okey_vision.cli.common import CliError

            raise CliError(added.line(name, lang))
        print("\n".join([*said(notes, lang), added.line(name, lang)]))
        return 0
    if args.action == "fit":
        print("\n".join(learn.learn(reader).lines(lang)))
        return 0
    print("\n".join(learn.show(reader=reader, lang=lang)))
    return 0
