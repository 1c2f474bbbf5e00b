"""Filesystem helpers for the test scripts, plain MicroPython (and CPython): imported from
host_tests/mp, which is the script's own folder under both ports and on CPython's path."""

import os


def rm(path):
    """Remove a file or a folder, with what it holds; nothing if there is none."""
    try:
        names = os.listdir(path)
    except OSError:
        try:
            os.remove(path)
        except OSError:
            pass
        return
    for n in names:
        rm(path + "/" + n)
    os.rmdir(path)
