"""Dice sources and game codes (lib/catan/dice.py).

- The hardware mapping is exactly uniform: 42 of the 252 accepted byte values per face,
  bytes 252..255 rejected; HardwareDice fed every byte value equally gives equal counts.
- Chi-square over long runs of HardwareDice (real os.urandom) and SeededDice, with a
  threshold whose false alarm probability is below 1e-6.
- SeededDice: same seed and key, same face; a pinned golden sequence, also written to
  host_tests/mp/golden_dice.py and asserted under MicroPython (cross-runtime identity).
- Game codes: round trip, alphabet, check symbol, forgiving input.
"""

import math
import os
import random
import runpy
from pathlib import Path

import pytest

from catan.dice import (CODE_ALPHABET, DiceExhausted, HardwareDice, ScriptedDice, SeededDice, code_to_seed,
                        face_of_byte, random_seed, seed_to_code)

SEED_BITS = 25
THROWS = 60_000
# P(chi2 with 5 degrees of freedom > 40) = 1.5e-7: a fair source fails about once in
# seven million runs, so the test is not flaky; one face 7% too frequent (700 extra in
# 60,000 throws) gives a statistic near 59 and fails it.
CHI2_LIMIT = 40.0

# The first 30 faces of SeededDice(12345), keys 0..29: computed once and pinned.
GOLDEN_12345 = [1, 3, 3, 5, 1, 0, 0, 4, 2, 4, 1, 3, 4, 1, 4, 2, 5, 5, 3, 3, 2, 1, 5, 4, 4, 3, 3, 5, 2, 5]
GOLDEN_FILE = Path(__file__).parent / "mp" / "golden_dice.py"


def chi2_sf_5(x):
    """P(X > x) for a chi-square variable with 5 degrees of freedom (closed form)."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def chi2(counts):
    n = sum(counts)
    e = n / len(counts)
    return sum((c - e) ** 2 / e for c in counts)


# ----------------------------------------------------------------- hardware mapping

def test_byte_mapping_is_exactly_uniform():
    counts = [0] * 6
    rejected = []
    for byte in range(256):
        f = face_of_byte(byte)
        if f < 0:
            rejected.append(byte)
        else:
            assert 0 <= f <= 5
            counts[f] += 1
    assert counts == [42] * 6
    assert rejected == [252, 253, 254, 255]


class EveryByte:
    """A fake urandom: each block of 256 bytes is every byte value once, shuffled."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)
        self.buf = b""
        self.given = 0

    def __call__(self, n):
        while len(self.buf) < n:
            block = list(range(256))
            self.rng.shuffle(block)
            self.buf += bytes(block)
        out, self.buf = self.buf[:n], self.buf[n:]
        self.given += n
        return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hardware_dice_given_every_byte_equally_gives_equal_faces(seed):
    fake = EveryByte(seed)
    d = HardwareDice(fake)
    blocks = 50
    counts = [0] * 6
    for _ in range(252 * blocks):  # exactly the accepted bytes of 50 blocks of 256
        counts[d.face()] += 1
    assert counts == [42 * blocks] * 6
    assert fake.given <= 256 * (blocks + 1)


def test_hardware_dice_skips_rejected_bytes():
    d = HardwareDice(lambda n: bytes([252, 253, 254, 255, 7] * 4)[:n])
    assert d.face() == 7 % 6
    assert d.face() == 7 % 6  # the next accepted byte, after four rejected ones again


def test_chi2_threshold_is_below_one_in_a_million():
    assert chi2_sf_5(CHI2_LIMIT) < 1e-6
    assert abs(chi2_sf_5(11.0705) - 0.05) < 1e-4  # the textbook 5% point


def test_chi2_of_hardware_dice_with_real_urandom():
    d = HardwareDice()
    counts = [0] * 6
    for _ in range(THROWS):
        counts[d.face()] += 1
    assert chi2(counts) < CHI2_LIMIT, counts


def test_hardware_dice_uses_os_urandom_by_default(monkeypatch):
    calls = []

    def fake(n):
        calls.append(n)
        return bytes([5]) * n
    monkeypatch.setattr(os, "urandom", fake)
    assert HardwareDice().face() == 5
    assert calls


# --------------------------------------------------------------------- seeded dice

def test_chi2_of_seeded_dice_consecutive_keys():
    d = SeededDice(12345)
    counts = [0] * 6
    for k in range(THROWS):
        counts[d.face(k)] += 1
    assert chi2(counts) < CHI2_LIMIT, counts


def test_chi2_of_seeded_dice_as_games_throw_them():
    """Keys as the game makes them, (turn * 3 + roll) * 8 + die, over many seeds."""
    counts = [0] * 6
    per_die = [[0] * 6 for _ in range(6)]
    throws = 0
    seed = 0
    while throws < THROWS:
        d = SeededDice(seed * 2654435761 % (1 << SEED_BITS))
        for turn in range(15):
            for roll in range(3):
                for die in range(6):
                    f = d.face((turn * 3 + roll) * 8 + die)
                    counts[f] += 1
                    per_die[die][f] += 1
                    throws += 1
        seed += 1
    assert chi2(counts) < CHI2_LIMIT, counts
    for die in range(6):
        assert chi2(per_die[die]) < CHI2_LIMIT, (die, per_die[die])


