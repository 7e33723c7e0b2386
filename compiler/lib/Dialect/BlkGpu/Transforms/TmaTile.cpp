//===- TmaTile.cpp - is a pipelined load a box TMA can copy? --------------===//
//
// Decomposes the load's pointer block into base + sum over dims of
// mult_d * (start_d + i_d) (+ a uniform offset), the `% m` of a dim's
// index kept as a wrap, and its mask into one `index < bound` per dim;
// then checks what TMA needs (TmaTile.h). Conservative: anything it does
// not recognise answers nullopt, and the load keeps cp.async.
// Tests: tests/lit/blkgpu/pipeline-tma.mlir, tests/lit/codegen/tma-gemm.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/TmaTile.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/IR/BlkTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace blk::gpu {

//===-- Affine --------------------------------------------------------------===//

static bool isI32(Value v) { return v.getType().isInteger(32); }

Affine Affine::of(Value v) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return of(c.getSExtValue());
  Operation *def = v.getDefiningOp();
  if (isI32(v)) {
    if (isa_and_nonnull<arith::AddIOp>(def))
      return of(def->getOperand(0)) + of(def->getOperand(1));
    if (isa_and_nonnull<arith::SubIOp>(def))
      return of(def->getOperand(0)) - of(def->getOperand(1));
    if (isa_and_nonnull<arith::MulIOp>(def))
      if (std::optional<Affine> p = of(def->getOperand(0)).times(of(def->getOperand(1))))
        return *p;
  }
  Affine a;
  a.terms.push_back({v, 1});
  return a;
}

Affine Affine::operator+(const Affine &o) const {
  Affine r = *this;
  r.constant += o.constant;
  for (auto [atom, coef] : o.terms) {
    auto it = llvm::find_if(r.terms, [&](auto &t) { return t.first == atom; });
    if (it == r.terms.end())
      r.terms.push_back({atom, coef});
    else
      it->second += coef;
  }
  llvm::erase_if(r.terms, [](auto &t) { return t.second == 0; });
  return r;
}

Affine Affine::scaled(int64_t k) const {
  if (k == 0)
    return of(0);
  Affine r = *this;
  r.constant *= k;
  for (auto &t : r.terms)
    t.second *= k;
  return r;
}

std::optional<Affine> Affine::times(const Affine &o) const {
  if (std::optional<int64_t> k = o.asConstant())
    return scaled(*k);
  if (std::optional<int64_t> k = asConstant())
    return o.scaled(*k);
  return std::nullopt;
}

std::optional<int64_t> Affine::asConstant() const {
  if (!terms.empty())
    return std::nullopt;
  return constant;
}

int64_t Affine::coefficient(Value atom) const {
  for (auto [a, coef] : terms)
    if (a == atom)
      return coef;
  return 0;
}

Value Affine::build(OpBuilder &b, Location loc) const {
  auto cst = [&](int64_t c) { return b.create<arith::ConstantIntOp>(loc, c, 32).getResult(); };
  Value sum;
  for (auto [atom, coef] : terms) {
    Value term = coef == 1 ? atom : b.create<arith::MulIOp>(loc, atom, cst(coef)).getResult();
    sum = sum ? b.create<arith::AddIOp>(loc, sum, term).getResult() : term;
  }
  if (!sum)
    return cst(constant);
  return constant ? b.create<arith::AddIOp>(loc, sum, cst(constant)).getResult() : sum;
}

//===-- Blocks of indices and pointers ---------------------------------------===//

namespace {

/// mult * ((start + i) % wrap), or mult * (start + i) without a wrap, where
/// i runs along one dim of the block.
struct DimIndex {
  Affine start, mult = Affine::of(1);
  Value wrap;
};

/// An integer block: offset + the DimIndex of each dim that has one.
struct Index {
  Affine offset;
  SmallVector<std::optional<DimIndex>> dims;

  bool uniform() const {
    return llvm::all_of(dims, [](const std::optional<DimIndex> &d) { return !d; });
  }
};

} // namespace

static std::optional<Index> indexOf(Value v, unsigned depth = 0);

static std::optional<Index> sum(std::optional<Index> a, std::optional<Index> b) {
  if (!a || !b || a->dims.size() != b->dims.size())
    return std::nullopt;
  Index r{a->offset + b->offset, a->dims};
  for (auto [i, d] : llvm::enumerate(b->dims)) {
    if (!d)
      continue;
    if (r.dims[i])
      return std::nullopt; // i twice along one dim: not a box
    r.dims[i] = d;
  }
  return r;
}

