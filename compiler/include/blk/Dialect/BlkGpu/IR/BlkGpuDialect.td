//===- BlkGpuDialect.td - layout encodings for the GPU IR ---*- tablegen -*-===//
//
// The `blkgpu` dialect: layout encodings that the backend attaches to every
// tensor of the `blk` IR (as the RankedTensorType encoding) and the one op that
// moves data between layouts. See docs/architecture.md ("Backend").
//
// A *distributed* layout says which elements of a block each thread holds:
// `blocked` (the default: sizePerThread x threadsPerWarp x warpsPerCTA tiles,
// `order` fastest-varying first) and `slice` (the parent layout with one dim
// removed: results of reductions, inputs of expand_dims). `shared` describes a
// block in shared memory (swizzle parameters). An MMA layout is another
// distributed layout: it adds a case to Layout.cpp's coordinate functions.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_IR_BLKGPUDIALECT_TD
#define BLK_DIALECT_BLKGPU_IR_BLKGPUDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def BlkGpu_Dialect : Dialect {
  let name = "blkgpu";
  let cppNamespace = "::blk::gpu";
  let summary = "layout-annotated GPU IR of blk";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // `blkgpu.num_warps` on a func marks it as blkgpu IR: the verifier then
  // checks that every tensor has a legal layout (Verifier.cpp).
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The func attribute that marks blkgpu IR (the warps its layouts span).
    static constexpr ::llvm::StringLiteral kNumWarpsAttr = "blkgpu.num_warps";
  }];
}

class BlkGpu_Attr<string name, string attrMnemonic>
    : AttrDef<BlkGpu_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def BlkGpu_BlockedEncodingAttr : BlkGpu_Attr<"BlockedEncoding", "blocked"> {
  let summary = "each thread holds sizePerThread contiguous elements per dim";
  let description = [{
    A tile of sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d] elements
    per dimension is repeated over the block (or wraps, replicating elements,
    when the block is smaller). `order[0]` is the fastest-varying dimension
    (lanes and warps are numbered along `order`).
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
    `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
    `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
    `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def BlkGpu_SliceEncodingAttr : BlkGpu_Attr<"SliceEncoding", "slice"> {
  let summary = "the parent layout with dimension `dim` removed";
  let description = [{
    Elements of a rank-(r-1) block are held as the parent would hold the
    rank-r block with a dimension of size 1 inserted at `dim`.
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
}

def BlkGpu_SharedEncodingAttr : BlkGpu_Attr<"SharedEncoding", "shared"> {
  let summary = "a block in shared memory: rows padded or XOR-swizzled";
  let description = [{
    Dim `order[0]` is the row (contiguous); the other dims, row-major, number
    the rows. Each row is followed by `pad` elements of padding, and its
    `vec`-element groups are XOR-ed with (row / perPhase) % maxPhase,
    spreading a column across banks (maxPhase = 1: no swizzle).

    `block` > 0 (elements, dividing the row) cuts the rows into column
    blocks of that width stored one after another, each a [rows x block]
    array swizzled as above: the NVMMA layout wgmma and TMA read, e.g. for
    f16 `vec = 8, perPhase = 1, maxPhase = 8, block = 64` is the 128-byte
    swizzle (16-byte chunk c of row r at chunk c ^ (r mod 8)). 0: one block.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, ArrayRefParameter<"unsigned">:$order,
                        "unsigned":$pad, DefaultValuedParameter<"unsigned", "0">:$block);
  let assemblyFormat = [{
    `<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=` $maxPhase
    `,` `order` `=` `[` $order `]` `,` `pad` `=` $pad (`,` `block` `=` $block^)? `}` `>`
  }];
}

def BlkGpu_MmaEncodingAttr : BlkGpu_Attr<"MmaEncoding", "mma"> {
  let summary = "the accumulator of tensor-core dots (mma.sync v2, wgmma v3)";
  let description = [{
    Each warp holds 16 x `instrN` tiles of the accumulator in the register
    order of the instruction (LinearLayout.h has the bases): a lane holds
    column pairs (lane % 4) * 2 + {0, 1} of rows lane / 4 and lane / 4 + 8 of
    each 16 x 8 fragment. Warps tile `warpsPerCTA` = [along M, along N],
    numbered along M first; version 3 (wgmma m64nNk16) needs warps along M
    in groups of 4 (a warpgroup covers 64 rows). Tiles repeat over the block.
  }];
  let parameters = (ins "unsigned":$version, ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        "unsigned":$instrN);
  let assemblyFormat = [{
    `<` `{` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
    `instrN` `=` $instrN `}` `>`
  }];
  let genVerifyDecl = 1;
}

def BlkGpu_MemDescType : TypeDef<BlkGpu_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "a buffer in shared memory holding one block";
  let description = [{
    `!blkgpu.memdesc<64x64xf16, #blkgpu.shared<…>>`: a block of the given
    shape and element type stored in the `#blkgpu.shared` layout, whose
    `order` covers the trailing dims; a leading dim beyond them indexes the
    buffers of a ring (`memdesc_index`). Where it lives is decided by
    blkgpu-allocate-shared.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "SharedEncodingAttr":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Elements of the whole buffer (all of a ring's slots).
    int64_t getNumElements() const;
    /// A one-slot 2-D buffer read as its transpose (memdesc_trans): shape
    /// and order reversed, the rest of the layout kept; null otherwise.
    MemDescType getTransposed() const;
  }];
}