def test_seeded_dice_same_seed_and_key_same_face_in_any_order():
    a, b = SeededDice(777), SeededDice(777)
    keys = list(range(500))
    first = [a.face(k) for k in keys]
    random.Random(1).shuffle(keys)
    second = {k: b.face(k) for k in keys}
    assert first == [second[k] for k in range(500)]
    assert [a.face(k) for k in range(500)] == first  # asking again changes nothing


def test_seeded_dice_different_seeds_give_different_sequences():
    seqs = {}
    for seed in list(range(300)) + [(1 << SEED_BITS) - 1 - s for s in range(100)]:
        seqs[seed] = tuple(SeededDice(seed).face(k) for k in range(30))
    assert len(set(seqs.values())) == len(seqs)


def test_seeded_dice_golden_sequence():
    assert [SeededDice(12345).face(k) for k in range(30)] == GOLDEN_12345


def test_golden_file_for_micropython_matches():
    golden = runpy.run_path(str(GOLDEN_FILE))["GOLDEN"]
    assert sorted(golden) == [1, 12345, (1 << SEED_BITS) - 1]
    assert golden[12345] == GOLDEN_12345
    for seed, faces in golden.items():
        assert len(faces) == 30
        assert [SeededDice(seed).face(k) for k in range(30)] == faces, seed


def test_scripted_dice():
    d = ScriptedDice([0, 5, 3])
    assert [d.face(9), d.face(), d.face(4)] == [0, 5, 3]
    with pytest.raises(DiceExhausted):  # its own error, not a ValueError
        d.face()


def test_random_seed_is_25_bits():
    assert random_seed(lambda n: b"\xff" * n) == (1 << SEED_BITS) - 1
    assert random_seed(lambda n: b"\x00" * n) == 0
    for _ in range(200):
        assert 0 <= random_seed() < 1 << SEED_BITS


# ----------------------------------------------------------------------- game codes

SAMPLE_SEEDS = ([0, 1, 31, 32, 12345, (1 << SEED_BITS) - 1, (1 << SEED_BITS) - 2]
                + random.Random(2024).sample(range(1 << SEED_BITS), 400))


def test_codes_round_trip_and_use_the_alphabet():
    assert len(CODE_ALPHABET) == 32 and len(set(CODE_ALPHABET)) == 32
    assert not set("ILOU") & set(CODE_ALPHABET)
    for seed in SAMPLE_SEEDS:
        code = seed_to_code(seed)
        assert len(code) == 6 and set(code) <= set(CODE_ALPHABET), code
        assert code_to_seed(code) == seed


def test_codes_are_distinct():
    codes = [seed_to_code(s) for s in range(5000)]
    assert len(set(codes)) == len(codes)


def seed_of_data(data5):
    """The seed whose code starts with these five data characters."""
    seed = 0
    for ch in data5:
        seed = seed << 5 | CODE_ALPHABET.index(ch)
    return seed


def test_code_rejects_zero_mistyped_as_z():
    """The smallest case of a single mistyped character that goes unnoticed: 0 and Z are
    the digits 0 and 31, and the check symbol is a weighted sum mod 31."""
    assert seed_to_code(0) == "000000"
    with pytest.raises(ValueError):
        code_to_seed("Z00000")  # seed 0's code with its first character mistyped
    z = seed_to_code(seed_of_data("Z0000"))
    with pytest.raises(ValueError):
        code_to_seed("0" + z[1:])  # and the other way round


def test_code_rejects_every_single_mistyped_character():
    misses = []
    for seed in SAMPLE_SEEDS:
        code = seed_to_code(seed)
        for pos in range(6):
            for ch in CODE_ALPHABET:
                if ch == code[pos]:
                    continue
                typo = code[:pos] + ch + code[pos + 1:]
                try:
                    got = code_to_seed(typo)
                except ValueError as e:
                    assert str(e)
                    continue
                misses.append((code, typo, got))
    assert not misses, "%d single typos accepted, e.g. %s" % (len(misses), misses[:5])


def test_code_rejects_characters_outside_the_alphabet_and_wrong_lengths():
    code = seed_to_code(12345)
    for bad in ("U", "!", "#", "?"):
        with pytest.raises(ValueError):
            code_to_seed(bad + code[1:])
    for text in ("", code[:5], code + "0", code + code):
        with pytest.raises(ValueError):
            code_to_seed(text)


def test_code_input_is_forgiving():
    # Data characters 0 1 0 1 0: a code with zeros and ones to misread.
    seed = seed_of_data("01010")
    code = seed_to_code(seed)
    assert code[:5] == "01010"
    assert code_to_seed(code.lower()) == seed
    assert code_to_seed(code[:3] + "-" + code[3:]) == seed
    assert code_to_seed(" " + code[:2] + " " + code[2:4] + " - " + code[4:] + " ") == seed
    assert code_to_seed("OIOLo" + code[5]) == seed
    assert code_to_seed("oiOlO" + code[5].lower()) == seed
    for seed in SAMPLE_SEEDS[:50]:
        code = seed_to_code(seed)
        assert code_to_seed(code.lower().replace("0", "o").replace("1", "l")) == seed
        assert code_to_seed(code.replace("0", "O").replace("1", "I")) == seed
