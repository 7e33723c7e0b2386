"""fuzz/pipeline/runner.py's _entry: which GPU-IR entry a launch runs, given
the entries blkc wrote (the generic one, value variants `__v…`, and the
warp-specialised generic one, `…__ws`). Run by ctest (fuzz-runner-entry)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "fuzz", "pipeline"))
import runner  # noqa: E402


class Param:
    def __init__(self, value):
        self.value = value


class Kernel:
    def __init__(self, name, specialize, values):
        self.name, self.specialize, self.values = name, specialize, values

    def param(self, name):
        return Param(self.values[name])


def gpu_ir(*entries):
    return "\n".join("  func.func @%s(%%arg0: i32) {" % e for e in entries)


class EntryTest(unittest.TestCase):
    def test_variant_matching_the_classes(self):
        k = Kernel("k", ["m", "n"], {"m": 1, "n": 32})
        text = gpu_ir("k__w4", "k__w4__v1d", "k__w4__vdd")
        self.assertEqual(runner._entry(k, text), "k__w4__v1d")

    def test_generic_when_no_variant_matches(self):
        k = Kernel("k", ["m"], {"m": 17})
        self.assertEqual(runner._entry(k, gpu_ir("k__w4", "k__w4__vd")), "k__w4")

    def test_warp_specialised_generic_entry(self):
        # A `warp_specialize = true` config names its entries k__w8__ws and
        # k__w8__ws__v…: the first is the generic one.
        k = Kernel("k", ["n"], {"n": 64})
        text = gpu_ir("k__w8__ws", "k__w8__ws__vd")
        self.assertEqual(runner._entry(k, text), "k__w8__ws__vd")
        k = Kernel("k", ["n"], {"n": 65})
        self.assertEqual(runner._entry(k, text), "k__w8__ws")

    def test_kernel_name_without_specialize(self):
        k = Kernel("k", [], {})
        self.assertEqual(runner._entry(k, gpu_ir("k__w4")), "k")


if __name__ == "__main__":
    unittest.main()
