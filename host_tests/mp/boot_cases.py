"""The standing test of issue 14, shared by CPython (host_tests/test_boot_storage.py, with
Hypothesis) and MicroPython (mpt_boot_storage.py, seeded cases): whatever stands at a
storage file's name at boot (random bytes, a truncated record, an oversized file, a folder,
a record with a valid checksum and nonsense inside), the app boots to a working title
screen, reports the problem once, sets the thing aside, and the next save succeeds."""

import os

import store as flash
from catan.codec import pack_save
from catan.ui.app import HUMAN, App
from catan.ui.records import Settings, Stats
from fsutil import rm

KINDS = ("game", "settings", "stats", "high")  # "high": the high scores inside stats
HOWS = ("random", "truncated", "oversized", "folder", "nonsense")


def _good(kind, make_dice):
    # a valid payload of the kind, to truncate or to fill with nonsense
    if kind == "game":
        from catan.game import Game

        return pack_save(Game(1, 2, make_dice(None)), (HUMAN, 1))
    if kind == "settings":
        return Settings().dumps()
    s = Stats()
    s.add_one(50, 1)
    s.add_high(1, 50, "ABC")
    return s.dumps()


def put(root, kind, how, blob, make_dice):
    """Make ``root`` a save folder with ``how`` standing at ``kind``'s file name; ``blob``
    (bytes) is the randomness."""
    rm(root)
    os.mkdir(root)
    name = "stats" if kind == "high" else kind
    path = root + "/" + name
    if how == "folder":
        os.mkdir(path)
        with open(path + "/inside", "wb") as f:
            f.write(blob)
        return
    good = _good(kind, make_dice)
    if how == "random":
        data = blob
    elif how == "truncated":
        data = flash.pack(good)
        data = data[:len(blob) % len(data)]
    elif how == "oversized":
        data = flash.pack(good)
        data = data + b"\0" * (flash.LIMIT + 1 - len(data)) + blob
    else:  # nonsense with a valid checksum: the payload's bytes changed, the record intact
        data = bytearray(good)
        for i in range(0, len(blob) - 1, 2):
            if kind == "high":  # the high-score table sits near the end of stats
                at = len(data) - 26 - 1 - (blob[i] % 25)
            else:
                at = blob[i] % len(data)
            data[at] = blob[i + 1]
        if bytes(data) == good:
            data[len(data) // 2] ^= 0x55
        data = flash.pack(bytes(data))
    with open(path, "wb") as f:
        f.write(data)


def check(root, kind, canvas, make_dice, press):
    """Boot on ``root`` and check everything the standing test asks; ``press(app, key)``."""
    st = flash.Store(root)
    app = App(canvas, st, dice=make_dice)
    app.draw()
    screen = type(app.screen).__name__
    reported = screen == "Message"
    if reported:
        press(app, "a")
    assert type(app.screen).__name__ == "Title", type(app.screen).__name__
    app.draw()
    # set aside: the next boot is quiet (the problem is reported once)
    again = App(canvas, flash.Store(root), dice=make_dice)
    assert type(again.screen).__name__ == "Title", getattr(again.screen, "text", "")
    # the next save of each kind succeeds and reads back
    app.new_game(1, (HUMAN,))
    assert type(app.screen).__name__ == "Turn", type(app.screen).__name__
    app.save_settings()
    app.stats.add_high(1, 77, "XYZ")
    assert app.stats.save(app.store)
    back = flash.Store(root)
    assert back.read("game") == pack_save(app.game, app.levels)
    assert Settings.load(back).problem is None
    assert (77, "XYZ") in Stats.load(back).high[0]  # (nonsense may still be a valid score)
    assert back.take_problems() == []
    return reported
