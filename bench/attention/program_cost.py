"""What one program of a forward entry costs besides its blocks: reads the
ncu outputs of program_cost_on_device.sh (one launch of one non-causal
entry at several sequence lengths N), takes each launch's active cycles
per program (sm__cycles_active.avg x SMs / programs) and fits
cycles = a * blocks + c over them, blocks = N / BN per program. Session
25 (bench/NOTES.md): a = 1,744 cycles per 64-column block and c = 8,152
per program for the 256 x 64 WS D = 64 entry on an H100.
  python3 bench/attention/program_cost.py NCU_OUTPUT...
"""
import re
import sys


def read(path):
    text = open(path).read()
    entry = re.search(r"^\s+(attention_fwd\w*)\s+\(\d+, \d+, \d+\)x", text, re.M)
    shape = re.search(r"^\S+ Z\d+ H\d+ N(\d+) D\d+", text, re.M)
    sms = re.search(r"^device: .*, (\d+) SMs", text, re.M)
    grid = re.search(r"launch__grid_size\s+([\d,]+)", text)
    active = re.search(r"sm__cycles_active\.avg\s+cycle\s+([\d,.]+)", text)
    missing = [name for name, m in (("the profiled entry", entry), ("a result line", shape),
                                    ("the device line", sms), ("launch__grid_size", grid),
                                    ("sm__cycles_active.avg", active)) if not m]
    if missing:
        raise ValueError(f"{path}: missing {', '.join(missing)}")
    name = entry.group(1)
    if "_CAUSAL_1_" in name:
        raise ValueError(f"{path}: {name} is causal: its programs differ in blocks; "
                         "profile the non-causal entry")
    bn = int(re.search(r"_BN_(\d+)_", name).group(1))
    n = int(shape.group(1))
    programs = int(grid.group(1).replace(",", ""))
    cycles = float(active.group(1).replace(",", "")) * int(sms.group(1)) / programs
    return name, n, n / bn, cycles


def main():
    if len(sys.argv) < 3:
        print("usage: program_cost.py NCU_OUTPUT NCU_OUTPUT...", file=sys.stderr)
        return 2
    try:
        points = [read(p) for p in sys.argv[1:]]
    except (OSError, ValueError) as e:
        print(f"program_cost.py: {e}", file=sys.stderr)
        return 1
    if len({p[0] for p in points}) != 1 or len({p[2] for p in points}) < 2:
        print("program_cost.py: needs one entry at two or more sequence lengths", file=sys.stderr)
        return 1
    xs, ys = [p[2] for p in points], [p[3] for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    c = my - a * mx
    print(points[0][0])
    for _, n, blocks, cycles in sorted(points, key=lambda p: p[1]):
        fit = a * blocks + c
        print(f"N={n:6d} blocks/program {blocks:5.0f} cycles/program {cycles:10.0f} "
              f"fit {fit:10.0f} ({(fit - cycles) / cycles * 100:+.1f} %)")
    print(f"per block {a:.0f} cycles, per program {c:.0f} cycles "
          f"({c / a:.1f} blocks' worth)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
