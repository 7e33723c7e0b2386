// Shared-memory buffers in the interpreter (kernels of
// codegen/local-memory.mlir): a tile through a swizzled buffer comes back
// unchanged, and a ring's slots are separate: a store through
// memdesc_index changes that slot of the buffer only.
// RUN: %blkc run %S/../codegen/local-memory.mlir -k stage__w4 --grid 1 --arg x=rand:f32:2048 --arg out=zeros:f32:2048 --out x=%t.x --out out=%t.out
// RUN: cmp %t.x %t.out
// RUN: %blkc run %S/../codegen/local-memory.mlir -k ring --grid 1 --arg x=iota:f32:8 --arg out=zeros:f32:16 --print out | FileCheck %s --check-prefix=RING
// RING: out = [0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0]

// What the interpreter refuses, with the op's position: a buffer carried
// through a loop (the interpreter would copy it), a ring slot out of range.
// RUN: not %blkc run %S/Inputs/local-memory-errors.mlir -k carried --grid 1 --arg x=iota:f32:8 --arg n=2 2>&1 | FileCheck %s --check-prefix=CARRIED
// CARRIED: local-memory-errors.mlir:14:5: error: the interpreter supports shared-memory buffers only as used directly (not carried through loops or branches) in kernel `carried`, program (0,0,0){{$}}
// RUN: not %blkc run %S/Inputs/local-memory-errors.mlir -k bad_slot --grid 1 --arg x=iota:f32:8 --arg k=2 2>&1 | FileCheck %s --check-prefix=SLOT
// SLOT: local-memory-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: shared-memory slot 2 of a ring of 2 is out of range in kernel `bad_slot`, program (0,0,0){{$}}
