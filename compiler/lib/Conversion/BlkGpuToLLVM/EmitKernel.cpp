//===- EmitKernel.cpp - kernel entry, value map, dispatch, helpers --------===//
//
// Expects: one kernel of blkgpu IR (every tensor has a distributed layout).
// Guarantees: a `define void @<kernel>` with the kernel's params in order,
// marked as a kernel with maxntid = 32 * num_warps in nvvm.annotations, and
// a static shared array sized for the largest shared-memory use.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"
#include "blk/Support/ConfigAttrs.h"
#include "blk/Support/WarpSpecialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace blk::gpu {

Emitter::Emitter(llvm::Module &module, func::FuncOp kernel, const GpuTarget &target,
                 bool lineInfo, const PrefixMap *prefixMap)
    : ctx(module.getContext()), mod(module), target(target), b(module.getContext()),
      kernel(kernel), numWarps(getNumWarps(kernel)),
      producerWarps(kernel->hasAttr(blk::kWarpSpecializeAttr)
                        ? unsigned(blk::kProducerWarps)
                        : 0),
      lineInfo(lineInfo), prefixMap(prefixMap) {}

Emitter::~Emitter() = default;

llvm::Error Emitter::fail(Operation *op, const llvm::Twine &msg) {
  std::string loc;
  llvm::raw_string_ostream os(loc);
  op->getLoc().print(os);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 os.str() + ": error: codegen: '" +
                                     op->getName().getStringRef() + "' " + msg);
}

Elems &Emitter::get(Value v) { return values[v]; }

llvm::Type *Emitter::llvmType(Type type) {
  type = blk::getElementTypeOrSelf(type);
  if (isa<PtrType>(type))
    return llvm::PointerType::get(ctx, 1);
  if (type.isIndex())
    return b.getInt64Ty();
  if (auto it = dyn_cast<IntegerType>(type))
    return b.getIntNTy(it.getWidth());
  if (type.isF16())
    return b.getHalfTy();
  if (type.isBF16())
    return b.getBFloatTy();
  if (isFp8Type(type)) // LLVM 19 has no fp8 type: the bits
    return b.getInt8Ty();
  if (type.isF32())
    return b.getFloatTy();
  if (type.isF64())
    return b.getDoubleTy();
  return nullptr;
}

llvm::Type *Emitter::memType(Type type) {
  llvm::Type *t = llvmType(type);
  return t && t->isIntegerTy(1) ? b.getInt8Ty() : t;
}

std::optional<LayoutView> Emitter::viewOf(Value v) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    return std::nullopt;
  return getLayoutView(tensor.getEncoding(), tensor.getShape());
}

static llvm::Value *indexAlong(llvm::IRBuilder<> &b, llvm::Value *id,
                               ArrayRef<unsigned> counts, ArrayRef<unsigned> order,
                               unsigned d) {
  unsigned stride = 1;
  for (unsigned o : order) {
    if (o == d)
      break;
    stride *= counts[o];
  }
  if (counts[d] == 1)
    return b.getInt32(0);
  llvm::Value *shifted = b.CreateLShr(id, llvm::Log2_32(stride));
  return b.CreateAnd(shifted, counts[d] - 1);
}

llvm::Value *Emitter::laneIndex(const LayoutView &v, unsigned d) {
  return indexAlong(b, lane, v.base.getThreadsPerWarp(), v.base.getOrder(), d);
}

// `tid.x >> 5` is the same in every lane of a warp, but ptxas does not know
// it, so a value built from it (a wgmma descriptor) lives in a vector
// register per thread and moves to a uniform one before each use. A shuffle
// from lane 0 gives ptxas the fact: such values then live in the uniform
// registers (attention D = 128: about 20 fewer vector registers). Placed
// right after `warp`, where the whole warp is converged.
llvm::Value *Emitter::uniformWarp() {
  if (uniformWarpValue)
    return uniformWarpValue;
  auto *after = cast<llvm::Instruction>(warp);
  llvm::IRBuilder<> entry(after->getNextNode());
  entry.SetCurrentDebugLocation(after->getDebugLoc());
  llvm::Function *shfl =
      llvm::Intrinsic::getDeclaration(&mod, llvm::Intrinsic::nvvm_shfl_sync_idx_i32);
  uniformWarpValue = entry.CreateCall(shfl, {i32(-1), warp, i32(0), i32(kWarpSize - 1)});
  return uniformWarpValue;
}