/// A block times a uniform one.
static std::optional<Index> product(std::optional<Index> a, std::optional<Index> u) {
  if (!a || !u || !u->uniform())
    return std::nullopt;
  std::optional<Affine> offset = a->offset.times(u->offset);
  if (!offset)
    return std::nullopt;
  Index r{*offset, a->dims};
  for (std::optional<DimIndex> &d : r.dims) {
    if (!d)
      continue;
    std::optional<Affine> mult = d->mult.times(u->offset);
    if (!mult)
      return std::nullopt;
    d->mult = *mult;
  }
  return r;
}

static std::optional<Index> indexOf(Value v, unsigned depth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || depth > 32 || !type.getElementType().isInteger(32))
    return std::nullopt;
  size_t rank = type.getRank();
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return Index{Affine::of(c.getSExtValue()), SmallVector<std::optional<DimIndex>>(rank)};
  if (auto splat = dyn_cast<SplatOp>(def))
    return Index{Affine::of(splat.getSrc()), SmallVector<std::optional<DimIndex>>(rank)};
  if (auto range = dyn_cast<MakeRangeOp>(def)) {
    Index r{Affine::of(0), {DimIndex{Affine::of(range.getStart()), Affine::of(1), Value()}}};
    return r;
  }
  if (isa<ConvertLayoutOp, BroadcastOp>(def)) {
    std::optional<Index> src = indexOf(def->getOperand(0), depth + 1);
    if (!src || src->dims.size() != rank)
      return std::nullopt;
    // A broadcast dim had size 1: it held no index.
    return src;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    std::optional<Index> src = indexOf(expand.getSrc(), depth + 1);
    if (!src)
      return std::nullopt;
    src->dims.insert(src->dims.begin() + expand.getAxis(), std::nullopt);
    return src;
  }
  if (auto trans = dyn_cast<TransOp>(def)) {
    std::optional<Index> src = indexOf(trans.getSrc(), depth + 1);
    if (!src)
      return std::nullopt;
    Index r{src->offset, {}};
    for (int32_t d : trans.getOrder())
      r.dims.push_back(src->dims[d]);
    return r;
  }
  if (isa<arith::AddIOp>(def))
    return sum(indexOf(def->getOperand(0), depth + 1), indexOf(def->getOperand(1), depth + 1));
  if (isa<arith::SubIOp>(def)) {
    std::optional<Index> b = indexOf(def->getOperand(1), depth + 1);
    if (!b || !b->uniform())
      return std::nullopt;
    b->offset = b->offset.scaled(-1);
    return sum(indexOf(def->getOperand(0), depth + 1), b);
  }
  if (isa<arith::MulIOp>(def)) {
    std::optional<Index> a = indexOf(def->getOperand(0), depth + 1);
    std::optional<Index> b = indexOf(def->getOperand(1), depth + 1);
    if (a && a->uniform())
      std::swap(a, b);
    return product(a, b);
  }
  if (isa<arith::RemSIOp>(def)) {
    // (offset + start + i) % m along the one indexed dim, m a splat.
    std::optional<Index> a = indexOf(def->getOperand(0), depth + 1);
    auto splat = def->getOperand(1).getDefiningOp<SplatOp>();
    if (!a || !splat)
      return std::nullopt;
    std::optional<DimIndex> *only = nullptr;
    for (std::optional<DimIndex> &d : a->dims) {
      if (!d)
        continue;
      if (only)
        return std::nullopt;
      only = &d;
    }
    if (!only || (*only)->wrap || (*only)->mult.asConstant() != 1)
      return std::nullopt;
    (*only)->start = (*only)->start + a->offset;
    (*only)->wrap = splat.getSrc();
    a->offset = Affine::of(0);
    return a;
  }
  return std::nullopt;
}

namespace {
/// A pointer block: base + index, plus `advance` elements per iteration
/// when it is a loop-carried pointer the loop advances.
struct PtrBlock {
  Value base;
  Index index;
  Affine advance = Affine::of(0);
};
} // namespace

