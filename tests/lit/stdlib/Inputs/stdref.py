"""Shared helpers of the std.* checkers: run `blkc run`, read raw outputs,
compare against float64 references (python3 math) and a Philox 4x32-10
reference written from the Random123 paper (checked against its KAT)."""
import math
import os
import struct
import subprocess
import sys

M32 = 0xFFFFFFFF
# Random123's published known-answer vectors for philox4x32-10:
# (counter, key) -> output.
PHILOX_KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((M32, M32, M32, M32), (M32, M32), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def philox4x32(ctr, key, rounds=10):
    """Philox4x32-R: multipliers 0xD2511F53 / 0xCD9E8D57, Weyl key bumps."""
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for _ in range(rounds):
        p0 = 0xD2511F53 * c0
        p1 = 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & M32, p1 & M32, ((p0 >> 32) ^ c3 ^ k1) & M32, p0 & M32
        k0 = (k0 + 0x9E3779B9) & M32
        k1 = (k1 + 0xBB67AE85) & M32
    return c0, c1, c2, c3


for ctr, key, want in PHILOX_KAT:
    assert philox4x32(ctr, key) == want, "python Philox reference fails the KAT"


def f32(v):
    """v rounded to float32 (as a Python float)."""
    return struct.unpack("<f", struct.pack("<f", v))[0]


def uniform_f32(word):
    """Triton's uint_to_uniform_float of a u32 word, exactly: the word as an
    i32 x, -x - 1 when negative, to f32, times the f32 4.6566127342e-10 (a
    product of two f32s is exact in a double: one rounding, as in f32)."""
    x = word if word < 0x80000000 else 0xFFFFFFFF - word
    return f32(f32(float(x)) * f32(4.6566127342e-10))


def write(path, fmt, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read(path, fmt):
    data = open(path, "rb").read()
    size = struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (len(data) // size, fmt), data))


def blkc_run(blkc, src, kernel, args, outs, tmp, extra=()):
    """Runs `kernel` of `src`; `outs` maps buffer name -> struct format.
    Returns {name: values}."""
    cmd = [blkc, "run", src, "-k", kernel] + list(extra)
    for a in args:
        cmd += ["--arg", a]
    for name in outs:
        cmd += ["--out", "%s=%s" % (name, os.path.join(tmp, name))]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("blkc run failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout))
    return {name: read(os.path.join(tmp, name), fmt) for name, fmt in outs.items()}


class Checker:
    """Counts comparisons per name; prints `ok NAME N` or the first failures."""

    def __init__(self):
        self.failures = 0

    def close(self, got, want, rtol, atol):
        if isinstance(want, float) and math.isnan(want):
            return math.isnan(got)
        if isinstance(want, float) and math.isinf(want):
            return got == want
        if math.isnan(got) or math.isinf(got):
            return False
        return abs(got - want) <= atol + rtol * abs(want)

    def check(self, name, got, want, rtol=0.0, atol=0.0, inputs=None):
        assert len(got) == len(want), (name, len(got), len(want))
        bad = 0
        for k, (g, w) in enumerate(zip(got, want)):
            if not self.close(g, w, rtol, atol):
                bad += 1
                if bad <= 5:
                    where = "" if inputs is None else " input %r" % (inputs[k],)
                    print("FAIL %s[%d]%s: got %r want %r" % (name, k, where, g, w))
        if bad:
            self.failures += 1
            print("FAIL %s: %d of %d differ" % (name, bad, len(want)))
        else:
            print("ok %s %d" % (name, len(want)))

    def finish(self):
        sys.exit(1 if self.failures else 0)
