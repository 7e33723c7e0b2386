//===- BlkOpPlan.cpp - classify `blk` dialect ops by name ------------------===//
//
// Attributes are read generically (op->getAttr works for properties and for
// unregistered ops alike), so this file needs no dialect headers.
//
//===----------------------------------------------------------------------===//
#include "Plan.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

namespace blk::interp {

using namespace mlir;

static std::optional<int64_t> intAttr(Operation *op, StringRef name) {
  Attribute a = op->getAttr(name);
  if (auto ia = dyn_cast_or_null<IntegerAttr>(a))
    return ia.getValue().getSExtValue();
  if (auto ba = dyn_cast_or_null<BoolAttr>(a))
    return ba.getValue() ? 1 : 0;
  return std::nullopt;
}

static std::vector<int64_t> intArrayAttr(Attribute a) {
  std::vector<int64_t> out;
  if (auto d = dyn_cast_or_null<DenseI32ArrayAttr>(a))
    out.assign(d.asArrayRef().begin(), d.asArrayRef().end());
  else if (auto d = dyn_cast_or_null<DenseI64ArrayAttr>(a))
    out.assign(d.asArrayRef().begin(), d.asArrayRef().end());
  else if (auto arr = dyn_cast_or_null<ArrayAttr>(a))
    for (Attribute e : arr)
      if (auto ia = dyn_cast<IntegerAttr>(e))
        out.push_back(ia.getValue().getSExtValue());
  return out;
}

/// A string attribute, or the last identifier of an enum attribute's
/// printed form (`#blk<rmw add>` gives "add").
static std::string textAttr(Operation *op, StringRef name) {
  Attribute a = op->getAttr(name);
  if (!a)
    return "";
  if (auto s = dyn_cast<StringAttr>(a))
    return s.getValue().str();
  std::string text;
  llvm::raw_string_ostream os(text);
  a.print(os);
  os.flush();
  size_t end = text.find_last_of("abcdefghijklmnopqrstuvwxyz");
  if (end == std::string::npos)
    return text;
  size_t begin = text.find_last_not_of("abcdefghijklmnopqrstuvwxyz_", end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - begin);
}

/// Operand segment sizes of an AttrSizedOperandSegments op, if present.
static std::vector<int64_t> segments(Operation *op) {
  return intArrayAttr(op->getAttr("operandSegmentSizes"));
}

bool classifyBlkOp(Operation *op, OpPlan &p, std::string &error) {
  StringRef name = op->getName().getStringRef();
  using K = OpKind;
  std::optional<OpKind> kind = llvm::StringSwitch<std::optional<OpKind>>(name)
      .Case("blk.program_id", K::ProgramId)
      .Case("blk.num_programs", K::NumPrograms)
      .Case("blk.make_range", K::MakeRange)
      .Case("blk.splat", K::Splat)
      .Case("blk.broadcast", K::Broadcast)
      .Case("blk.expand_dims", K::ExpandDims)
      .Case("blk.reshape", K::Reshape)
      .Case("blk.trans", K::Trans)
      .Case("blk.addptr", K::AddPtr)
      .Case("blk.ptr_cast", K::PtrCast)
      .Case("blk.ptr_to_int", K::PtrToInt)
      .Case("blk.load", K::Load)
      .Case("blk.store", K::Store)
      .Case("blk.atomic_rmw", K::AtomicRmw)
      .Case("blk.atomic_cas", K::AtomicCas)
      .Case("blk.reduce", K::Reduce)
      .Case("blk.scan", K::Scan)
      .Case("blk.reduce.return", K::CombinerReturn)
      .Case("blk.scan.return", K::CombinerReturn)
      .Case("blk.dot", K::Dot)
      .Case("blk.print", K::Print)
      .Case("blk.assert", K::Assert)
      .Case("blk.multiple_of", K::Identity)
      .Case("blk.max_contiguous", K::Identity)
      .Default(std::nullopt);
  if (!kind) {
    error = "the interpreter does not support `" + name.str() + "`";
    return false;
  }
  p.kind = *kind;
  p.axis = intAttr(op, "axis").value_or(0);
  switch (p.kind) {
  case K::MakeRange:
    p.start = intAttr(op, "start").value_or(0);
    p.end = intAttr(op, "end").value_or(0);
    return true;
  case K::Trans:
    p.order = intArrayAttr(op->getAttr("order"));
    if (p.order.empty())
      p.order = {1, 0};
    return true;
  case K::Scan:
    p.reverse = intAttr(op, "reverse").value_or(0) != 0;
    return true;
  case K::Load: {
    std::vector<int64_t> seg = segments(op);
    if (seg.size() == 3) {
      p.maskIdx = seg[1] ? 1 : -1;
      p.otherIdx = seg[2] ? int(1 + seg[1]) : -1;
    } else { // no segment sizes: ptr, mask, other in order
      p.maskIdx = op->getNumOperands() > 1 ? 1 : -1;
      p.otherIdx = op->getNumOperands() > 2 ? 2 : -1;
    }
    return true;
  }
  case K::Store:
  case K::AtomicRmw:
    p.maskIdx = op->getNumOperands() > 2 ? 2 : -1;
    if (p.kind == K::AtomicRmw) {
      // An I32EnumAttr (an IntegerAttr whose cases follow RmwKind's order)
      // or, in hand-written generic IR, a string.
      std::optional<RmwKind> rk;
      std::string k = textAttr(op, "kind");
      if (std::optional<int64_t> v = intAttr(op, "kind"); v && *v >= 0 && *v <= 9)
        rk = RmwKind(*v);
      else
        rk = parseRmwKind(k);
      if (!rk) {
        error = "unknown atomic kind `" + k + "`";
        return false;
      }
      p.rmw = *rk;
    }
    return true;
  case K::Print:
    p.text = textAttr(op, "format");
    if (auto s = dyn_cast_or_null<StringAttr>(op->getAttr("format")))
      p.text = s.getValue().str();
    return true;
  case K::Assert:
    if (auto s = dyn_cast_or_null<StringAttr>(op->getAttr("message")))
      p.text = s.getValue().str();
    return true;
  default:
    return true;
  }
}

} // namespace blk::interp
