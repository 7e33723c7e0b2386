//===- MemDesc.cpp - shared-memory buffers: type and ops ------------------===//
//
// !blkgpu.memdesc and local_alloc / local_store / local_load /
// memdesc_index / memdesc_trans: blocks that live in shared memory across
// ops (operands of tensor-core dots, the slots of a software pipeline's
// ring, their transposed views), as opposed to
// the scratch a single op uses inside its lowering (SharedMemory.h).
// Test: tests/lit/blkgpu/memdesc.mlir (round trip, verifier).
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/IR/BlkTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace blk::gpu {

int64_t MemDescType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

MemDescType MemDescType::getTransposed() const {
  SharedEncodingAttr enc = getEncoding();
  if (getShape().size() != 2 || enc.getOrder().size() != 2)
    return {};
  // A 2-D slot's address depends on (row, column) = (the other dim, the
  // order's first dim) only (SmemLayout::offset): reversing both the shape
  // and the order keeps every element's address.
  SharedEncodingAttr swapped =
      SharedEncodingAttr::get(getContext(), enc.getVec(), enc.getPerPhase(), enc.getMaxPhase(),
                              {enc.getOrder()[1], enc.getOrder()[0]}, enc.getPad(), enc.getBlock());
  return MemDescType::get(getContext(), {getShape()[1], getShape()[0]}, getElementType(), swapped);
}

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SharedEncodingAttr encoding;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), ArrayRef<int64_t>(shape),
                                         elementType, encoding);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding() << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  SharedEncodingAttr encoding) {
  if (!encoding || encoding.getOrder().size() > shape.size() || encoding.getOrder().empty())
    return emitError() << "the shared layout's order covers at most the buffer's "
                       << shape.size() << " dims";
  // The block's dims are powers of two; a ring's slot count (num_stages) is
  // any positive number.
  size_t blockDims = encoding.getOrder().size();
  for (auto [i, d] : llvm::enumerate(shape))
    if (d <= 0 || (i + blockDims >= shape.size() && !llvm::isPowerOf2_64(d)))
      return emitError() << "a shared-memory buffer holds a block of static power-of-two "
                            "shape (and any positive number of ring slots)";
  if (!elementType.isIntOrFloat())
    return emitError() << "a shared-memory buffer holds integers or floats, not "
                       << elementType;
  return success();
}

/// The block `type` (a ranked tensor) matches one slot of `buffer`: same
/// element type and the buffer's trailing dims.
static LogicalResult verifySlot(Operation *op, Type type, MemDescType buffer) {
  auto tensor = cast<RankedTensorType>(type);
  ArrayRef<int64_t> shape = buffer.getShape();
  if (tensor.getElementType() != buffer.getElementType() ||
      tensor.getShape() != shape.take_back(tensor.getRank()))
    return op->emitOpError() << "block " << type << " does not match the buffer "
                             << buffer;
  if (tensor.getRank() != int64_t(shape.size()))
    return op->emitOpError() << "moves a whole buffer: index the ring with "
                                "blkgpu.memdesc_index first";
  return success();
}

LogicalResult LocalAllocOp::verify() {
  if (!getSrc())
    return success();
  return verifySlot(*this, getSrc().getType(), getType());
}

LogicalResult LocalStoreOp::verify() {
  return verifySlot(*this, getSrc().getType(), getDst().getType());
}

LogicalResult LocalLoadOp::verify() {
  return verifySlot(*this, getType(), getSrc().getType());
}

LogicalResult MemDescTransOp::verify() {
  MemDescType expected = getSrc().getType().getTransposed();
  if (!expected)
    return emitOpError() << "transposes one 2-D slot, got " << getSrc().getType();
  if (getType() != expected)
    return emitOpError() << "result must be " << expected << " (the same bytes), got "
                         << getType();
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptr = cast<RankedTensorType>(getPtr().getType());
  MemDescType dst = getDst().getType();
  auto pointee = dyn_cast<PtrType>(ptr.getElementType());
  if (!pointee || pointee.getPointeeType() != dst.getElementType() ||
      ptr.getShape() != dst.getShape())
    return emitOpError() << "copies a block of pointers to " << dst.getElementType()
                         << " shaped like the slot " << dst << ", got " << ptr;
  if (getMask() && cast<RankedTensorType>(getMask().getType()).getShape() != ptr.getShape())
    return emitOpError() << "mask must have the pointers' shape";
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), dst = getType();
  if (src.getShape().size() < 2 || dst.getShape() != src.getShape().drop_front() ||
      src.getElementType() != dst.getElementType() || src.getEncoding() != dst.getEncoding())
    return emitOpError() << "result must be one slot of " << src << ", got " << dst;
  return success();
}

} // namespace blk::gpu
