//===- SharedMemory.cpp - the shared-memory model of each op --------------===//
//
// See SharedMemory.h. Host-side functions only; the emitter turns the same
// layouts into address arithmetic. The bank-conflict model of moves:
// stores to shared memory and loads back in another layout; which dim is
// contiguous, how much padding and which XOR swizzle make both sides
// conflict-free depends on the two layouts, so the candidates are compared
// by simulating warp 0's accesses: 32 banks of 4 bytes, one wavefront per
// 128 bytes of a warp access, and as many wavefronts as the most distinct
// words any bank must serve. Vector accesses (up to 16 bytes) are used where
// a thread's run of elements is contiguous and aligned in the chosen layout.
// Tests: tests/lit/blkgpu/choose-shared-layouts.mlir,
// tests/lit/codegen/convert-layout-transpose.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "blk/IR/BlkOps.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

using namespace mlir;

namespace blk::gpu {

//===----------------------------------------------------------------------===//
// Moves
//===----------------------------------------------------------------------===//

static int64_t linearize(ArrayRef<int64_t> c, ArrayRef<int64_t> shape) {
  int64_t lin = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    lin = lin * shape[d] + c[d];
  return lin;
}

SmallVector<int64_t> CoordMap::apply(ArrayRef<int64_t> dst) const {
  SmallVector<int64_t> src;
  switch (kind) {
  case Identity:
    return SmallVector<int64_t>(dst.begin(), dst.end());
  case Broadcast:
    for (unsigned d = 0; d < dst.size(); ++d)
      src.push_back(srcShape[d] == 1 ? 0 : dst[d]);
    return src;
  case DropDim:
    for (unsigned d = 0; d < dst.size(); ++d)
      if (d != dim)
        src.push_back(dst[d]);
    return src;
  case Permute:
    src.assign(dst.size(), 0);
    for (unsigned i = 0; i < dst.size(); ++i)
      src[perm[i]] = dst[i];
    return src;
  case Reshape: {
    int64_t lin = linearize(dst, dstShape);
    src.assign(srcShape.size(), 0);
    for (int d = srcShape.size() - 1; d >= 0; --d) {
      src[d] = lin % srcShape[d];
      lin /= srcShape[d];
    }
    return src;
  }
  }
  return src;
}

int CoordMap::srcDimOf(unsigned dstDim) const {
  switch (kind) {
  case Identity:
    return dstDim;
  case Broadcast:
    return srcShape[dstDim] == 1 ? -1 : int(dstDim);
  case DropDim:
    return dstDim == unsigned(dim) ? -1 : int(dstDim < dim ? dstDim : dstDim - 1);
  case Permute:
    return perm[dstDim];
  case Reshape:
    return -1;
  }
  return -1;
}

static std::optional<LayoutView> viewOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return std::nullopt;
  return getLayoutView(type.getEncoding(), type.getShape());
}

std::optional<Move> getMove(Operation *op) {
  if (!isa<BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp, ConvertLayoutOp>(op))
    return std::nullopt;
  std::optional<LayoutView> src = viewOf(op->getOperand(0));
  std::optional<LayoutView> dst = viewOf(op->getResult(0));
  if (!src || !dst)
    return std::nullopt;
  Move move{*src, *dst, CoordMap(), cast<RankedTensorType>(op->getResult(0).getType()).getElementType()};
  CoordMap &map = move.map;
  map.srcShape = src->shape;
  map.dstShape = dst->shape;
  if (isa<BroadcastOp>(op)) {
    map.kind = CoordMap::Broadcast;
  } else if (auto ed = dyn_cast<ExpandDimsOp>(op)) {
    map.kind = CoordMap::DropDim;
    map.dim = ed.getAxis();
  } else if (isa<ReshapeOp>(op)) {
    map.kind = CoordMap::Reshape;
  } else if (auto tr = dyn_cast<TransOp>(op)) {
    map.kind = CoordMap::Permute;
    for (int32_t p : tr.getOrder())
      map.perm.push_back(p);
  }
  return move;
}

bool needsSharedMemory(const Move &move) {
  auto hostMap = [&](ArrayRef<int64_t> c) { return move.map.apply(c); };
  return !getRegisterMapping(move.src, move.dst, hostMap).has_value();
}

unsigned getMemBytes(Type type) {
  type = blk::getElementTypeOrSelf(type);
  if (isa<PtrType>(type) || type.isIndex())
    return 8;
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

//===----------------------------------------------------------------------===//
// Shared layouts of moves
//===----------------------------------------------------------------------===//

int64_t SmemLayout::numRows() const {
  int64_t n = 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != inner)
      n *= shape[d];
  return n;
}

