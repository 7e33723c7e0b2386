//===- Format.cpp - shortest and printf-like value text --------------------===//
#include "blk/Interpreter/Format.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace blk::interp {

std::string formatShortestFloat(ElemKind kind, double v) {
  char buf[64];
  std::to_chars_result r = kind == ElemKind::F64 ? std::to_chars(buf, buf + sizeof buf, v)
                                                 : std::to_chars(buf, buf + sizeof buf, float(v));
  return std::string(buf, r.ptr);
}

std::string formatBufferElement(const Buffer &buf, size_t k) {
  if (isFloatKind(buf.type.kind))
    return formatShortestFloat(buf.type.kind, buf.readFloat(k));
  int64_t v = buf.readInt(k);
  if (buf.type.kind == ElemKind::I1)
    return v ? "1" : "0";
  if (buf.type.isUnsigned)
    return std::to_string(unsignedView(bitWidth(buf.type.kind), v));
  return std::to_string(v);
}

std::string formatBuffer(const Buffer &buf) {
  std::string s = "[";
  for (size_t k = 0; k < buf.count; ++k) {
    if (k)
      s += ", ";
    s += formatBufferElement(buf, k);
  }
  return s + "]";
}

std::string formatPrintValue(const Block &b, size_t k, const Memory &mem) {
  char text[64];
  if (b.isFloat()) {
    std::snprintf(text, sizeof text, "%f", b.f[k]);
    return text;
  }
  if (b.kind == ElemKind::Ptr) {
    BufferId id;
    int64_t off;
    decodePointer(b.i[k], id, off);
    const Buffer *buf = mem.get(id);
    return (buf ? buf->name : std::string("<null>")) + "+" +
           std::to_string(off / int64_t(byteSize(b.pointee)));
  }
  if (b.kind == ElemKind::I1)
    return b.i[k] ? "1" : "0";
  std::snprintf(text, sizeof text, "%" PRId64, b.i[k]);
  return text;
}

/// Formats one printf conversion `spec` (e.g. "%5.2f", "%d") with element
/// k of `b`, converting between integer and float as the conversion asks.
static std::string formatConversion(std::string spec, const Block &b, size_t k,
                                    const Memory &mem) {
  char conv = spec.back();
  spec.pop_back();
  // Drop C length modifiers: the value's width is known here.
  while (!spec.empty() && std::strchr("hlLqjzt", spec.back()))
    spec.pop_back();
  char text[128];
  if (std::strchr("fFeEgGaA", conv)) {
    std::snprintf(text, sizeof text, (spec + conv).c_str(), b.asDouble(k));
    return text;
  }
  if (std::strchr("diuxXoc", conv)) {
    int64_t v = b.asInt(k);
    if (b.kind == ElemKind::I1)
      v = v ? 1 : 0;
    if (conv == 'c') {
      std::snprintf(text, sizeof text, (spec + "c").c_str(), int(v));
      return text;
    }
    if (conv != 'd' && conv != 'i')
      v = int64_t(unsignedView(bitWidth(b.kind), v));
    std::snprintf(text, sizeof text, (spec + "ll" + conv).c_str(), (long long)v);
    return text;
  }
  return formatPrintValue(b, k, mem); // %p, %s and anything else
}

/// The lines of one print of `values` (all block operands of one shape).
static std::string printLines(const std::string &format, const std::vector<const Block *> &values,
                              const std::string &head, const Memory &mem) {
  const Block *widest = nullptr;
  for (const Block *b : values)
    if (!widest || b->size() > widest->size())
      widest = b;
  std::string out;
  size_t n = widest ? widest->size() : 1;
  for (size_t k = 0; k < n; ++k) {
    std::string line = head;
    if (widest && !widest->isScalar()) {
      std::string idx = formatIndex(widest->shape, int64_t(k));
      line += " idx (" + idx.substr(1, idx.size() - 2) + ")";
    }
    line += " ";
    // printf-style: each conversion takes the next operand's element k.
    size_t next = 0;
    for (size_t c = 0; c < format.size(); ++c) {
      if (format[c] != '%') {
        line += format[c];
        continue;
      }
      size_t end = c + 1;
      while (end < format.size() && std::strchr("-+ #0123456789.hlLqjzt", format[end]))
        ++end;
      if (end >= format.size() || format[end] == '%' || next >= values.size()) {
        line += end < format.size() && format[end] == '%' ? "%" : format.substr(c, end + 1 - c);
        c = end;
        continue;
      }
      const Block &b = *values[next++];
      line += formatConversion(format.substr(c, end + 1 - c), b, b.size() == 1 ? 0 : k, mem);
      c = end;
    }
    // Operands without a conversion follow as the GPU prints them:
    // "<format>: v1, v2" (EmitDebug.cpp in the backend).
    for (size_t first = next; next < values.size(); ++next) {
      const Block &b = *values[next];
      line += next == first ? ": " : ", ";
      line += formatPrintValue(b, b.size() == 1 ? 0 : k, mem);
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string formatPrintOp(const std::string &format, const std::vector<const Block *> &values,
                          std::array<int64_t, 3> pid, const Memory &mem) {
  std::string head = "pid (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
                     std::to_string(pid[2]) + ")";
  const Shape *shape = nullptr;
  bool uniform = true;
  for (const Block *b : values)
    if (!b->isScalar()) {
      uniform &= !shape || *shape == b->shape;
      shape = &b->shape;
    }
  if (uniform)
    return printLines(format, values, head, mem);
  // Blocks of different shapes: one print per operand, as the GPU does.
  std::string out;
  for (const Block *b : values)
    out += printLines(format, {b}, head, mem);
  return out;
}

} // namespace blk::interp
