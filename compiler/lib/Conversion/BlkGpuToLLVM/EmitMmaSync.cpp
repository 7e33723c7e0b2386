//===- EmitMmaSync.cpp - blkgpu.mma_sync on Ampere-style tensor cores -----===//
//
// One blkgpu.mma_sync is, per warp and per 32-byte K step (k16 for f16 /
// bf16, k8 for tf32, k32 for i8):
//   ldmatrix.x4 per 16-row tile of A          (a0..a3 of mma's A fragment)
//   ldmatrix.x4 per two 8-column tiles of B   (b0, b1 of each)
//   mma.sync.aligned.m16n8kK.row.col per 16 x 8 tile of the accumulator
// ldmatrix reads eight 16-byte rows per matrix, one address per lane
// (lanes 8q .. 8q + 7 give matrix q's rows), and hands lane l the 4 bytes
// at row l / 4, bytes 4 (l % 4) .. of each matrix: exactly mma's fragment
// element for a K-major operand (A's rows are M, B's are N). An MN-major
// 16-bit operand is stored with K along its rows; `.trans` transposes each
// 8 x 8 matrix of 16-bit elements on the way, which gives the same
// fragment. The matrices of A's x4 are (rows 0-7, K bytes 0-15), (rows
// 8-15, bytes 0-15), (rows 0-7, bytes 16-31), (rows 8-15, bytes 16-31):
// a0 .. a3. B's are (tile 0, K bytes 0-15), (tile 0, 16-31), (tile 1,
// 0-15), (tile 1, 16-31): b0, b1 of two tiles. The addresses come from the
// buffer's layout (SmemLayout::offset, the one address function of shared
// memory); the NVMMA swizzles keep each matrix's eight rows in eight
// different bank groups. Warp w covers M tiles (w % wm) + wm i and N tiles
// (w / wm) + wn j of the #blkgpu.mma v2 layout (LinearLayout.cpp), whose
// four registers per 16 x 8 tile are mma's c0 .. c3. A 16-bit A operand
// in registers (attention's P in the accumulator layout of the first dot)
// is packed in place: mma's A fragment is what each thread holds of it.
// Tests: tests/lit/codegen/mma-sync.test, mma-sync-register-a.test.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"
#include "SharedLayout.h"

#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace mlir;

namespace blk::gpu {

namespace {

/// One operand buffer as ldmatrix reads it: [MN, K] coordinates of the
/// rows each lane addresses, in the buffer's own (A: [M, K], B: [K, N]) order.
struct MatrixOperand {
  SmemLayout layout;
  llvm::Value *base = nullptr; ///< the slot's first element
  llvm::Type *elemTy = nullptr;
  unsigned kDim = 1;   ///< A: 1, B: 0
  bool kMajor = true;  ///< K contiguous (else MN, 16-bit only: ldmatrix .trans)
  int64_t kChunk = 8;  ///< elements of K in 16 bytes

