// --blk-make-persistent refuses IR that Sema and IRGen do not make: a
// persistent func needs a one-axis `blk.grid` (an internal error, not a
// user's mistake: Sema reports those, tests/lit/sema/fail_sema_persistent.blk).
// RUN: %blk-opt %s -blk-make-persistent -split-input-file -verify-diagnostics -o /dev/null

// expected-error@+1 {{internal compiler error (blk-make-persistent): a persistent func needs `blk.grid` and a body of one block}}
func.func @no_grid(%x: !blk.ptr<f32>) attributes {blk.persistent} {
  return
}

// -----

// expected-error@+1 {{internal compiler error (blk-make-persistent): `blk.grid` is not one axis}}
func.func @two_axes(%x: !blk.ptr<f32>)
    attributes {blk.persistent, blk.grid = "[{\"int\": 4}, {\"int\": 2}]"} {
  return
}

// -----

// expected-error@+1 {{internal compiler error (blk-make-persistent): `blk.grid`: unknown op `pow`}}
func.func @bad_node(%x: !blk.ptr<f32>)
    attributes {blk.persistent, blk.grid = "[{\"op\": \"pow\", \"args\": [{\"int\": 4}, {\"int\": 2}]}]"} {
  return
}

// -----

// expected-error@+1 {{internal compiler error (blk-make-persistent): `blk.grid`: parameter 3 out of range}}
func.func @bad_param(%x: !blk.ptr<f32>, %n: i32)
    attributes {blk.persistent, blk.grid = "[{\"param\": 3}]"} {
  return
}