def BlkGpu_MemDesc : Type<CPred<"::mlir::isa<::blk::gpu::MemDescType>($_self)">,
                          "shared-memory buffer", "::blk::gpu::MemDescType">;

def BlkGpu_LocalAllocOp : Op<BlkGpu_Dialect, "local_alloc", [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "a shared-memory buffer, optionally holding a block";
  let description = [{
    The buffer lives from here to its last use (through any
    memdesc_index of it). With an operand, each thread stores its elements.
  }];
  let arguments = (ins Optional<AnyRankedTensor>:$src);
  let results = (outs BlkGpu_MemDesc:$result);
  let assemblyFormat = "($src^ `:` type($src))? attr-dict `->` qualified(type($result))";
  let hasVerifier = 1;
}

def BlkGpu_LocalStoreOp : Op<BlkGpu_Dialect, "local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a block into a shared-memory buffer";
  let arguments = (ins AnyRankedTensor:$src, BlkGpu_MemDesc:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def BlkGpu_LocalLoadOp : Op<BlkGpu_Dialect, "local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "load a block from a shared-memory buffer in a register layout";
  let arguments = (ins BlkGpu_MemDesc:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def BlkGpu_MemDescIndexOp : Op<BlkGpu_Dialect, "memdesc_index", [Pure]> {
  let summary = "buffer `index` of a ring of buffers (the leading dim)";
  let arguments = (ins BlkGpu_MemDesc:$src, I32:$index);
  let results = (outs BlkGpu_MemDesc:$result);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def BlkGpu_MemDescTransOp : Op<BlkGpu_Dialect, "memdesc_trans", [Pure]> {
  let summary = "the transposed view of a 2-D buffer (the same bytes)";
  let description = [{
    The buffer `src` (one block or one ring slot) read as its transpose:
    the result's shape and `order` are the source's reversed, its swizzle,
    block and padding the same, so each element keeps its address. A tile
    two wgmmas read, one directly and one through `trans`, is stored once
    (blkgpu-accelerate-matmul) and its load can be prefetched
    (blkgpu-pipeline-loops).
  }];
  let arguments = (ins BlkGpu_MemDesc:$src);
  let results = (outs BlkGpu_MemDesc:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def BlkGpu_BarrierOp : Op<BlkGpu_Dialect, "barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "bar.sync: every earlier shared-memory access of the program is done";
  let description = [{
    Inserted by blkgpu-insert-barriers before a shared-memory user whose
    writes could overlap accesses still in flight.
  }];
  let assemblyFormat = "attr-dict";
}

def BlkGpu_WarpGroupDotOp : Op<BlkGpu_Dialect, "wgmma", [MemoryEffects<[MemRead]>]> {
  let summary = "acc + a x b on Hopper tensor cores, operands in shared memory";
  let description = [{
    `a` [M, K] and `b` [K, N] are NVMMA-swizzled buffers (#blkgpu.shared with
    16-byte groups; the row of either may be its K or its M / N dim: the
    descriptor says which); `acc` and the result are [M, N] in a version-3
    #blkgpu.mma layout. f16 and bf16 operands accumulate in f32 exactly;
    f32 ones are read as tf32 (the dot allowed it); i8 ones accumulate in
    i32. tf32 and i8 operands must be K-major, since wgmma transposes only
    16-bit operands. Lowered to wgmma.mma_async per 32-byte K step (k16;
    k8 for tf32, k32 for i8) per warpgroup, then a commit and a wait until at most `pending` groups of
    this warpgroup's wgmmas are in flight: 0 (the default) is synchronous;
    1 (in a pipelined loop, blkgpu-pipeline-loops) leaves this one running
    while the next iteration starts, and blkgpu.wgmma_wait (before the
    accumulator's first reader in the next iteration, if that is not this
    wgmma, and after the loop) completes it; -1 emits no wait at all: a
    blkgpu.wgmma_wait on the result, before anything reads it, completes it
    (blkgpu-defer-wgmma-waits). `a` may instead be a 16-bit block in registers, in
    the #blkgpu.mma layout of the same warps with one warpgroup column
    (blkgpu-wgmma-register-a: attention's P, the accumulator of the first
    dot cast to f16): each thread packs its own elements into wgmma's A
    fragment, nothing moves.
  }];
  let arguments = (ins AnyTypeOf<[BlkGpu_MemDesc, AnyRankedTensor]>:$a, BlkGpu_MemDesc:$b,
                       AnyRankedTensor:$acc, DefaultValuedAttr<I32Attr, "0">:$pending);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    type($acc) `->` type($result)
  }];
  let hasVerifier = 1;
}

def BlkGpu_MmaSyncOp : Op<BlkGpu_Dialect, "mma_sync", [MemoryEffects<[MemRead]>]> {
  let summary = "acc + a x b on Ampere-style tensor cores (mma.sync), operands in shared memory";
  let description = [{
    The same operands as blkgpu.wgmma's shared-memory form (`a` [M, K] and
    `b` [K, N] in NVMMA-swizzled buffers, either K-major or, for 16-bit
    types, M / N-major) with `acc` and the result in a version-2
    #blkgpu.mma layout (instrN 8). f16 and bf16 accumulate in f32, f32 is
    read as tf32, i8 accumulates in i32; tf32 and i8 operands must be
    K-major (ldmatrix transposes only 16-bit elements). Synchronous: each
    warp loads its fragments with ldmatrix (.trans for an MN-major 16-bit
    operand) and runs mma.sync m16n8k16 (k8 for tf32, k32 for i8) per
    16 x 8 tile of its accumulator. The tensor cores of sm_80, sm_86, sm_89
    and sm_90 without `a`; made by blkgpu-accelerate-matmul there. `a` may
    instead be a 16-bit block in registers in the version-2 #blkgpu.mma
    layout of the same warps, all along M (blkgpu-wgmma-register-a:
    attention's P): each thread packs its own elements into the A
    fragment, nothing moves.
  }];
  let arguments = (ins AnyTypeOf<[BlkGpu_MemDesc, AnyRankedTensor]>:$a, BlkGpu_MemDesc:$b,
                       AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    type($acc) `->` type($result)
  }];
  let hasVerifier = 1;
}

def BlkGpu_WarpGroupDotWaitOp : Op<BlkGpu_Dialect, "wgmma_wait",
                                    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "wait for the wgmmas that write `acc` (at most `pending` groups stay in flight)";
  let arguments = (ins AnyRankedTensor:$acc, I32Attr:$pending);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

def BlkGpu_AsyncCopyOp : Op<BlkGpu_Dialect, "async_copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start copying a block from global memory into a buffer slot";
  let description = [{
    Each thread copies its elements of the block at `ptr` (in the pointer
    block's layout) into `dst`, a slot of a shared-memory buffer, without
    waiting: cp.async, 4 to 16 bytes per copy. Elements whose `mask` is false
    are filled with zeros. The copy belongs to the group the next
    async_commit closes; async_wait completes it. Made by
    blkgpu-pipeline-loops.
  }];
  let arguments = (ins AnyRankedTensor:$ptr, BlkGpu_MemDesc:$dst, Optional<AnyRankedTensor>:$mask);
  let assemblyFormat = [{
    $ptr `,` $dst (`,` $mask^)? attr-dict `:` type($ptr) `->` qualified(type($dst))
    (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def BlkGpu_AsyncCommitOp : Op<BlkGpu_Dialect, "async_commit", [MemoryEffects<[MemWrite]>]> {
  let summary = "close this thread's group of async copies (cp.async.commit_group)";
  let assemblyFormat = "attr-dict";
}

def BlkGpu_AsyncWaitOp : Op<BlkGpu_Dialect, "async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until at most `pending` groups of this thread's copies are in flight";
  let description = [{
    cp.async.wait_group: the copies of every older group are in shared memory
    (this thread's: blkgpu-insert-barriers puts the barrier that makes every
    thread's copies visible before a read).
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "attr-dict";
}

def BlkGpu_TensorMapType : TypeDef<BlkGpu_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a TMA descriptor (CUtensorMap) the host builds at launch";
}

def BlkGpu_TensorMapOp : Op<BlkGpu_Dialect, "tensor_map", [Pure, AttrSizedOperandSegments]> {
  let summary = "a 2-D tensor in global memory that TMA copies boxes of";
  let description = [{
    The row-major tensor at `base`: `dims` are its extents in elements,
    outermost first; `strides` the element strides of every dim but the
    last (which is contiguous). Each blkgpu.tma_load of it copies a `box`
    (outermost first, the last dim at most `swizzle` bytes wide) into
    shared memory, swizzled by `swizzle` bytes (0, 32, 64 or 128: the
    NVMMA layout of blkgpu-accelerate-matmul); elements outside `dims`
    read as zero. Not code: the emitter makes it a hidden kernel parameter
    (a 128-byte CUtensorMap, `__grid_constant__`) that libblkrt encodes at
    launch from the manifest's `tensor_maps` entry, whose dims and strides
    are these operands as expressions of the kernel's parameters. So the
    op sits in the kernel's entry block and its operands are computed from
    the kernel's arguments and constants by integer arithmetic only.
    Made by blkgpu-pipeline-loops.
  }];
  let arguments = (ins AnyType:$base, Variadic<AnySignlessInteger>:$dims,
                       Variadic<AnySignlessInteger>:$strides, DenseI64ArrayAttr:$box,
                       I32Attr:$swizzle);
  let results = (outs BlkGpu_TensorMapType:$result);
  let assemblyFormat = [{
    $base `[` $dims `]` `strides` `[` $strides `]` attr-dict `:` type($base) `,`
    `(` type($dims) `)` `,` `(` type($strides) `)`
  }];
  let hasVerifier = 1;
}

def BlkGpu_TmaLoadOp : Op<BlkGpu_Dialect, "tma_load", [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "start a TMA copy of boxes of a tensor into a buffer slot";
  let description = [{
    Copies the block of `map`'s tensor whose first element is at `coords`
    (outermost first; coordinates outside the tensor read as zero) into
    `dst`, a slot shaped like the map's box except that its last dim may be
    several boxes wide (one cp.async.bulk.tensor per box, each filling the
    next column block of the NVMMA layout). One thread issues the copies,
    when `pred` (if given) holds; they complete their bytes on `barrier`
    (mbarrier complete_tx), which blkgpu.mbarrier_expect armed for them.
    Readers wait with blkgpu.mbarrier_wait.
  }];
  let arguments = (ins BlkGpu_TensorMapType:$map, Variadic<I32>:$coords, BlkGpu_MemDesc:$dst,
                       BlkGpu_MemDesc:$barrier, Optional<I1>:$pred);
  let assemblyFormat = [{
    $map `[` $coords `]` `,` $dst `,` $barrier (`,` $pred^)? attr-dict `:`
    qualified(type($dst)) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def BlkGpu_MbarrierInitOp : Op<BlkGpu_Dialect, "mbarrier_init", [MemoryEffects<[MemWrite]>]> {
  let summary = "initialise every mbarrier of a buffer (one per slot), then a barrier";
  let description = [{
    `barriers` is a [n x 1] buffer of i64 (a ring of mbarriers). One
    thread initialises each with arrival count `count`, fences the
    initialisation, and every thread then meets at a bar.sync so no one
    waits on an uninitialised barrier.
  }];
  let arguments = (ins BlkGpu_MemDesc:$barriers, I32Attr:$count);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def BlkGpu_MbarrierExpectOp : Op<BlkGpu_Dialect, "mbarrier_expect", [MemoryEffects<[MemWrite]>]> {
  let summary = "arrive on an mbarrier expecting `bytes` of TMA copies (one thread)";
  let description = [{
    mbarrier.arrive.expect_tx by the thread that issues the TMA copies,
    when `pred` (if given) holds: the barrier's phase completes once
    `bytes` bytes of copies have landed on it.
  }];
  let arguments = (ins BlkGpu_MemDesc:$barrier, I32Attr:$bytes, Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def BlkGpu_MbarrierWaitOp : Op<BlkGpu_Dialect, "mbarrier_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until the mbarrier's phase with parity `phase` has completed";
  let description = [{
    Every thread spins on mbarrier.try_wait.parity: the copies that phase
    expected are then in shared memory and visible to this thread.
  }];
  let arguments = (ins BlkGpu_MemDesc:$barrier, I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def BlkGpu_MbarrierArriveOp : Op<BlkGpu_Dialect, "mbarrier_arrive", [MemoryEffects<[MemWrite]>]> {
  let summary = "one arrival per warp on an mbarrier, when `pred` holds";
  let description = [{
    Lane 0 of every warp that reaches it arrives once (mbarrier.arrive), so
    a barrier initialised with the number of warps completes its phase when
    all of them have passed. Warp specialisation's consumers release a ring
    slot with it once the wgmma that read the slot is complete.
  }];
  let arguments = (ins BlkGpu_MemDesc:$barrier, Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

// Consumer warpgroups taking turns at the tensor cores (blkgpu-pipeline-
// loops, WarpGroupTurns.cpp; lowered in EmitWarpSpecialize.cpp).
def BlkGpu_TurnWaitOp : Op<BlkGpu_Dialect, "turn_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a consumer warpgroup waits for its turn to issue its wgmmas";
  let description = [{
    The `warpgroups` consumer warpgroups of a blkgpu.warp_specialize (four
    warps each, numbered by their threads) issue their tensor-core work in
    turn, so that one's softmax runs while the others' wgmmas do
    (FlashAttention-3's ping-pong). Warpgroup w waits at named barrier
    2 + w (bar.sync, 256 threads) until the warpgroup before it (w - 1, or
    the last one for 0) passes the turn on with blkgpu.turn_pass. With
    `skip`, warpgroup `skip` does not wait.
  }];
  let arguments = (ins I32Attr:$warpgroups, OptionalAttr<I32Attr>:$skip);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def BlkGpu_TurnPassOp : Op<BlkGpu_Dialect, "turn_pass", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a consumer warpgroup passes the turn to the next one";
  let description = [{
    Warpgroup w arrives at named barrier 2 + (w + 1) % `warpgroups`
    (bar.arrive, 256 threads: the next warpgroup's blkgpu.turn_wait) and
    goes on without waiting. With `skip`, warpgroup `skip` does not pass.
  }];
  let arguments = (ins I32Attr:$warpgroups, OptionalAttr<I32Attr>:$skip);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def BlkGpu_WarpSpecializeOp : Op<BlkGpu_Dialect, "warp_specialize",
    [RecursiveMemoryEffects, NoTerminator, SingleBlock]> {
  let summary = "the kernel body split between a producer warpgroup and the consumers";
  let description = [{
    The kernel runs with `producer_warps` more warps than its layouts span
    (`blkgpu.num_warps`). Those extra warps run `producer` in one thread
    (the first of them) and exit; the other warps run `consumer`. On sm_90a,
    when `producer` is not empty, the producer warpgroup gives registers
    back (setmaxnreg.dec to `producer_registers`) and the consumers take them
    (setmaxnreg.inc to `consumer_registers`); both 0: nobody changes its
    registers (the SM could not hold a useful split). `producer` is scalar code
    only (TMA copies, mbarrier ops, integer arithmetic, loops and branches);
    a blkgpu.barrier in `consumer` synchronises the consumers alone (a named
    barrier). The op is the last of the kernel's entry block but for its
    return. Made by blkgpu-pipeline-loops for kernels with
    `blk.warp_specialize`.
  }];
  let arguments = (ins I32Attr:$producer_warps, I32Attr:$producer_registers,
                       I32Attr:$consumer_registers);
  let regions = (region AnyRegion:$producer, AnyRegion:$consumer);
  let assemblyFormat = "attr-dict-with-keyword `producer` $producer `consumer` $consumer";
  let hasVerifier = 1;
}

def BlkGpu_ConvertLayoutOp : Op<BlkGpu_Dialect, "convert_layout", [Pure]> {
  let summary = "the same block in another layout (through shared memory)";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

#endif // BLK_DIALECT_BLKGPU_IR_BLKGPUDIALECT_TD
