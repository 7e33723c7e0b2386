// --blk-make-persistent on hand-written blk IR (blk/Support/Persistent.h):
// a func marked `blk.persistent` gets its body in a loop over the programs
// of its one-axis `blk.grid`, the count computed from the arguments in i64
// (unsigned parameters zero-extended, signed ones sign-extended) as the
// runtime computes the launch; in the loop program_id(0) is the induction
// variable and num_programs(0) the count; axis 1 is left alone; a func
// without the mark is unchanged.
// RUN: %blk-opt %s -blk-make-persistent -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @tiles(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !blk.ptr<f32>, %[[M:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32
// CHECK: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[C64:.*]] = arith.constant 64 : i64
// CHECK: %[[TM:.*]] = arith.ceildivsi %[[M64]], %[[C64]] : i64
// CHECK: %[[N64:.*]] = arith.extui %[[N]] : i32 to i64
// CHECK: %[[C128:.*]] = arith.constant 128 : i64
// CHECK: %[[TN:.*]] = arith.ceildivsi %[[N64]], %[[C128]] : i64
// CHECK: %[[T:.*]] = arith.muli %[[TM]], %[[TN]] : i64
// CHECK: %[[COUNT:.*]] = arith.trunci %[[T]] : i64 to i32
// CHECK: %[[FIRST:.*]] = blk.program_id 0
// CHECK: %[[STEP:.*]] = blk.num_programs 0
// CHECK: scf.for %[[PID:.*]] = %[[FIRST]] to %[[COUNT]] step %[[STEP]] : i32 {
// CHECK-NOT: blk.program_id 0
// CHECK-NOT: blk.num_programs 0
// CHECK: %[[Y:.*]] = blk.program_id 1
// CHECK: arith.addi %[[PID]], %[[COUNT]] : i32
// CHECK: arith.addi {{.*}}, %[[Y]] : i32
// CHECK: blk.store
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @tiles(%x: !blk.ptr<f32>, %m: i32, %n: i32)
    attributes {blk.persistent, blk.param_types = ["*f32", "i32", "u32"],
                blk.grid = "[{\"op\": \"mul\", \"args\": [{\"op\": \"cdiv\", \"args\": [{\"param\": 1}, {\"int\": 64}]}, {\"op\": \"cdiv\", \"args\": [{\"param\": 2}, {\"int\": 128}]}]}]"} {
  %pid = blk.program_id 0
  %np = blk.num_programs 0
  %y = blk.program_id 1
  %s = arith.addi %pid, %np : i32
  %t = arith.addi %s, %y : i32
  %p = blk.addptr %x, %t : !blk.ptr<f32>, i32
  %v = arith.constant 1.0 : f32
  blk.store %p, %v : !blk.ptr<f32>
  return
}

// -----

// Every other node of the manifest form: min, max, div, mod, sub, neg.
// CHECK-LABEL: func.func @ops(
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: arith.divsi
// CHECK: arith.remsi
// CHECK: arith.subi
// CHECK: arith.subi
// CHECK: arith.trunci
// CHECK: scf.for
func.func @ops(%x: !blk.ptr<f32>, %n: i32)
    attributes {blk.persistent, blk.param_types = ["*f32", "i32"],
                blk.grid = "[{\"op\": \"neg\", \"args\": [{\"op\": \"sub\", \"args\": [{\"op\": \"mod\", \"args\": [{\"op\": \"div\", \"args\": [{\"op\": \"max\", \"args\": [{\"op\": \"min\", \"args\": [{\"param\": 1}, {\"int\": 132}]}, {\"int\": 1}]}, {\"int\": 2}]}, {\"int\": 7}]}, {\"int\": 9}]}]}]"} {
  %pid = blk.program_id 0
  %p = blk.addptr %x, %pid : !blk.ptr<f32>, i32
  %v = arith.constant 1.0 : f32
  blk.store %p, %v : !blk.ptr<f32>
  return
}

// -----

// No `blk.persistent`: unchanged.
// CHECK-LABEL: func.func @plain(
// CHECK-NEXT: blk.program_id 0
// CHECK-NOT: scf.for
func.func @plain(%x: !blk.ptr<f32>)
    attributes {blk.grid = "[{\"int\": 4}]"} {
  %pid = blk.program_id 0
  %p = blk.addptr %x, %pid : !blk.ptr<f32>, i32
  %v = arith.constant 1.0 : f32
  blk.store %p, %v : !blk.ptr<f32>
  return
}