static std::optional<PtrBlock> ptrOf(Value v, scf::ForOp loop, unsigned depth = 0) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || depth > 32)
    return std::nullopt;
  size_t rank = type.getRank();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A pointer the loop carries: its init plus `inc` per iteration, the
    // yield being addptr(arg, inc) with a uniform inc.
    if (arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      return std::nullopt;
    unsigned i = arg.getArgNumber() - 1;
    auto add = loop.getYieldedValues()[i].getDefiningOp<AddPtrOp>();
    if (!add || add.getPtr() != arg)
      return std::nullopt;
    std::optional<Index> inc = indexOf(add.getOffset());
    std::optional<PtrBlock> init = ptrOf(loop.getInitArgs()[i], loop, depth + 1);
    if (!inc || !inc->uniform() || !init || !init->advance.asConstant() ||
        *init->advance.asConstant() != 0)
      return std::nullopt;
    init->advance = inc->offset;
    return init;
  }
  Operation *def = v.getDefiningOp();
  if (auto splat = dyn_cast_or_null<SplatOp>(def)) {
    // A scalar pointer: an argument plus scalar offsets (attention's
    // `k + head + start_n * HEAD_DIM`).
    Value base = splat.getSrc();
    Affine offset = Affine::of(0);
    while (auto add = base.getDefiningOp<AddPtrOp>()) {
      if (isa<RankedTensorType>(add.getOffset().getType()) || !add.getOffset().getType().isInteger(32))
        return std::nullopt;
      offset = offset + Affine::of(add.getOffset());
      base = add.getPtr();
    }
    return PtrBlock{base, Index{offset, SmallVector<std::optional<DimIndex>>(rank)}};
  }
  if (auto add = dyn_cast_or_null<AddPtrOp>(def)) {
    std::optional<PtrBlock> p = ptrOf(add.getPtr(), loop, depth + 1);
    if (!p)
      return std::nullopt;
    std::optional<Index> idx = sum(p->index, indexOf(add.getOffset()));
    if (!idx)
      return std::nullopt;
    p->index = *idx;
    return p;
  }
  if (isa_and_nonnull<ConvertLayoutOp, BroadcastOp>(def))
    return ptrOf(def->getOperand(0), loop, depth + 1);
  if (auto expand = dyn_cast_or_null<ExpandDimsOp>(def)) {
    std::optional<PtrBlock> p = ptrOf(expand.getSrc(), loop, depth + 1);
    if (p)
      p->index.dims.insert(p->index.dims.begin() + expand.getAxis(), std::nullopt);
    return p;
  }
  return std::nullopt;
}

//===-- The box ---------------------------------------------------------------===//

/// A kernel argument (or constant) only: what libblkrt can evaluate.
static bool launchExpressible(const Affine &a) {
  return llvm::all_of(a.terms, [](auto &t) {
    auto arg = dyn_cast<BlockArgument>(t.first);
    return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp());
  });
}

/// The per-dim `index < bound` conjuncts of `mask` (and-ed compares of a
/// block indexed along one dim with a uniform bound): bound - the index's
/// own offset and start, i.e. the count of elements of i that pass.
static bool maskBounds(Value mask, SmallVectorImpl<std::optional<Affine>> &limit) {
  Operation *def = mask.getDefiningOp();
  if (isa_and_nonnull<ConvertLayoutOp, BroadcastOp>(def))
    return maskBounds(def->getOperand(0), limit);
  if (isa_and_nonnull<arith::AndIOp>(def))
    return maskBounds(def->getOperand(0), limit) && maskBounds(def->getOperand(1), limit);
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt)
    return false;
  std::optional<Index> idx = indexOf(cmp.getLhs());
  std::optional<Index> bound = indexOf(cmp.getRhs());
  if (!idx || !bound || !bound->uniform() || idx->dims.size() != limit.size())
    return false;
  int indexed = -1;
  for (auto [d, dim] : llvm::enumerate(idx->dims)) {
    if (!dim)
      continue;
    if (indexed >= 0 || dim->wrap || dim->mult.asConstant() != 1 || limit[d])
      return false;
    indexed = int(d);
  }
  if (indexed < 0)
    return false;
  limit[indexed] = bound->offset - idx->offset - idx->dims[indexed]->start;
  return true;
}

/// True when `v` (a pointer or integer argument) carries a hint that
/// makes it a multiple of `bytes` bytes (as an address, or as a count of
/// `elemBytes`-byte elements).
static bool provenMultiple(Value v, unsigned elemBytes, unsigned bytes, llvm::StringRef hint) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return (c.getSExtValue() * elemBytes) % bytes == 0;
  auto arg = dyn_cast<BlockArgument>(v);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : func::FuncOp();
  if (!func)
    return false;
  auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), hint);
  return attr && (attr.getInt() * elemBytes) % bytes == 0;
}