  /// The address lane (q, r) gives for the 8 x 16-byte matrix whose first
  /// MN index is `mn` and first K index `k` (both i32).
  llvm::Value *rowAddress(Emitter &e, llvm::Value *mn, llvm::Value *k, llvm::Value *r) const {
    llvm::IRBuilder<> &b = e.b;
    // K-major: row r of the matrix is MN index mn + r; MN-major: K index k + r.
    if (kMajor)
      mn = b.CreateAdd(mn, r);
    else
      k = b.CreateAdd(k, r);
    SmallVector<llvm::Value *, 2> c(2);
    c[kDim] = k;
    c[1 - kDim] = mn;
    return b.CreateGEP(elemTy, base, emitSmemOffset(b, layout, c));
  }
};

} // namespace

/// ldmatrix.x4 (.trans for an MN-major operand) from `addr`: four .b32.
static SmallVector<llvm::Value *, 4> loadMatrices(Emitter &e, const MatrixOperand &op,
                                                  llvm::Value *addr) {
  unsigned id = op.kMajor ? llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16
                          : llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16;
  llvm::Value *call = e.callIntrinsic(id, {addr->getType()}, {addr});
  SmallVector<llvm::Value *, 4> regs;
  for (unsigned i = 0; i < 4; ++i)
    regs.push_back(e.b.CreateExtractValue(call, i));
  return regs;
}

/// Why `layout` cannot feed ldmatrix (empty when it can): each matrix row
/// must be 16 contiguous, 16-byte aligned bytes.
static std::string ldmatrixProblem(const SmemLayout &layout, unsigned elemBytes) {
  int64_t rowBytes = (layout.blockLen() + layout.pad) * elemBytes;
  bool groupsWhole = layout.maxPhase == 1 || layout.swizzleVec * elemBytes >= 16;
  if (rowBytes % 16 != 0 || layout.blockLen() * elemBytes < 16 || !groupsWhole)
    return "reads a buffer whose rows are not whole 16-byte groups (ldmatrix needs them)";
  return "";
}

llvm::Error Emitter::emitMmaSync(Operation *op) {
  auto mmaOp = cast<MmaSyncOp>(op);
  // A is a buffer, or a 16-bit block in registers (blkgpu-wgmma-register-a).
  auto aRegs = dyn_cast<RankedTensorType>(mmaOp.getA().getType());
  MemDescType bType = mmaOp.getB().getType();
  auto accType = cast<RankedTensorType>(mmaOp.getAcc().getType());
  auto mma = cast<MmaEncodingAttr>(accType.getEncoding());
  Type elem = bType.getElementType();
  unsigned elemBytes = getMemBytes(elem);
  bool wide = elem.isF16() || elem.isBF16();

  MatrixOperand a, bOp;
  SmallVector<std::tuple<MatrixOperand *, Value, unsigned>, 2> buffers = {{&bOp, mmaOp.getB(), 0}};
  if (!aRegs)
    buffers.push_back({&a, mmaOp.getA(), 1});
  for (auto [operand, value, kDim] : buffers) {
    operand->layout = getSlotLayout(cast<MemDescType>(value.getType()));
    operand->base = get(value)[0];
    operand->elemTy = memType(elem);
    operand->kDim = kDim;
    operand->kMajor = operand->layout.inner == kDim;
    operand->kChunk = 16 / elemBytes;
    if (std::string why = ldmatrixProblem(operand->layout, elemBytes); !why.empty())
      return fail(op, why);
  }
  if (!wide && (!a.kMajor || !bOp.kMajor))
    return fail(op, "reads 32- or 8-bit operands that are not K-major (ldmatrix transposes only "
                    "16-bit ones)");

  std::string types = elem.isF16()    ? "f32.f16.f16.f32"
                      : elem.isBF16() ? "f32.bf16.bf16.f32"
                      : elem.isF32()  ? "f32.tf32.tf32.f32"
                                      : "s32.s8.s8.s32";
  int64_t instrK = 32 / elemBytes;
  std::string shape = "m16n8k" + std::to_string(instrK);
  llvm::Type *accElem = elem.isInteger(8) ? b.getInt32Ty() : b.getFloatTy();
  int64_t k = bType.getShape()[0];
  MmaTiling tiling = getMmaTiling(mma, accType.getShape());
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];

