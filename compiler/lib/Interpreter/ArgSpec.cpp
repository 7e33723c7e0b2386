//===- ArgSpec.cpp - buffers and scalars from command-line specs -----------===//
#include "blk/Interpreter/ArgSpec.h"
#include "blk/Support/SpecRandom.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

namespace blk::interp {

using llvm::StringRef;

static llvm::Error usage(const ParamInfo &p, const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "argument `" + p.name + "`: " + msg);
}

std::optional<int64_t> parseIntLiteral(StringRef text) {
  std::string clean;
  for (char c : text)
    if (c != '_')
      clean += c;
  StringRef s(clean);
  bool negative = s.consume_front("-");
  if (!negative)
    s.consume_front("+");
  unsigned radix = 10;
  if (s.consume_front_insensitive("0x"))
    radix = 16;
  else if (s.consume_front_insensitive("0b"))
    radix = 2;
  uint64_t v;
  if (s.empty() || s.getAsInteger(radix, v))
    return std::nullopt;
  return negative ? -int64_t(v) : int64_t(v);
}

static std::optional<double> parseFloatLiteral(StringRef text) {
  if (text == "inf" || text == "+inf")
    return INFINITY;
  if (text == "-inf")
    return -INFINITY;
  if (text == "nan")
    return NAN;
  double v;
  if (text.getAsDouble(v))
    return std::nullopt;
  return v;
}

/// A value of type `t` from text (integers also accept true/false).
static std::optional<double> parseValue(DataType t, StringRef text) {
  if (isFloatKind(t.kind))
    return parseFloatLiteral(text);
  if (text == "true")
    return 1;
  if (text == "false")
    return 0;
  if (std::optional<int64_t> v = parseIntLiteral(text))
    return double(*v);
  return std::nullopt;
}

static llvm::Expected<Arg> scalarArg(const ParamInfo &p, StringRef spec) {
  if (isFloatKind(p.type.kind)) {
    if (std::optional<double> v = parseFloatLiteral(spec))
      return Arg::ofFloat(*v);
    return usage(p, "expected a " + dataTypeName(p.type) + " literal, got `" + spec.str() + "`");
  }
  std::optional<int64_t> v = parseIntLiteral(spec);
  if (spec == "true" || spec == "false")
    v = spec == "true" ? 1 : 0;
  if (!v)
    return usage(p, "expected a " + dataTypeName(p.type) + " literal, got `" + spec.str() + "`");
  return Arg::ofInt(*v);
}

llvm::Expected<Arg> makeArg(const ParamInfo &p, StringRef spec, Memory &mem,
                            const ArgSpecOptions &options) {
  if (!p.isPointer)
    return scalarArg(p, spec);
  llvm::SmallVector<StringRef, 4> parts;
  spec.split(parts, ':', /*MaxSplit=*/3);
  StringRef kind = parts[0];
  static const char *kForms = "zeros:T:N, iota:T:N, fill:T:N:V, rand:T:N[:SEED], empty:T:N "
                              "or file:T:PATH";
  if (parts.size() < 3)
    return usage(p, "expected a buffer spec (" + std::string(kForms) + "), got `" + spec.str() + "`");
  std::optional<DataType> type = parseDataType(parts[1]);
  if (!type)
    return usage(p, "unknown element type `" + parts[1].str() + "`");
  if (*type != p.type)
    return usage(p, "type mismatch: the parameter is *" + dataTypeName(p.type) + ", the spec gives " +
                        dataTypeName(*type));
  if (kind == "file") {
    std::string path = spec.drop_front(kind.size() + parts[1].size() + 2).str();
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer)
      return usage(p, "cannot read `" + path + "`: " + buffer.getError().message());
    size_t bytes = (*buffer)->getBufferSize(), elem = byteSize(type->kind);
    if (bytes % elem)
      return usage(p, "`" + path + "` has " + std::to_string(bytes) + " bytes, not a multiple of " +
                          std::to_string(elem));
    BufferId id = mem.create(p.name, *type, bytes / elem);
    std::memcpy(mem.get(id)->bytes.data(), (*buffer)->getBufferStart(), bytes);
    return Arg::ofBuffer(id);
  }
  std::optional<int64_t> count = parseIntLiteral(parts[2]);
  if (!count || *count < 0)
    return usage(p, "bad element count `" + parts[2].str() + "`");
  bool takesValue = kind == "fill" || kind == "rand";
  if (parts.size() > 3 && !takesValue)
    return usage(p, "unexpected `:" + parts[3].str() + "` after `" + kind.str() + ":T:N`");
  BufferId id = mem.create(p.name, *type, size_t(*count));
  Buffer &buf = *mem.get(id);
  bool isFloat = isFloatKind(type->kind);
  if (kind == "zeros" || kind == "empty") {
    if (options.checkUninit)
      buf.written.assign(buf.count, 0);
  } else if (kind == "iota") {
    for (size_t k = 0; k < buf.count; ++k)
      isFloat ? buf.writeFloat(k, double(k)) : buf.writeInt(k, int64_t(k));
  } else if (kind == "fill") {
    if (parts.size() < 4)
      return usage(p, "fill needs a value: fill:T:N:V");
    std::optional<double> v = parseValue(*type, parts[3]);
    if (!v)
      return usage(p, "bad fill value `" + parts[3].str() + "`");
    for (size_t k = 0; k < buf.count; ++k)
      isFloat ? buf.writeFloat(k, *v) : buf.writeInt(k, int64_t(*v));
  } else if (kind == "rand") {
    std::optional<int64_t> seed = parts.size() > 3 ? parseIntLiteral(parts[3]) : 1;
    if (!seed)
      return usage(p, "bad seed `" + parts[3].str() + "`");
    // The generator the GPU tools use too (blk-bench, blk-tune).
    SpecRandom random{uint64_t(*seed)};
    unsigned digits = specRandomDigits(dataTypeName(*type));
    for (size_t k = 0; k < buf.count; ++k) {
      if (isFloat)
        buf.writeFloat(k, random.nextUnit(digits));
      else
        buf.writeInt(k, random.nextSmallInt(type->kind == ElemKind::I1));
    }
  } else {
    return usage(p, "unknown buffer spec `" + kind.str() + "` (expected " + kForms + ")");
  }
  return Arg::ofBuffer(id);
}

} // namespace blk::interp
