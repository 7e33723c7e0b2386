# Writes a variant of samples/attention.blk whose causal programs walk the
# grid in groups of G heads, heaviest row blocks first across the group:
# the launch order (program_id(0) fastest) becomes, for each group of G
# heads, the last row block of every head of the group, then the one
# before, and so on. The sample itself goes heaviest first within one head
# only, so the heaviest row block of each head still starts late in the
# launch; a greedy list-scheduling model (one program per slot, time
# proportional to the row block's work, programs started in launch order)
# puts that at 6.9 % over the ideal for 256 x 64 tiles at N = 4096,
# Z * H = 128 on 132 SMs, 3.5 % for 128 x 128, and G = 8 at 1.6 % and 0 %
# (bench/NOTES.md, session 24). A group of G heads keeps the programs that
# run at once on few heads, so they share K and V in L2 as now.
#   python3 bench/attention/make_order_variant.py OUT.blk [G]   (G: 8)
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SAMPLE_ROW_BLOCK = """fn row_block(const CAUSAL: bool) -> i32 {
    if CAUSAL {
        return num_programs(0) - 1 - program_id(0);
    }
    return program_id(0);
}
"""

GROUPED = """// This program's place in the launch order: the causal grid in groups of
// G heads (the last group may hold fewer), each group's row blocks
// heaviest first, the group's heads side by side.
fn launch_index() -> i32 {
    return program_id(0) + program_id(1) * num_programs(0);
}

fn launch_group() -> i32 {
    return launch_index() / (G_HEADS * num_programs(0));
}

fn index_in_group() -> i32 {
    return launch_index() - launch_group() * G_HEADS * num_programs(0);
}

fn heads_in_group() -> i32 {
    return min(G_HEADS, num_programs(1) - launch_group() * G_HEADS);
}

fn row_block(const CAUSAL: bool) -> i32 {
    if CAUSAL {
        return num_programs(0) - 1 - index_in_group() / heads_in_group();
    }
    return program_id(0);
}

// The (batch, head) index of this program, in the same order.
fn head_index(const CAUSAL: bool) -> i32 {
    if CAUSAL {
        return launch_group() * G_HEADS + index_in_group() % heads_in_group();
    }
    return program_id(1);
}
"""

USES = "    let start_m = row_block(CAUSAL);\n    let off_hz = program_id(1);\n"


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: make_order_variant.py OUT.blk [G]", file=sys.stderr)
        return 2
    try:
        group = int(sys.argv[2]) if len(sys.argv) == 3 else 8
    except ValueError:
        group = 0
    if group < 1:
        print("make_order_variant.py: G must be an integer, at least 1", file=sys.stderr)
        return 2
    s = open(os.path.join(ROOT, 'samples', 'attention.blk')).read()
    if s.count(SAMPLE_ROW_BLOCK) != 1 or s.count(USES) != 3:
        print("make_order_variant.py: samples/attention.blk no longer has the row_block "
              "function and its three uses this script rewrites", file=sys.stderr)
        return 1
    s = s.replace(SAMPLE_ROW_BLOCK, GROUPED.replace("G_HEADS", str(group)))
    s = s.replace(USES, USES.replace("program_id(1)", "head_index(CAUSAL)"))
    try:
        with open(sys.argv[1], 'w') as out:
            out.write(s)
    except OSError as e:
        print(f"make_order_variant.py: cannot write {sys.argv[1]}: {e.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
