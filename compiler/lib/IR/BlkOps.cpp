//===- BlkOps.cpp - builders and verifiers of the blk ops -----------------===//
//
// Shape and element-type rules of docs/ir.md. The reduce/scan ops live in
// BlkReduceOps.cpp, folders and canonicalization patterns in BlkFolds.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkOps.h"
#include "blk/IR/LayoutInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include "blk/IR/BlkEnums.cpp.inc"

#define GET_OP_CLASSES
#include "blk/IR/BlkOps.cpp.inc"

using namespace mlir;

namespace blk {

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

static bool allPowersOfTwo(ArrayRef<int64_t> shape) {
  return llvm::all_of(shape, [](int64_t d) { return llvm::isPowerOf2_64(d); });
}

/// Blocks have static power-of-two dimensions (docs/ir.md).
static LogicalResult verifyBlockType(Operation *op, Type type, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return success();
  if (!allPowersOfTwo(tensor.getShape()))
    return op->emitOpError() << what << " shape " << shapeStr(tensor.getShape())
                             << " has a dimension that is not a power of two";
  return success();
}

//===----------------------------------------------------------------------===//
// make_range, splat, broadcast, expand_dims, reshape, trans
//===----------------------------------------------------------------------===//

void MakeRangeOp::build(OpBuilder &b, OperationState &state, int32_t start,
                        int32_t end) {
  auto type = RankedTensorType::get({end - start}, b.getI32Type());
  build(b, state, type, start, end);
}

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError() << "end (" << end << ") must be greater than start ("
                         << start << ")";
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError() << "length " << end - start
                         << " must be a power of two";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != end - start)
    return emitOpError() << "result must be tensor<" << end - start
                         << "xi32>, got " << type;
  return success();
}

LogicalResult SplatOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  if (type.getElementType() != getSrc().getType())
    return emitOpError() << "result element type " << type.getElementType()
                         << " must be the scalar type " << getSrc().getType();
  return verifyBlockType(*this, type, "result");
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and result element types differ");
  if (src.getRank() != dst.getRank())
    return emitOpError() << "source rank " << src.getRank()
                         << " must equal result rank " << dst.getRank();
  for (auto [s, d] : llvm::zip(src.getShape(), dst.getShape()))
    if (s != d && s != 1)
      return emitOpError() << "cannot broadcast " << shapeStr(src.getShape())
                           << " to " << shapeStr(dst.getShape());
  return verifyBlockType(*this, dst, "result");
}

/// The result type of expand_dims; failure when the source's layout
/// encoding cannot be expanded (LayoutInference.h).
static FailureOr<RankedTensorType> expandedType(RankedTensorType src, int32_t axis) {
  SmallVector<int64_t> shape(src.getShape());
  shape.insert(shape.begin() + axis, 1);
  FailureOr<Attribute> enc = inferExpandDimsEncoding(src.getEncoding(), axis);
  if (failed(enc))
    return failure();
  return RankedTensorType::get(shape, src.getElementType(), *enc);
}

void ExpandDimsOp::build(OpBuilder &b, OperationState &state, Value src,
                         int32_t axis) {
  auto srcType = cast<RankedTensorType>(src.getType());
  FailureOr<RankedTensorType> type = expandedType(srcType, axis);
  if (failed(type)) // the verifier reports it
    type = expandedType(RankedTensorType::get(srcType.getShape(), srcType.getElementType()), axis);
  build(b, state, *type, src, axis);
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis << " out of range for rank "
                         << src.getRank();
  FailureOr<RankedTensorType> expected = expandedType(src, axis);
  if (failed(expected))
    return emitOpError() << "cannot expand a block with layout " << src.getEncoding()
                         << " along axis " << axis;
  if (getType() != *expected)
    return emitOpError() << "result type must be " << *expected << ", got "
                         << getType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and result element types differ");
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError() << "cannot reshape " << shapeStr(src.getShape())
                         << " (" << src.getNumElements() << " elements) to "
                         << shapeStr(dst.getShape()) << " ("
                         << dst.getNumElements() << " elements)";
  return verifyBlockType(*this, dst, "result");
}

/// The result type of trans; failure when the source's layout encoding
/// cannot be permuted (LayoutInference.h).
static FailureOr<RankedTensorType> transposedType(RankedTensorType src,
                                                  ArrayRef<int32_t> order) {
  SmallVector<int64_t> shape;
  for (int32_t d : order)
    shape.push_back(src.getDimSize(d));
  FailureOr<Attribute> enc = inferTransEncoding(src.getEncoding(), order);
  if (failed(enc))
    return failure();
  return RankedTensorType::get(shape, src.getElementType(), *enc);
}

static bool isPermutation(ArrayRef<int32_t> order) {
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= static_cast<int32_t>(order.size()) || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

void TransOp::build(OpBuilder &b, OperationState &state, Value src,
                    ArrayRef<int32_t> order) {
  auto srcType = cast<RankedTensorType>(src.getType());
  FailureOr<RankedTensorType> type = transposedType(srcType, order);
  if (failed(type)) // the verifier reports it
    type = transposedType(RankedTensorType::get(srcType.getShape(), srcType.getElementType()), order);
  build(b, state, *type, src, order);
}

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != src.getRank() ||
      !isPermutation(order))
    return emitOpError() << "order must be a permutation of the "
                         << src.getRank() << " source dimensions";
  FailureOr<RankedTensorType> expected = transposedType(src, order);
  if (failed(expected))
    return emitOpError() << "cannot transpose a block with layout " << src.getEncoding();
  if (getType() != *expected)
    return emitOpError() << "result type must be " << *expected << ", got "
                         << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// addptr, load, store, atomics
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptr = getPtr().getType(), offset = getOffset().getType();
  if (getShapeOrEmpty(ptr) != getShapeOrEmpty(offset) ||
      isa<RankedTensorType>(ptr) != isa<RankedTensorType>(offset))
    return emitOpError() << "offset type " << offset
                         << " must have the shape of the pointer type " << ptr;
  return success();
}

