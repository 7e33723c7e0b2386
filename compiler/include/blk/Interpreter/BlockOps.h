//===- BlockOps.h - whole-block operations of the interpreter ---*- C++ -*-===//
//
// The arithmetic, shape, reduction and linear-algebra kernels the executor
// calls, one call per IR op over all elements of a block. Elementwise
// operands have equal sizes, or one of them has a single element that
// stretches (combiner regions are evaluated over many lanes at once with
// their scalar constants). Results are rounded to their element kind.
// Tests: tests/unit/Interpreter/BlockOpsTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_BLOCKOPS_H
#define BLK_INTERPRETER_BLOCKOPS_H

#include "blk/Interpreter/Block.h"

#include <functional>
#include <string>

namespace blk::interp {

/// Binary elementwise operations (the arith/math op they implement).
enum class BinOp : uint8_t {
  // Integer (signless storage, the op says signed or unsigned).
  Add, Sub, Mul, DivS, DivU, RemS, RemU, CeilDivS, FloorDivS, And, Or, Xor,
  Shl, ShrS, ShrU, MaxS, MaxU, MinS, MinU,
  // Float.
  FAdd, FSub, FMul, FDiv, FRem, FMaximum, FMinimum, FMaxNum, FMinNum, FPow,
  FAtan2, FCopySign
};
/// Unary elementwise operations.
enum class UnOp : uint8_t {
  FNeg, Exp, Exp2, Log, Log2, Log1p, Expm1, Sqrt, Rsqrt, FAbs, IAbs, Floor, Ceil,
  Round, RoundEven, Trunc, Sin, Cos, Tan, Tanh, Erf, Atan
};
/// Comparison predicates (integer ones first, then ordered/unordered floats).
enum class CmpPred : uint8_t {
  Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge,
  FFalse, FOeq, FOgt, FOge, FOlt, FOle, FOne, FOrd, FUeq, FUgt, FUge, FUlt,
  FUle, FUne, FUno, FTrue
};
/// Conversions of arith.
enum class CastOp : uint8_t {
  SIToFP, UIToFP, FPToSI, FPToUI, ExtF, TruncF, ExtSI, ExtUI, TruncI, Bitcast, IndexCast
};

/// a op b, result of a's kind.
Block binary(BinOp op, const Block &a, const Block &b);
/// op a, result of a's kind.
Block unary(UnOp op, const Block &a);
/// a*b + c, rounded once.
Block fusedMulAdd(const Block &a, const Block &b, const Block &c);
/// Comparison giving an i1 block.
Block compare(CmpPred pred, const Block &a, const Block &b);
/// cond ? a : b elementwise (cond may be a scalar).
Block select(const Block &cond, const Block &a, const Block &b);
/// Conversion of `a` to kind `to`.
Block cast(CastOp op, const Block &a, ElemKind to);

/// A block of `shape` holding `scalar` everywhere.
Block splat(const Block &scalar, const Shape &shape);
/// Stretches dims of 1 of `a` to `shape` (same rank).
Block broadcastTo(const Block &a, const Shape &shape);
/// Same elements, new shape.
Block reshape(Block a, const Shape &shape);
/// Inserts a dimension of 1 before `axis`.
Block expandDims(Block a, int64_t axis);
/// Result dim k is input dim order[k].
Block permute(const Block &a, const std::vector<int64_t> &order);
/// i32 block [start, end).
Block makeRange(int64_t start, int64_t end);
/// Pointer block + element offsets (shapes equal or scalar offsets); the
/// encoded byte offset advances by offset * sizeof(pointee).
Block addPtr(const Block &ptrs, const Block &offsets);
/// acc + a[M,K] @ b[K,N]: float inputs accumulate in f32, integers in i32.
Block dot(const Block &a, const Block &b, const Block &acc);

/// A combiner of reduce/scan: `lhs` and `rhs` hold one block per operand,
/// all of the same lane count; writes one block per operand to `out`.
/// Returns false (after recording its own error) to abort.
using Combiner = std::function<bool(const std::vector<Block> &lhs,
                                    const std::vector<Block> &rhs,
                                    std::vector<Block> &out)>;

/// Reduces `inputs` (same shape) along `axis` in a fixed pairwise order:
/// while the axis has L > 1 elements, element j combines with element
/// j + ceil(L/2). The combiner sees every lane of one level at once. A rank-1
/// input reduces to scalars. Returns false if the combiner failed.
bool reduceAlong(const std::vector<Block> &inputs, int64_t axis,
                 const Combiner &combine, std::vector<Block> &results);
/// Inclusive scan of `inputs` along `axis`, sequential from the start (or
/// the end when `reverse`), every other lane at once.
bool scanAlong(const std::vector<Block> &inputs, int64_t axis, bool reverse,
               const Combiner &combine, std::vector<Block> &results);

} // namespace blk::interp

#endif // BLK_INTERPRETER_BLOCKOPS_H