llvm::Value *Emitter::warpIndex(const LayoutView &v, unsigned d) {
  return indexAlong(b, warp, v.base.getWarpsPerCTA(), v.base.getOrder(), d);
}

/// The XOR of the bases (along own dim `dim`) of the set bits of `id`,
/// folded into `acc` (null: 0), whose possibly-set bits are `accBits`.
/// Consecutive bits whose bases are consecutive powers of two (a blocked
/// layout's lanes or warps along one dim) become one shift and mask; parts
/// that cannot overlap are ORed, which is what the XOR is on them.
static llvm::Value *xorOfBases(llvm::IRBuilder<> &b, llvm::Value *id,
                               ArrayRef<LinearLayout::Basis> bases,
                               unsigned dim, llvm::Value *acc,
                               uint64_t &accBits) {
  for (unsigned bit = 0; bit < bases.size();) {
    uint64_t v = bases[bit][dim];
    unsigned n = 1;
    if (v == 0) {
      ++bit;
      continue;
    }
    bool pow2 = llvm::isPowerOf2_64(v);
    while (pow2 && bit + n < bases.size() &&
           uint64_t(bases[bit + n][dim]) == v << n)
      ++n;
    llvm::Value *field = bit ? b.CreateLShr(id, bit) : id;
    field = b.CreateAnd(field, (uint64_t(1) << n) - 1);
    uint64_t bits = pow2 ? ((uint64_t(1) << n) - 1) * v : v;
    llvm::Value *part = !pow2   ? b.CreateMul(field, b.getInt32(v))
                        : v > 1 ? b.CreateShl(field, llvm::Log2_64(v))
                                : field;
    acc = !acc               ? part
          : (accBits & bits) ? b.CreateXor(acc, part)
                             : b.CreateOr(acc, part);
    accBits |= bits;
    bit += n;
  }
  return acc;
}

SmallVector<SmallVector<llvm::Value *>> Emitter::coords(const LayoutView &v) {
  // Own dim j of element i is threadPart_j XOR the register part (a constant:
  // the coordinate of element i in thread 0). tid is warp * 32 + lane, so the
  // lane bases then the warp bases are those of tid's bits: a run that
  // crosses from lanes to warps is one field of tid.
  SmallVector<LinearLayout::Basis> tidBases(v.linear.getBases(InDim::Lane));
  assert(tidBases.size() == llvm::Log2_32(kWarpSize) && "a lane has 5 bits");
  llvm::append_range(tidBases, v.linear.getBases(InDim::Warp));
  SmallVector<llvm::Value *> threadPart;
  SmallVector<uint64_t> threadBits;
  for (unsigned j = 0; j < v.rank(); ++j) {
    uint64_t bits = 0;
    threadPart.push_back(xorOfBases(b, tid, tidBases, j, nullptr, bits));
    threadBits.push_back(bits);
  }
  SmallVector<SmallVector<llvm::Value *>> all;
  for (unsigned i = 0, e = v.numElems(); i < e; ++i) {
    SmallVector<int64_t> off = v.linear.apply(i, 0, 0);
    SmallVector<llvm::Value *> c;
    for (unsigned j = 0; j < v.rank(); ++j) {
      if (!threadPart[j]) {
        c.push_back(i32(off[j]));
        continue;
      }
      // Disjoint bits (always, for blocked layouts): XOR is an add that
      // cannot wrap, which LLVM folds into the addressing.
      c.push_back((threadBits[j] & uint64_t(off[j]))
                      ? b.CreateXor(threadPart[j], i32(off[j]))
                      : b.CreateAdd(threadPart[j], i32(off[j]), "",
                                    /*HasNUW=*/true,
                                    /*HasNSW=*/true));
    }
    all.push_back(std::move(c));
  }
  return all;
}

llvm::Value *Emitter::andPred(llvm::Value *a, llvm::Value *c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return b.CreateAnd(a, c);
}