LogicalResult PtrCastOp::verify() {
  if (getShapeOrEmpty(getSrc().getType()) != getShapeOrEmpty(getType()) ||
      isa<RankedTensorType>(getSrc().getType()) != isa<RankedTensorType>(getType()))
    return emitOpError("source and result must have the same shape");
  return success();
}

LogicalResult PtrToIntOp::verify() {
  if (getShapeOrEmpty(getSrc().getType()) != getShapeOrEmpty(getType()) ||
      isa<RankedTensorType>(getSrc().getType()) != isa<RankedTensorType>(getType()))
    return emitOpError("source and result must have the same shape");
  return success();
}

void LoadOp::build(OpBuilder &b, OperationState &state, Value ptr, Value mask,
                   Value other) {
  build(b, state, getPointeeType(ptr.getType()), ptr, mask, other,
        CacheModifier::none, EvictionPolicy::normal, /*isVolatile=*/false);
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("`other` requires a `mask`");
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  // A volatile load must neither be removed nor merged with another one.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
}

void AtomicRMWOp::build(OpBuilder &b, OperationState &state,
                        AtomicRMWKind kind, Value ptr, Value value,
                        Value mask) {
  build(b, state, getPointeeType(ptr.getType()), kind, ptr, value, mask);
}

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getValue().getType());
  bool isFloat = isa<FloatType>(elem);
  switch (getKind()) {
  case AtomicRMWKind::fadd:
    if (!isFloat)
      return emitOpError() << "`fadd` needs a float element type, got " << elem;
    break;
  case AtomicRMWKind::add:
  case AtomicRMWKind::umax:
  case AtomicRMWKind::umin:
  case AtomicRMWKind::and_:
  case AtomicRMWKind::or_:
  case AtomicRMWKind::xor_:
    if (isFloat)
      return emitOpError() << "`" << stringifyAtomicRMWKind(getKind())
                           << "` needs an integer element type, got " << elem;
    break;
  default:
    break;
  }
  if (elem.getIntOrFloatBitWidth() < 16 && getKind() != AtomicRMWKind::xchg &&
      !isFloat)
    return emitOpError() << "atomics need elements of at least 16 bits, got "
                         << elem;
  return success();
}

LogicalResult AtomicCASOp::verify() {
  unsigned width = getElementTypeOrSelf(getVal().getType()).getIntOrFloatBitWidth();
  if (width != 16 && width != 32 && width != 64)
    return emitOpError() << "atomic_cas needs 16-, 32- or 64-bit elements";
  return success();
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (a.getRank() != 2 || b.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("operands must be rank-2 blocks");
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError() << "inner dimensions differ: a is "
                         << shapeStr(a.getShape()) << ", b is "
                         << shapeStr(b.getShape());
  if (acc.getDimSize(0) != a.getDimSize(0) ||
      acc.getDimSize(1) != b.getDimSize(1))
    return emitOpError() << "accumulator shape " << shapeStr(acc.getShape())
                         << " must be [" << a.getDimSize(0) << ", "
                         << b.getDimSize(1) << "]";
  Type ea = a.getElementType(), eb = b.getElementType();
  Type ec = acc.getElementType();
  // e4m3 x e5m2 is allowed (wgmma has the mixed forms); other kinds must match.
  if (ea != eb && !(isFp8Type(ea) && isFp8Type(eb)))
    return emitOpError() << "a and b element types differ: " << ea << " vs "
                         << eb;
  bool floatIn = ea.isF16() || ea.isBF16() || ea.isF32() || isFp8Type(ea);
  bool intIn = ea.isInteger(8);
  if (!floatIn && !intIn)
    return emitOpError() << "input element type must be f16, bf16, f32, "
                            "f8E4M3FN, f8E5M2 or i8, got "
                         << ea;
  if (floatIn && !ec.isF32())
    return emitOpError() << "float inputs need an f32 accumulator, got " << ec;
  if (intIn && !ec.isInteger(32))
    return emitOpError() << "i8 inputs need an i32 accumulator, got " << ec;
  if (std::optional<StringRef> precision = getPrecision()) {
    if (!ea.isF32())
      return emitOpError() << "precision applies to f32 inputs, got " << ea;
    if (*precision != "tf32" && *precision != "tf32x3" && *precision != "ieee")
      return emitOpError() << "precision must be \"tf32\", \"tf32x3\" or \"ieee\", got \""
                           << *precision << "\"";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// hints
//===----------------------------------------------------------------------===//

static LogicalResult verifyHint(Operation *op, Type type,
                                ArrayRef<int32_t> values) {
  size_t rank = getShapeOrEmpty(type).size();
  size_t expected = rank == 0 ? 1 : rank;
  if (values.size() != expected)
    return op->emitOpError() << "needs " << expected
                             << " value(s), one per dimension, got "
                             << values.size();
  if (llvm::any_of(values, [](int32_t v) { return v < 1; }))
    return op->emitOpError("hint values must be positive");
  if (!getElementTypeOrSelf(type).isSignlessInteger() && !isPtrLike(type))
    return op->emitOpError("hints apply to integers and pointers");
  return success();
}

LogicalResult MultipleOfOp::verify() {
  return verifyHint(*this, getType(), getValues());
}

LogicalResult MaxContiguousOp::verify() {
  return verifyHint(*this, getType(), getValues());
}

} // namespace blk
