"""Dice sources: where the faces come from.

A game asks its source for one face at a time with ``source.face(key)``, where ``key``
names the throw: ``(turn * 3 + roll) * 8 + slot`` (the player's own turn number, the
roll 0..2 within the turn, the die 0..5). Sources that do not care ignore the key.

- ``HardwareDice``: ``os.urandom`` (on a Pico, the chip's random source), mapped to
  faces by rejection sampling, so every face has probability exactly 1/6.
- ``SeededDice``: the project's own generator, identical on CPython and MicroPython.
  Each throw is a hash of the seed and the key, so two players with the same game code
  see the same dice whenever they throw the same die at the same moment of the same
  turn (a "duplicate" challenge), whatever they chose earlier.
- ``ScriptedDice``: faces from a list, for tests (``DiceExhausted`` when they run out).
"""

import os

from catan import const

_ACCEPT = const(252)  # 252 = 6 * 42: bytes below it map to faces without bias

# Game codes: six characters from 32 that cannot be confused when typed or read aloud
# (no I, L, O, U). Six characters carry 30 bits; the last character is a check symbol.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CODE_DATA = const(5)  # data characters (25 bits of seed)


def face_of_byte(byte):
    """The face (0..5) for a uniformly random byte, or -1 when the byte is rejected."""
    if byte >= _ACCEPT:
        return -1
    return byte % 6


class HardwareDice:
    """Faces from ``os.urandom``: the hardware random source on the Pico."""

    def __init__(self, urandom=None):
        self._urandom = urandom or os.urandom
        self._pool = b""
        self._next = 0

    def face(self, key=0):
        while True:
            if self._next >= len(self._pool):
                self._pool = self._urandom(16)
                self._next = 0
            f = face_of_byte(self._pool[self._next])
            self._next += 1
            if f >= 0:
                return f


def hash32(x):
    """A 32-bit integer hash with good avalanche (Wellons' "lowbias32" constants): the dice's
    faces come from it (``SeededDice``)."""
    # On a 32-bit MicroPython the products are briefly big ints; a throw is rare enough
    # that this costs nothing worth saving, and the result is the same on every runtime.
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    return x ^ (x >> 16)


class SeededDice:
    """The project's own seeded dice: the same faces for the same seed on every runtime."""

    def __init__(self, seed):
        self.seed = seed

    def face(self, key=0):
        # Rejection sampling over the bytes of hash(seed, key, attempt).
        attempt = 0
        while True:
            h = hash32(self.seed ^ hash32((key << 4) | attempt))
            for _ in range(4):
                f = face_of_byte(h & 0xFF)
                if f >= 0:
                    return f
                h >>= 8
            attempt += 1


class DiceExhausted(Exception):
    """ScriptedDice were asked for more faces than their script holds."""


class ScriptedDice:
    """Faces from a list (or any iterable of 0..5), for tests; DiceExhausted when it runs out."""

    def __init__(self, faces):
        self._faces = iter(faces)

    def face(self, key=0):
        for f in self._faces:
            return f
        raise DiceExhausted("the scripted dice ran out of faces")


def _check_symbol(value):
    # A check character over the data: catches any single mistyped character.
    s = 0
    i = 1
    while value:
        s += (value & 31) * i
        value >>= 5
        i += 2
    return s & 31  # odd weights mod 32: any one changed character changes the sum


def seed_to_code(seed):
    """The six-character game code of a 25-bit seed, such as ``"7KQ2M-F"`` without the dash."""
    seed &= (1 << (5 * _CODE_DATA)) - 1
    out = ""
    v = seed
    for _ in range(_CODE_DATA):
        out = CODE_ALPHABET[v & 31] + out
        v >>= 5
    return out + CODE_ALPHABET[_check_symbol(seed)]


def code_to_seed(code):
    """The seed of a game code; ValueError with a reason when the code is not valid.

    Case, spaces and dashes are ignored; O reads as 0 and I or L as 1.
    """
    text = ""
    for ch in code.upper():
        if ch in " -":
            continue
        text += {"O": "0", "I": "1", "L": "1"}.get(ch, ch)
    if len(text) != _CODE_DATA + 1:
        raise ValueError("a game code has %d characters" % (_CODE_DATA + 1))
    seed = 0
    for ch in text[:_CODE_DATA]:
        i = CODE_ALPHABET.find(ch)
        if i < 0:
            raise ValueError("%s is not a game code character" % ch)
        seed = (seed << 5) | i
    if CODE_ALPHABET[_check_symbol(seed)] != text[-1]:
        raise ValueError("that game code has a typo")
    return seed


def random_seed(urandom=None):
    """A fresh 25-bit seed from the hardware random source."""
    b = (urandom or os.urandom)(4)
    return ((b[0] << 17) | (b[1] << 9) | (b[2] << 1) | (b[3] & 1)) & 0x1FFFFFF