std::optional<TmaTile> analyzeTmaTile(LoadOp load, scf::ForOp loop, bool throughTrans) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2)
    return std::nullopt;
  std::optional<PtrBlock> ptr = ptrOf(load.getPtr(), loop);
  if (!ptr || !ptr->base || !isa<PtrType>(ptr->base.getType()))
    return std::nullopt;
  unsigned elemBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  if (!elemBytes || !provenMultiple(ptr->base, 1, 16, "blk.aligned"))
    return std::nullopt;
  // The contiguous dim (mult 1) and the strided one (mult: one argument).
  int unit = -1;
  for (int d = 0; d < 2; ++d)
    if (ptr->index.dims[d] && ptr->index.dims[d]->mult.asConstant() == 1)
      unit = d;
  int other = 1 - unit;
  if (unit < 0 || !ptr->index.dims[other])
    return std::nullopt;
  // The row stride: an argument (with a hint) or a constant (a head dim).
  const Affine &mult = ptr->index.dims[other]->mult;
  Value stride;
  std::optional<int64_t> constStride = mult.asConstant();
  if (constStride) {
    if (*constStride <= 0 || (*constStride * elemBytes) % 16 != 0)
      return std::nullopt;
  } else {
    if (mult.constant != 0 || mult.terms.size() != 1 || mult.terms[0].second != 1)
      return std::nullopt;
    stride = mult.terms[0].first;
    if (!launchExpressible(mult) || !provenMultiple(stride, elemBytes, 16, "blk.multiple_of"))
      return std::nullopt;
  }

  // The uniform offset and the advance, split into (rows, columns): the
  // terms of the stride (or of a product with it) are rows, the rest
  // columns. Iteration k of a loop from 0 by 1 is the induction variable.
  auto split = [&](const Affine &a, Affine &rows, Affine &cols) {
    if (constStride) {
      // Whole rows go to rows, the rest to columns.
      for (auto [atom, coef] : a.terms) {
        Affine term;
        term.terms.push_back({atom, coef});
        if (coef % *constStride == 0)
          rows = rows + Affine{{{atom, coef / *constStride}}, 0};
        else
          cols = cols + term;
      }
      rows = rows + Affine::of(a.constant / *constStride);
      cols = cols + Affine::of(a.constant % *constStride);
      return;
    }
    for (auto [atom, coef] : a.terms) {
      if (atom == stride) {
        rows = rows + Affine::of(coef);
        continue;
      }
      auto mul = atom.getDefiningOp<arith::MulIOp>();
      if (mul && (mul.getLhs() == stride || mul.getRhs() == stride)) {
        Value x = mul.getLhs() == stride ? mul.getRhs() : mul.getLhs();
        rows = rows + Affine::of(x).scaled(coef);
        continue;
      }
      Affine term;
      term.terms.push_back({atom, coef});
      cols = cols + term;
    }
    cols = cols + Affine::of(a.constant);
  };
  Affine rowOffset, colOffset, rowStep, colStep;
  split(ptr->index.offset, rowOffset, colOffset);
  split(ptr->advance, rowStep, colStep);
  // A column offset that is not a constant (a batch's base offset) would
  // make the tensor's row longer than the stride says: not this tensor.
  if (!rowStep.asConstant() || !colStep.asConstant() || !colOffset.asConstant())
    return std::nullopt;
  bool advances = *rowStep.asConstant() || *colStep.asConstant();
  if (advances && (Affine::of(loop.getLowerBound()).asConstant() != 0 ||
                   Affine::of(loop.getStep()).asConstant() != 1))
    return std::nullopt;
  Affine iv;
  iv.terms.push_back({loop.getInductionVar(), 1});

  SmallVector<std::optional<Affine>> limit(2);
  if (load.getMask() && !maskBounds(load.getMask(), limit))
    return std::nullopt;

  TmaTile tile;
  tile.base = ptr->base;
  tile.rowStride = constStride ? Affine::of(*constStride) : mult;
  // Tensor dim 0 is the load's dim `other`, tensor dim 1 its dim `unit`.
  int loadDim[2] = {other, unit};
  Affine offsets[2] = {rowOffset, colOffset};
  int64_t steps[2] = {*rowStep.asConstant(), *colStep.asConstant()};
  for (int t = 0; t < 2; ++t) {
    const DimIndex &idx = *ptr->index.dims[loadDim[t]];
    TmaDim &dim = tile.dims[t];
    dim.size = type.getShape()[loadDim[t]];
    dim.start = idx.start + offsets[t] + iv.scaled(steps[t]);
    if (idx.wrap) {
      // The offset and the advance land outside the `%`: not one box.
      if (!offsets[t].asConstant() || *offsets[t].asConstant() != 0 || steps[t] ||
          limit[loadDim[t]])
        return std::nullopt;
      dim.extent = Affine::of(idx.wrap);
      dim.wrapped = true;
    } else if (limit[loadDim[t]]) {
      // i < limit  <=>  start + i < start + limit: the tensor ends there,
      // the same in every iteration.
      dim.extent = dim.start + *limit[loadDim[t]];
    } else if (std::optional<int64_t> start = dim.start.asConstant(); start && *start >= 0) {
      dim.extent = Affine::of(*start + dim.size); // what the box reads, no more
    } else if (t == 0) {
      // Unmasked rows: the load reads every row it addresses.
      dim.extent = Affine::of(kUnboundedExtent);
    } else {
      return std::nullopt; // a row longer than the stride says: not this tensor
    }
    if (dim.extent.coefficient(loop.getInductionVar()) != 0 || !launchExpressible(dim.extent))
      return std::nullopt;
    if (dim.size > 256)
      return std::nullopt;
  }
  // TMA writes the tensor's rows as the slot's rows; the slot holds the
  // load's block, or its transpose through `trans`.
  tile.transposed = (unit == 0) != throughTrans;
  return tile;
}

} // namespace blk::gpu