llvm::Value *Emitter::ownerPredicate(const LayoutView &v) {
  // The owner of each group of copies has its free lane and warp bits 0
  // (tid = warp * 32 + lane).
  uint32_t free = v.linear.getFreeMask(InDim::Lane) |
                  v.linear.getFreeMask(InDim::Warp) << llvm::Log2_32(kWarpSize);
  if (!free)
    return nullptr;
  return b.CreateICmpEQ(b.CreateAnd(tid, i32(free)), i32(0));
}

uint64_t Emitter::scratchOffset(Operation *op, uint64_t size) {
  auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
  auto total = kernel->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
  if (!offset || !total) {
    internalError(op, "uses shared memory blkgpu-allocate-shared did not plan");
    return 0;
  }
  uint64_t end = offset.getInt() + llvm::alignTo(size, 16);
  if (end > uint64_t(total.getInt()))
    internalError(op, "needs " + llvm::Twine(size) + " bytes of scratch at offset " +
                          llvm::Twine(offset.getInt()) + ", the plan has " +
                          llvm::Twine(total.getInt()) + " in all");
  smemBytes = std::max<uint64_t>(smemBytes, total.getInt());
  return offset.getInt();
}

llvm::Value *Emitter::bufferBase(Operation *alloc, uint64_t size) {
  auto offset = alloc->getAttrOfType<IntegerAttr>(kBufferOffsetAttr);
  auto total = kernel->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
  if (!offset || !total || uint64_t(offset.getInt()) + size > uint64_t(total.getInt())) {
    internalError(alloc, "is a buffer blkgpu-allocate-shared did not place");
    return nullptr;
  }
  smemBytes = std::max<uint64_t>(smemBytes, total.getInt());
  return smemPtr(b.getInt8Ty(), nullptr, offset.getInt());
}

void Emitter::internalError(Operation *op, const llvm::Twine &msg) {
  std::string loc;
  llvm::raw_string_ostream os(loc);
  op->getLoc().print(os);
  internalErrors += os.str() + ": internal compiler error (codegen): '" +
                    op->getName().getStringRef().str() + "' " + msg.str() + "\n";
}

llvm::Value *Emitter::smemPtr(llvm::Type *elemTy, llvm::Value *index,
                              uint64_t bytes) {
  llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), smem, bytes);
  if (!index)
    return p;
  return b.CreateGEP(elemTy, p, index);
}

void Emitter::barrier() {
  // The producer warpgroup never meets the consumers' barriers: named
  // barrier 1 counts the consumers' threads alone.
  if (consumersOnly)
    callIntrinsic(llvm::Intrinsic::nvvm_barrier_sync_cnt, {},
                  {i32(1), i32(numWarps * kWarpSize)});
  else
    callIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
}

llvm::Value *Emitter::callIntrinsic(unsigned id, ArrayRef<llvm::Type *> types,
                                    ArrayRef<llvm::Value *> args) {
  llvm::Function *f = llvm::Intrinsic::getDeclaration(&mod, id, types);
  return b.CreateCall(f, args);
}

llvm::Value *Emitter::callLibdevice(StringRef name, llvm::Type *type,
                                    ArrayRef<llvm::Value *> args) {
  SmallVector<llvm::Type *> params(args.size(), type);
  auto callee = mod.getOrInsertFunction(
      name, llvm::FunctionType::get(type, params, false));
  return b.CreateCall(callee, args);
}

llvm::Value *Emitter::broadcastFromThread0(Operation *op, llvm::Value *v) {
  llvm::Type *t = v->getType()->isIntegerTy(1) ? b.getInt8Ty() : v->getType();
  llvm::Value *stored = t == v->getType() ? v : b.CreateZExt(v, t);
  uint64_t base = scratchOffset(op, 16);
  llvm::Value *isT0 = b.CreateICmpEQ(tid, i32(0));
  llvm::BasicBlock *then = llvm::BasicBlock::Create(ctx, "t0", fn);
  llvm::BasicBlock *cont = llvm::BasicBlock::Create(ctx, "t0.end", fn);
  b.CreateCondBr(isT0, then, cont);
  b.SetInsertPoint(then);
  b.CreateStore(stored, smemPtr(t, nullptr, base));
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
  barrier();
  llvm::Value *r = b.CreateLoad(t, smemPtr(t, nullptr, base));
  return t == v->getType() ? r : b.CreateTrunc(r, v->getType());
}