  // This warp's first M and N tile (warps along M first), from the
  // warp-uniform index; lane l addresses row l % 8 of matrix l / 8.
  llvm::Value *w = wm > 1 || wn > 1 ? uniformWarp() : warp;
  llvm::Value *warpM = b.CreateAnd(w, i32(wm - 1));
  llvm::Value *warpN = b.CreateAnd(b.CreateUDiv(w, i32(wm)), i32(wn - 1));
  llvm::Value *q = b.CreateLShr(lane, i32(3));
  llvm::Value *r = b.CreateAnd(lane, i32(7));
  llvm::Value *qLow = b.CreateAnd(q, i32(1)), *qHigh = b.CreateLShr(q, i32(1));
  // Matrix q of A: rows + 8 (q % 2), K bytes + 16 (q / 2); of B: K bytes
  // + 16 (q % 2), the second tile for q / 2. In elements of K: kChunk; an
  // MN-major (16-bit) operand's rows are K, so the same kChunk of 8.
  llvm::Value *aRow = b.CreateMul(qLow, i32(8)), *aK = b.CreateMul(qHigh, i32(a.kChunk));
  llvm::Value *bK = b.CreateMul(qLow, i32(bOp.kChunk));
  llvm::Value *bTile = qHigh;

  std::optional<MmaTiling> aTiling;
  if (aRegs)
    aTiling = getMmaTiling(cast<MmaEncodingAttr>(aRegs.getEncoding()), aRegs.getShape());

  Elems acc = get(mmaOp.getAcc());
  for (int64_t k0 = 0; k0 < k; k0 += instrK) {
    llvm::Value *kA = b.CreateAdd(aK, i32(k0)), *kB = b.CreateAdd(bK, i32(k0));
    SmallVector<SmallVector<llvm::Value *, 4>> aFrags, bFrags;
    for (unsigned mr = 0; mr < tiling.repM; ++mr) {
      if (aRegs) {
        aFrags.push_back(mmaRegisterFragment(*this, get(mmaOp.getA()), *aTiling, mr, k0));
        continue;
      }
      // Rows 16 (warpM + wm mr) .. + 15.
      llvm::Value *m0 = b.CreateMul(b.CreateAdd(warpM, i32(wm * mr)), i32(16));
      aFrags.push_back(loadMatrices(*this, a, a.rowAddress(*this, b.CreateAdd(m0, aRow), kA, r)));
    }
    for (unsigned nr = 0; nr < tiling.repN; nr += 2) {
      // Columns 8 (warpN + wn (nr + q / 2)) .. + 7.
      llvm::Value *tile = b.CreateAdd(b.CreateMul(bTile, i32(wn)), i32(wn * nr));
      llvm::Value *n0 = b.CreateMul(b.CreateAdd(warpN, tile), i32(8));
      SmallVector<llvm::Value *, 4> regs = loadMatrices(*this, bOp, bOp.rowAddress(*this, n0, kB, r));
      bFrags.push_back({regs[0], regs[1]});
      bFrags.push_back({regs[2], regs[3]});
    }
    for (unsigned mr = 0; mr < tiling.repM; ++mr)
      for (unsigned nr = 0; nr < tiling.repN; ++nr) {
        PtxBuilder ptx(b);
        SmallVector<std::string, 4> outs;
        SmallVector<unsigned, 4> elems;
        for (unsigned j = 0; j < 4; ++j) {
          elems.push_back(tiling.element(mr, nr, j));
          outs.push_back(ptx.output(accElem));
        }
        for (unsigned j = 0; j < 4; ++j)
          ptx.tiedInput(outs[j], acc[elems[j]]);
        auto list = [&](ArrayRef<llvm::Value *> regs) {
          std::string s;
          for (llvm::Value *v : regs)
            s += (s.empty() ? "" : ", ") + ptx.input(v);
          return "{" + s + "}";
        };
        std::string aList = list(aFrags[mr]);
        std::string bList = list(bFrags[nr]);
        std::string d = "{" + outs[0] + ", " + outs[1] + ", " + outs[2] + ", " + outs[3] + "}";
        ptx.line("mma.sync.aligned." + shape + ".row.col." + types + " " + d + ", " + aList +
                 ", " + bList + ", " + d + ";");
        ptx.emit(/*hasSideEffects=*/false);
        for (unsigned j = 0; j < 4; ++j)
          acc[elems[j]] = ptx.result(j);
      }
  }
  set(mmaOp.getResult(), acc);
  return llvm::Error::success();
}

} // namespace blk::gpu
