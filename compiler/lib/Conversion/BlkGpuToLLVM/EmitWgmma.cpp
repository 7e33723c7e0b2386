//===- EmitWgmma.cpp - blkgpu.wgmma on Hopper tensor cores ----------------===//
//
// One blkgpu.wgmma is, per warpgroup:
//   wgmma.fence                                 (accumulators written before)
//   wgmma.mma_async m64nNk16  x  repM * repN * K/16   (k8 for tf32, k32 for i8)
//   wgmma.commit_group; wgmma.wait_group P      (P = `pending`: 0 is synchronous,
//                                                1 leaves this group running,
//                                                -1 emits no wait)
// Each mma_async takes the accumulator registers of its tile as "+f"
// operands (outputs tied to inputs; not tied in the first K step of a zero
// accumulator, which runs with scale-d false) and two matrix descriptors
// (WgmmaOperand.h), or for A in registers its four packed .b32 registers
// (mmaRegisterFragment). The wait's asm is tied to every accumulator too, so
// LLVM cannot move a read of one above it. Warp w of the program belongs
// to warpgroup w / 4; the #blkgpu.mma layout puts warpgroups along M, then
// N (warp w covers M index (w / 4) % (wm / 4), N index w / wm).
// Test: tests/lit/codegen/wgmma.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"

#include "blk/Dialect/BlkGpu/Transforms/WgmmaOperand.h"

#include "mlir/IR/Matchers.h"

#include <map>

using namespace mlir;

namespace blk::gpu {

/// The operand's descriptor for this thread's warpgroup: the buffer's
/// address in the low bits plus the warpgroup's tile (`group` tiles of
/// `groupStep` elements along M / N).
static llvm::Value *baseDescriptor(Emitter &e, const WgmmaOperand &op, llvm::Value *buffer,
                                   llvm::Value *group, int64_t groupStep) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Value *addr = b.CreateTrunc(b.CreatePtrToInt(buffer, b.getInt64Ty()), b.getInt32Ty());
  int64_t perGroup = op.tileOffset(groupStep, 0) - op.tileOffset(0, 0);
  addr = b.CreateAdd(addr, b.CreateMul(group, e.i32(perGroup)));
  llvm::Value *field = b.CreateLShr(b.CreateAnd(addr, e.i32(0x3FFFF)), e.i32(4));
  return b.CreateOr(b.CreateZExt(field, b.getInt64Ty()), b.getInt64(op.descriptorBits()));
}