int64_t SmemLayout::offset(ArrayRef<int64_t> c) const {
  int64_t row = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != inner)
      row = row * shape[d] + c[d];
  int64_t colBlock = c[inner] / blockLen(), col = c[inner] % blockLen();
  int64_t group = (col / swizzleVec) ^ ((row / perPhase) % maxPhase);
  return (colBlock * numRows() + row) * (blockLen() + pad) + group * swizzleVec +
         col % swizzleVec;
}

unsigned runLength(const LayoutView &v, unsigned dim) {
  return v.sizeEff[v.kept[dim]];
}

SmallVector<std::pair<unsigned, unsigned>> vectorRuns(const LayoutView &v, unsigned dim,
                                                      unsigned vec) {
  unsigned d = v.kept[dim];
  unsigned stride = 1;
  for (unsigned k = d + 1; k < v.perDim.size(); ++k)
    stride *= v.perDim[k];
  SmallVector<std::pair<unsigned, unsigned>> runs;
  for (unsigned i = 0, e = v.numElems(); i < e; ++i)
    if (((i / stride) % v.perDim[d]) % vec == 0)
      runs.push_back({i, stride});
  return runs;
}

/// The dst dim whose neighbours are neighbours along src dim `inner`.
static int dstDimFor(const CoordMap &map, unsigned inner, unsigned dstRank,
                     ArrayRef<int64_t> dstShape) {
  int found = -1;
  for (unsigned d = 0; d < dstRank; ++d)
    if (dstShape[d] > 1 && map.srcDimOf(d) == int(inner))
      found = d;
  return found;
}

/// Widest access (elements) along a run of `run` elements in layout `s`.
static unsigned accessWidth(const SmemLayout &s, unsigned run, unsigned elemBytes) {
  unsigned w = 1;
  while (w * 2 <= run && w * 2 * elemBytes <= 16 && (s.rowLen() + s.pad) % (w * 2) == 0 &&
         (s.maxPhase == 1 || w * 2 <= s.swizzleVec))
    w *= 2;
  return w;
}

/// Sets the access widths of `s` for `move`.
static void setAccessWidths(SmemLayout &s, const Move &move, unsigned elemBytes) {
  int dstDim = dstDimFor(move.map, s.inner, move.dst.rank(), move.dst.shape);
  s.writeVec = accessWidth(s, runLength(move.src, s.inner), elemBytes);
  s.readVec = dstDim >= 0 ? accessWidth(s, runLength(move.dst, dstDim), elemBytes) : 1;
}

/// Warp 0's accesses on one side of a move: for each run (vector access),
/// the source coordinates of the first element for each of the 32 lanes.
using WarpAccesses = std::vector<SmallVector<SmallVector<int64_t>, 32>>;

static WarpAccesses warpAccesses(const LayoutView &v, unsigned dim, unsigned w,
                                 const CoordMap *map) {
  WarpAccesses out;
  for (auto [first, stride] : vectorRuns(v, dim, w)) {
    SmallVector<SmallVector<int64_t>, 32> lanes;
    for (unsigned lane = 0; lane < 32; ++lane) {
      SmallVector<int64_t> c = v.coords(first, lane, 0);
      lanes.push_back(map ? map->apply(c) : c);
    }
    out.push_back(std::move(lanes));
  }
  return out;
}

/// Wavefronts for `accesses` of `w` elements each in layout `s`.
static int64_t simulate(const SmemLayout &s, const WarpAccesses &accesses, unsigned w,
                        unsigned elemBytes) {
  unsigned accessBytes = w * elemBytes;
  unsigned lanesPerPhase = std::clamp<unsigned>(128 / std::max(accessBytes, 4u), 1, 32);
  int64_t cost = 0;
  SmallVector<std::pair<int64_t, int64_t>, 128> touched; // (bank, word)
  for (const auto &lanes : accesses) {
    for (unsigned phase = 0; phase < 32; phase += lanesPerPhase) {
      touched.clear();
      for (unsigned lane = phase; lane < phase + lanesPerPhase; ++lane) {
        int64_t byte = s.offset(lanes[lane]) * elemBytes;
        for (int64_t word = byte / 4; word <= (byte + accessBytes - 1) / 4; ++word)
          touched.push_back({word % 32, word});
      }
      llvm::sort(touched);
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      int64_t worst = 1, run = 0;
      for (size_t i = 0; i < touched.size(); ++i) {
        run = (i && touched[i].first == touched[i - 1].first) ? run + 1 : 1;
        worst = std::max(worst, run);
      }
      cost += worst;
    }
  }
  return cost;
}