llvm::Error Emitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator()) {
    setLocation(op.getLoc());
    if (llvm::Error err = emitOp(&op))
      return err;
  }
  return llvm::Error::success();
}

llvm::Expected<Elems> Emitter::emitCombine(Block &body, ArrayRef<llvm::Value *> lhs,
                                           ArrayRef<llvm::Value *> rhs) {
  unsigned n = lhs.size();
  for (unsigned i = 0; i < n; ++i) {
    set(body.getArgument(i), {lhs[i]});
    set(body.getArgument(n + i), {rhs[i]});
  }
  if (llvm::Error err = emitBlock(body))
    return err;
  Elems out;
  for (Value v : body.getTerminator()->getOperands())
    out.push_back(get(v)[0]);
  return out;
}

llvm::Error Emitter::emitProgramOp(Operation *op) {
  if (isa<BarrierOp>(op)) {
    barrier();
    return llvm::Error::success();
  }
  if (auto id = dyn_cast<ProgramIdOp>(op)) {
    static const unsigned ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                   llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                   llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    set(id.getResult(), {callIntrinsic(ids[id.getAxis() % 3], {}, {})});
    return llvm::Error::success();
  }
  auto np = cast<NumProgramsOp>(op);
  static const unsigned ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                 llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
  set(np.getResult(), {callIntrinsic(ids[np.getAxis() % 3], {}, {})});
  return llvm::Error::success();
}

void Emitter::emitGuarded(llvm::Value *pred, llvm::function_ref<void()> body) {
  if (!pred)
    return body();
  auto *then = llvm::BasicBlock::Create(ctx, "if.then", fn);
  auto *cont = llvm::BasicBlock::Create(ctx, "if.end", fn);
  b.CreateCondBr(pred, then, cont);
  b.SetInsertPoint(then);
  body();
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
}

