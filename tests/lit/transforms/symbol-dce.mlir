// symbol-dce drops private functions nothing calls (e.g. after inlining);
// kernels are public and stay.
// RUN: %blk-opt %s -symbol-dce -split-input-file | FileCheck %s

// CHECK-NOT: func.func private @unused
// CHECK: func.func @kernel
func.func private @unused(%x: i32) -> i32 {
  %p = blk.program_id 0
  return %p : i32
}

func.func @kernel() attributes {blk.kernel = "kernel"} {
  return
}