SmemLayout chooseSmemLayout(const Move &move) {
  const LayoutView &src = move.src, &dst = move.dst;
  const CoordMap &map = move.map;
  unsigned elemBytes = getMemBytes(move.elemType);
  // Candidates: plain rows, padded rows, or XOR-swizzled rows.
  struct Shape {
    int64_t pad;
    unsigned sv, pp, mp;
  };
  SmallVector<Shape> shapes;
  for (int64_t pad : {0, 1, 2, 4, 8})
    shapes.push_back({pad, 1, 1, 1});
  for (unsigned sv : {1u, 2u, 4u, 8u})
    for (unsigned pp : {1u, 2u, 4u})
      for (unsigned mp : {2u, 4u, 8u, 16u})
        shapes.push_back({0, sv, pp, mp});

  std::map<std::tuple<int, unsigned, unsigned>, WarpAccesses> cache;
  auto accesses = [&](bool write, unsigned dim, unsigned w) -> const WarpAccesses & {
    auto key = std::make_tuple(int(write), dim, w);
    auto it = cache.find(key);
    if (it == cache.end())
      it = cache.emplace(key, write ? warpAccesses(src, dim, w, nullptr)
                                    : warpAccesses(dst, dim, w, &map)).first;
    return it->second;
  };

  SmemLayout best;
  best.shape = src.shape;
  best.inner = src.rank() - 1;
  int64_t bestCost = -1;
  for (unsigned inner = 0; inner < src.rank(); ++inner) {
    if (src.shape[inner] == 1 && inner != src.rank() - 1)
      continue;
    int dstDim = dstDimFor(map, inner, dst.rank(), dst.shape);
    for (const Shape &shape : shapes) {
      if (shape.sv * shape.mp > src.shape[inner])
        continue;
      SmemLayout s;
      s.shape = src.shape;
      s.inner = inner;
      s.pad = shape.pad;
      s.swizzleVec = shape.sv;
      s.perPhase = shape.pp;
      s.maxPhase = shape.mp;
      setAccessWidths(s, move, elemBytes);
      int64_t cost =
          simulate(s, accesses(true, inner, s.writeVec), s.writeVec, elemBytes) +
          simulate(s, accesses(false, dstDim >= 0 ? dstDim : 0, s.readVec), s.readVec,
                   elemBytes);
      if (bestCost < 0 || cost < bestCost ||
          (cost == bestCost && s.sizeElems() < best.sizeElems())) {
        best = s;
        bestCost = cost;
      }
    }
  }
  return best;
}

SharedEncodingAttr getSharedEncoding(MLIRContext *ctx, const SmemLayout &layout) {
  SmallVector<unsigned> order = {layout.inner};
  for (unsigned d = 0; d < layout.shape.size(); ++d)
    if (d != layout.inner)
      order.push_back(d);
  return SharedEncodingAttr::get(ctx, layout.swizzleVec, layout.perPhase, layout.maxPhase,
                                 order, unsigned(layout.pad), unsigned(layout.block));
}

SmemLayout getSmemLayout(SharedEncodingAttr attr, const Move &move) {
  SmemLayout s;
  s.shape = move.src.shape;
  s.inner = attr.getOrder()[0];
  s.pad = attr.getPad();
  s.swizzleVec = attr.getVec();
  s.perPhase = attr.getPerPhase();
  s.maxPhase = attr.getMaxPhase();
  setAccessWidths(s, move, getMemBytes(move.elemType));
  return s;
}

//===----------------------------------------------------------------------===//
// Buffers (local_alloc)
//===----------------------------------------------------------------------===//

SmemLayout getSlotLayout(MemDescType type) {
  SharedEncodingAttr enc = type.getEncoding();
  size_t blockDims = enc.getOrder().size();
  SmemLayout s;
  s.shape.assign(type.getShape().end() - blockDims, type.getShape().end());
  s.inner = enc.getOrder()[0];
  s.pad = enc.getPad();
  s.block = enc.getBlock();
  s.swizzleVec = enc.getVec();
  s.perPhase = enc.getPerPhase();
  s.maxPhase = enc.getMaxPhase();
  return s;
}

uint64_t getSlotBytes(MemDescType type) {
  return getSlotLayout(type).sizeElems() * getMemBytes(type.getElementType());
}

