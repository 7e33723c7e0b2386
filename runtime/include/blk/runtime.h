//===- runtime.h - libblkrt, the blk runtime (umbrella header) ---*- C++
//-*-===//
//
//   blk::Context ctx;                                    // device 0
//   blk::Module mod = ctx.load("double.fatbin");
//   blk::DeviceBuffer<float> x(ctx, n), out(ctx, n);
//   mod.kernel("double_grid").with("BLOCK", 1024).launch(x, out, n);
//
// Compiles with -std=c++17 against runtime/include alone (no CUDA headers).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Context.h"
#include "blk/runtime/DeviceBuffer.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/Launch.h"
#include "blk/runtime/Manifest.h"
#include "blk/runtime/Module.h"
#include "blk/runtime/TensorMap.h"
#include "blk/runtime/Tuning.h"
#include "blk/runtime/Types.h"