/// wgmma.wait_group `pending`, tied to every accumulator register so that
/// LLVM cannot move a read of one above it; returns the registers after.
static Elems emitWgmmaWait(Emitter &e, const Elems &acc, unsigned pending) {
  PtxBuilder wait(e.b);
  SmallVector<std::string> outs;
  for (unsigned i = 0; i < acc.size(); ++i)
    outs.push_back(wait.output(acc[i]->getType()));
  for (unsigned i = 0; i < acc.size(); ++i)
    wait.tiedInput(outs[i], acc[i]);
  wait.line("wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";").clobberMemory();
  wait.emit(/*hasSideEffects=*/true);
  Elems result;
  for (unsigned i = 0; i < acc.size(); ++i)
    result.push_back(wait.result(i));
  return result;
}

SmallVector<llvm::Value *, 4> mmaRegisterFragment(Emitter &e, const Elems &a,
                                                  const MmaTiling &tiling, unsigned mr,
                                                  int64_t k0) {
  llvm::IRBuilder<> &b = e.b;
  unsigned nr = unsigned(k0 / tiling.instrN);
  unsigned fragBase = unsigned((k0 % tiling.instrN) / 8);
  SmallVector<llvm::Value *, 4> regs;
  for (unsigned r = 0; r < 4; ++r) {
    unsigned rowBit = r & 1, frag = fragBase + (r >> 1);
    llvm::Value *lo = a[tiling.element(mr, nr, (rowBit << 1) | (frag << 2))];
    llvm::Value *hi = a[tiling.element(mr, nr, 1 | (rowBit << 1) | (frag << 2))];
    llvm::Value *pair = llvm::PoisonValue::get(llvm::FixedVectorType::get(lo->getType(), 2));
    pair = b.CreateInsertElement(pair, lo, uint64_t(0));
    pair = b.CreateInsertElement(pair, hi, uint64_t(1));
    regs.push_back(b.CreateBitCast(pair, b.getInt32Ty()));
  }
  return regs;
}

llvm::Error Emitter::emitWarpGroupDot(Operation *op) {
  auto wgmma = cast<WarpGroupDotOp>(op);
  // A is a buffer, or a 16-bit block in registers (blkgpu-wgmma-register-a).
  auto aRegs = dyn_cast<RankedTensorType>(wgmma.getA().getType());
  MemDescType bType = wgmma.getB().getType();
  auto accType = cast<RankedTensorType>(wgmma.getAcc().getType());
  auto mma = cast<MmaEncodingAttr>(accType.getEncoding());
  std::string why;
  std::optional<WgmmaOperand> a;
  if (!aRegs) {
    a = WgmmaOperand::get(cast<MemDescType>(wgmma.getA().getType()), /*isB=*/false, why);
    if (!a)
      return fail(op, why);
  }
  std::optional<WgmmaOperand> bOp = WgmmaOperand::get(bType, /*isB=*/true, why);
  if (!bOp)
    return fail(op, why);
  Type elem = bType.getElementType();
  if (!aRegs)
    elem = cast<MemDescType>(wgmma.getA().getType()).getElementType();
  bool wide = elem.isF16() || elem.isBF16(); // the forms that can transpose
  if (!wide && (!a->kMajor || !bOp->kMajor))
    return fail(op, "reads 32- or 8-bit operands that are not K-major (wgmma transposes only "
                    "16-bit ones)");
  auto ptxType = [](Type t) -> std::string {
    return t.isF16()           ? "f16"
           : t.isBF16()        ? "bf16"
           : t.isF32()         ? "tf32"
           : t.isFloat8E4M3FN() ? "e4m3"
           : t.isFloat8E5M2()  ? "e5m2"
                               : "s8";
  };
  // fp8 a and b may be of different kinds (e4m3 x e5m2 forms exist).
  std::string types = ptxType(elem) + "." + ptxType(bType.getElementType());
  std::string accTy = elem.isInteger(8) ? "s32" : "f32";
  llvm::Type *accElem = elem.isInteger(8) ? b.getInt32Ty() : b.getFloatTy();
  int64_t k = bType.getShape()[0];
  int64_t instrK = 32 / bOp->elemBytes; // 32 bytes of K per instruction
  MmaTiling tiling = getMmaTiling(mma, accType.getShape());
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];

  // This warp's warpgroup along M and N, and its descriptors' bases, from
  // the warp-uniform index so that the descriptors sit in uniform registers
  // (with one warpgroup both are 0: no shuffle).
  llvm::Value *warpU = wm > 4 || wn > 1 ? uniformWarp() : warp;
  llvm::Value *groupM = b.CreateAnd(b.CreateLShr(warpU, i32(2)), i32(wm / 4 - 1));
  llvm::Value *groupN = b.CreateUDiv(warpU, i32(wm));
  llvm::Value *aBase =
      aRegs ? nullptr : baseDescriptor(*this, *a, get(wgmma.getA())[0], groupM, 64);
  llvm::Value *bBase = baseDescriptor(*this, *bOp, get(wgmma.getB())[0], groupN, tiling.instrN);
  std::optional<MmaTiling> aTiling;
  if (aRegs)
    aTiling = getMmaTiling(cast<MmaEncodingAttr>(aRegs.getEncoding()), aRegs.getShape());

  Elems acc = get(wgmma.getAcc());
  // A zero accumulator (a dot without `acc`, such as attention's QKᵀ in
  // every iteration) is not materialised: the first K step of each tile
  // runs with scale-d false (D = A·B), so no register is set to 0 first.
  bool zeroAcc = matchPattern(wgmma.getAcc(), m_PosZeroFloat()) ||
                 matchPattern(wgmma.getAcc(), m_Zero());
  std::string shape =
      "m64n" + std::to_string(tiling.instrN) + "k" + std::to_string(instrK);
  // The transpose immediates exist only in the 16-bit forms, and for A only
  // when it is in shared memory.
  std::string transpose;
  if (wide)
    transpose = (aRegs ? "" : ", " + std::to_string(a->transposeImm())) + ", " +
                std::to_string(bOp->transposeImm());
  // Integer forms have no scale-a/scale-b immediates (no negation).
  std::string scales = elem.isInteger(8) ? "" : ", 1, 1";
  // A register operand is packed before the fence: a register a wgmma reads
  // that is written after the fence makes ptxas insert another one (C7519).
  std::map<std::pair<unsigned, int64_t>, SmallVector<llvm::Value *, 4>> fragments;
  if (aRegs)
    for (unsigned mr = 0; mr < tiling.repM; ++mr)
      for (int64_t k0 = 0; k0 < k; k0 += instrK)
        fragments[{mr, k0}] = mmaRegisterFragment(*this, get(wgmma.getA()), *aTiling, mr, k0);
  PtxBuilder::statement(b, "wgmma.fence.sync.aligned;");
  for (unsigned mr = 0; mr < tiling.repM; ++mr)
    for (unsigned nr = 0; nr < tiling.repN; ++nr)
      for (int64_t k0 = 0; k0 < k; k0 += instrK) {
        // Tile (mr, nr) of the warpgroup: rows 16 * wm * mr + 64 * groupM,
        // columns instrN * (groupN + wn * nr); the group parts are in the bases.
        SmallVector<llvm::Value *, 4> aRegsK; // A's fragment, or its descriptor
        if (aRegs) {
          aRegsK = fragments[{mr, k0}];
        } else {
          int64_t aOff = a->tileOffset(16 * int64_t(wm) * mr, k0) - a->tileOffset(0, 0);
          aRegsK.push_back(b.CreateAdd(aBase, b.getInt64(uint64_t(aOff) >> 4)));
        }
        int64_t bOff = bOp->tileOffset(int64_t(tiling.instrN) * wn * nr, k0) -
                       bOp->tileOffset(0, 0);
        llvm::Value *descB = b.CreateAdd(bBase, b.getInt64(uint64_t(bOff) >> 4));
        PtxBuilder ptx(b);
        SmallVector<std::string> outs;
        SmallVector<unsigned> elems;
        for (unsigned j = 0; j < tiling.regsPerInstr(); ++j) {
          elems.push_back(tiling.element(mr, nr, j));
          outs.push_back(ptx.output(accElem));
        }
        bool firstStep = zeroAcc && k0 == 0;
        if (!firstStep)
          for (unsigned j = 0; j < outs.size(); ++j)
            ptx.tiedInput(outs[j], acc[elems[j]]);
        std::string operandA;
        for (llvm::Value *r : aRegsK)
          operandA += (operandA.empty() ? "" : ", ") + ptx.input(r);
        if (aRegs)
          operandA = "{" + operandA + "}";
        std::string db = ptx.input(descB);
        std::string scaleD = firstStep ? "0" : ptx.input(i32(1));
        std::string list;
        for (unsigned j = 0; j < outs.size(); ++j)
          list += (j ? ", " : "") + outs[j];
        ptx.line("{ .reg .pred p; setp.ne.b32 p, " + scaleD + ", 0;");
        ptx.line("wgmma.mma_async.sync.aligned." + shape + "." + accTy + "." + types +
                 " {" + list + "}, " + operandA + ", " + db + ", p" + scales + transpose + "; }");
        ptx.clobberMemory();
        ptx.emit(/*hasSideEffects=*/true);
        for (unsigned j = 0; j < outs.size(); ++j)
          acc[elems[j]] = ptx.result(j);
      }
  PtxBuilder::statement(b, "wgmma.commit_group.sync.aligned;");
  // pending = -1: a blkgpu.wgmma_wait before the first reader completes it.
  set(wgmma.getResult(),
      wgmma.getPendingAttr().getInt() < 0 ? acc : emitWgmmaWait(*this, acc, wgmma.getPending()));
  return llvm::Error::success();
}

llvm::Error Emitter::emitWarpGroupDotWait(Operation *op) {
  auto wait = cast<WarpGroupDotWaitOp>(op);
  set(wait.getResult(), emitWgmmaWait(*this, get(wait.getAcc()), wait.getPending()));
  return llvm::Error::success();
}

} // namespace blk::gpu