uint64_t getBufferBytes(MemDescType type) {
  size_t blockDims = type.getEncoding().getOrder().size();
  uint64_t slots = 1;
  for (int64_t d : type.getShape().drop_back(blockDims))
    slots *= d;
  return slots * getSlotBytes(type);
}

Operation *getBufferAlloc(Value memdesc) {
  Operation *def = memdesc.getDefiningOp();
  while (isa_and_nonnull<MemDescIndexOp, MemDescTransOp>(def))
    def = def->getOperand(0).getDefiningOp();
  return isa_and_nonnull<LocalAllocOp>(def) ? def : nullptr;
}

//===----------------------------------------------------------------------===//
// Scratch of reductions, scans, dots and atomics
//===----------------------------------------------------------------------===//

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

unsigned getReduceWarps(Operation *reduce) {
  auto red = cast<ReduceOp>(reduce);
  std::optional<LayoutView> v = viewOf(red.getSrcs()[0]);
  if (!v)
    return 1;
  return v->distinctWarps(v->kept[red.getAxis()]);
}

std::optional<ScratchArrays> getReduceScratch(Operation *reduce) {
  auto red = cast<ReduceOp>(reduce);
  std::optional<LayoutView> v = viewOf(red.getSrcs()[0]);
  unsigned warps = getReduceWarps(reduce);
  if (!v || warps <= 1)
    return std::nullopt;
  int64_t outNumel = 1;
  for (unsigned d = 0; d < v->rank(); ++d)
    if (d != unsigned(red.getAxis()))
      outNumel *= v->shape[d];
  ScratchArrays arrays;
  for (Value src : red.getSrcs()) {
    arrays.offsets.push_back(arrays.total);
    arrays.total =
        llvm::alignTo(arrays.total + outNumel * warps * getMemBytes(src.getType()), 16);
  }
  return arrays;
}

std::optional<ScratchArrays> getScanScratch(Operation *scan) {
  auto sc = cast<ScanOp>(scan);
  std::optional<LayoutView> v = viewOf(sc.getSrcs()[0]);
  if (!v)
    return std::nullopt;
  int64_t numel = numElements(v->shape);
  ScratchArrays arrays;
  for (Value src : sc.getSrcs()) {
    arrays.offsets.push_back(arrays.total);
    arrays.total = llvm::alignTo(arrays.total + numel * getMemBytes(src.getType()), 16);
  }
  return arrays;
}

int64_t getDotAStride(Operation *dot) {
  auto a = cast<RankedTensorType>(cast<DotOp>(dot).getA().getType());
  return a.getDimSize(1) + 1; // one element of padding against bank conflicts
}

std::optional<ScratchArrays> getDotScratch(Operation *dot) {
  auto d = cast<DotOp>(dot);
  auto a = cast<RankedTensorType>(d.getA().getType());
  auto b = cast<RankedTensorType>(d.getB().getType());
  uint64_t bytes = getMemBytes(a.getElementType());
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
  ScratchArrays arrays;
  arrays.offsets = {0, llvm::alignTo(m * getDotAStride(dot) * bytes, 16)};
  arrays.total = arrays.offsets[1] + k * n * bytes;
  return arrays;
}

/// An atomic whose old value is used: a scalar one broadcasts thread 0's
/// result, a block one in a replicated layout gives the copies the owners'.
static uint64_t atomicScratchBytes(Operation *op) {
  if (op->getResult(0).use_empty())
    return 0;
  std::optional<LayoutView> v = viewOf(op->getOperand(0));
  if (!v)
    return 16;
  if (!v->hasReplicas())
    return 0;
  return numElements(v->shape) * getMemBytes(op->getResult(0).getType());
}

uint64_t getScratchBytes(Operation *op) {
  if (auto attr = op->getAttrOfType<SharedEncodingAttr>(kScratchLayoutAttr)) {
    std::optional<Move> move = getMove(op);
    if (!move)
      return 0;
    return getSmemLayout(attr, *move).sizeElems() * getMemBytes(move->elemType);
  }
  std::optional<ScratchArrays> arrays;
  if (isa<ReduceOp>(op))
    arrays = getReduceScratch(op);
  else if (isa<ScanOp>(op))
    arrays = getScanScratch(op);
  else if (isa<DotOp>(op))
    arrays = getDotScratch(op);
  else if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return atomicScratchBytes(op);
  return arrays ? arrays->total : 0;
}

} // namespace blk::gpu