llvm::Error Emitter::emit() {
  SmallVector<llvm::Type *> params;
  for (Type t : kernel.getArgumentTypes()) {
    llvm::Type *lt = llvmType(t);
    if (!lt || isa<RankedTensorType>(t))
      return fail(kernel, "has a parameter of unsupported type");
    params.push_back(lt);
  }
  // Each tensor_map is a hidden parameter after the kernel's own: a
  // 128-byte CUtensorMap passed by value, 64-byte aligned, which the
  // `grid_constant` annotation lets the kernel address in place.
  SmallVector<TensorMapOp> maps;
  if (!kernel.getBody().empty())
    for (auto map : kernel.getBody().front().getOps<TensorMapOp>())
      maps.push_back(map);
  unsigned firstMap = params.size();
  for (size_t i = 0; i < maps.size(); ++i)
    params.push_back(llvm::PointerType::get(ctx, 0));
  auto *fnType = llvm::FunctionType::get(b.getVoidTy(), params, false);
  fn = llvm::Function::Create(fnType, llvm::Function::ExternalLinkage,
                              kernel.getSymName(), mod);
  auto *cuTensorMap = llvm::ArrayType::get(b.getInt64Ty(), 16);
  for (auto [i, map] : llvm::enumerate(maps)) {
    llvm::Argument *arg = fn->getArg(firstMap + i);
    arg->addAttr(llvm::Attribute::getWithByValType(ctx, cuTensorMap));
    arg->addAttr(llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
    tensorMapParams[map.getOperation()] = arg;
  }
  // Placeholder shared array; replaced by one of the final size below.
  smem = new llvm::GlobalVariable(mod, llvm::ArrayType::get(b.getInt8Ty(), 0), false,
                                  llvm::GlobalValue::InternalLinkage, nullptr,
                                  kernel.getSymName() + "__smem_tmp", nullptr,
                                  llvm::GlobalValue::NotThreadLocal, 3);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
  if (lineInfo)
    beginDebugInfo();
  setLocation(kernel.getLoc());
  tid = callIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {});
  lane = b.CreateAnd(tid, i32(kWarpSize - 1));
  warp = b.CreateLShr(tid, i32(5));
  for (auto [arg, llArg] : llvm::zip(kernel.getArguments(), fn->args()))
    set(arg, {&llArg});
  if (kernel.getBody().getBlocks().size() != 1)
    return fail(kernel, "must have a single block");
  if (producerWarps && kernel.getBody().front().getOps<WarpSpecializeOp>().empty())
    return fail(kernel, "is warp-specialised (blk.warp_specialize) but has no "
                        "blkgpu.warp_specialize to keep its producer warps out of the body");
  if (llvm::Error err = emitBlock(kernel.getBody().front()))
    return err;
  b.CreateRetVoid();
  endDebugInfo();
  if (!internalErrors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), internalErrors);

  // Buffers sit at multiples of 1024 bytes from the base (allocate-shared):
  // a 128-byte swizzle atom must start 1024-byte aligned for wgmma and TMA.
  bool hasBuffers = false;
  kernel.walk([&](LocalAllocOp) { hasBuffers = true; });
  unsigned kSharedAlign = hasBuffers ? 1024 : 16;
  if (smemBytes > target.maxStaticShared) {
    // Above 48 KiB only dynamic shared memory is allowed: an extern array
    // (`.extern .shared .b8 x[]`) whose size the launch passes.
    auto *type = llvm::ArrayType::get(b.getInt8Ty(), 0);
    auto *dyn = new llvm::GlobalVariable(
        mod, type, false, llvm::GlobalValue::ExternalLinkage, nullptr,
        kernel.getSymName() + "__dyn_smem", nullptr,
        llvm::GlobalValue::NotThreadLocal, 3);
    dyn->setAlignment(llvm::Align(kSharedAlign));
    smem->replaceAllUsesWith(dyn);
  } else if (smemBytes) {
    auto *type = llvm::ArrayType::get(b.getInt8Ty(), smemBytes);
    auto *real = new llvm::GlobalVariable(
        mod, type, false, llvm::GlobalValue::InternalLinkage,
        llvm::UndefValue::get(type), kernel.getSymName() + "__smem", nullptr,
        llvm::GlobalValue::NotThreadLocal, 3);
    real->setAlignment(llvm::Align(kSharedAlign));
    smem->replaceAllUsesWith(real);
  }
  smem->eraseFromParent();
  smem = nullptr;

  llvm::NamedMDNode *ann = mod.getOrInsertNamedMetadata("nvvm.annotations");
  auto *fnMd = llvm::ValueAsMetadata::get(fn);
  ann->addOperand(llvm::MDNode::get(
      ctx, {fnMd, llvm::MDString::get(ctx, "kernel"),
            llvm::ConstantAsMetadata::get(b.getInt32(1))}));
  ann->addOperand(llvm::MDNode::get(
      ctx, {fnMd, llvm::MDString::get(ctx, "maxntidx"),
            llvm::ConstantAsMetadata::get(b.getInt32(getThreads()))}));
  if (!maps.empty()) {
    // 1-based parameter numbers, as NVVM's annotations count them.
    SmallVector<llvm::Metadata *> numbers;
    for (size_t i = 0; i < maps.size(); ++i)
      numbers.push_back(llvm::ConstantAsMetadata::get(b.getInt32(firstMap + i + 1)));
    ann->addOperand(llvm::MDNode::get(
        ctx, {fnMd, llvm::MDString::get(ctx, "grid_constant"), llvm::MDNode::get(ctx, numbers)}));
  }
  // `programs_per_sm` (@config): PTX .minnctapersm, so ptxas caps the
  // registers per thread at what that many programs per SM leave.
  // A warp-specialised kernel: setmaxnreg needs .maxntid and .minnctapersm
  // (1 unless `programs_per_sm` says otherwise; the split is made for it).
  int32_t minPrograms = producerWarps ? 1 : 0;
  if (auto pps = kernel->getAttrOfType<mlir::IntegerAttr>(blk::kProgramsPerSmAttr))
    minPrograms = int32_t(pps.getInt());
  if (minPrograms)
    ann->addOperand(llvm::MDNode::get(
        ctx, {fnMd, llvm::MDString::get(ctx, "minctasm"),
              llvm::ConstantAsMetadata::get(b.getInt32(minPrograms))}));
  return llvm::Error::success();
}

} // namespace blk::gpu
