//===- ArgSpecs.cpp - kernel arguments from `NAME=SPEC` specs, on the GPU -===//
#include "ArgSpecs.h"

#include "blk/Support/SpecRandom.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace blk::tools {
namespace {

/// The bits of `v` as element kind `k` (little-endian, the kind's size).
uint64_t encode(ScalarKind k, double v) {
  uint64_t bits = 0;
  switch (k) {
  case ScalarKind::F16:
    return toHalf(float(v)).bits;
  case ScalarKind::BF16:
    return toBfloat16(float(v)).bits;
  case ScalarKind::F8E4M3:
    return toFloat8E4M3(float(v)).bits;
  case ScalarKind::F8E5M2:
    return toFloat8E5M2(float(v)).bits;
  case ScalarKind::F32: {
    float f = float(v);
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  case ScalarKind::F64:
    std::memcpy(&bits, &v, 8);
    return bits;
  case ScalarKind::I1:
    return int64_t(v) & 1;
  default:
    return uint64_t(int64_t(v));
  }
}

std::vector<std::string> split(const std::string &s, char sep, size_t maxParts) {
  std::vector<std::string> out;
  size_t start = 0;
  while (out.size() + 1 < maxParts) {
    size_t at = s.find(sep, start);
    if (at == std::string::npos)
      break;
    out.push_back(s.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

std::optional<double> parseFloatLiteral(const std::string &text) {
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end)
    return std::nullopt;
  return v;
}

/// A value of element kind `k`: integers also take true/false.
std::optional<double> parseValue(ScalarKind k, const std::string &text) {
  if (isFloatKind(k))
    return parseFloatLiteral(text);
  if (text == "true" || text == "false")
    return text == "true" ? 1 : 0;
  if (std::optional<int64_t> v = parseIntLiteral(text))
    return double(*v);
  return std::nullopt;
}

} // namespace

void parseArgList(const std::string &text, std::map<std::string, std::string> &out) {
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Usage{"`" + item + "` must have the form NAME=SPEC"};
    if (!out.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
      throw Usage{"argument `" + item.substr(0, eq) + "` given twice"};
  }
}

bool readFile(const std::string &path, std::vector<unsigned char> &bytes, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read `" + path + "`";
    return false;
  }
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

std::optional<int64_t> parseIntLiteral(const std::string &text) {
  std::string s;
  for (char c : text)
    if (c != '_')
      s += c;
  bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+'))
    s.erase(0, 1);
  int radix = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    radix = 16, s.erase(0, 2);
  else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
    radix = 2, s.erase(0, 2);
  if (s.empty() || !std::isalnum(static_cast<unsigned char>(s[0])))
    return std::nullopt;
  char *end = nullptr;
  errno = 0;
  uint64_t v = std::strtoull(s.c_str(), &end, radix);
  if (*end || errno)
    return std::nullopt;
  return negative ? -int64_t(v) : int64_t(v);
}

ArgSet::ArgSet(const Context &ctx, const KernelDesc &k,
               const std::map<std::string, std::string> &specs)
    : ctx_(ctx) {
  for (const auto &[name, spec] : specs)
    if (std::none_of(k.params.begin(), k.params.end(),
                     [&](const Param &p) { return p.name == name; }))
      throw Usage{"kernel `" + k.name + "` has no parameter `" + name + "`"};
  for (size_t i = 0; i < k.params.size(); ++i) {
    const Param &p = k.params[i];
    auto it = specs.find(p.name);
    if (it == specs.end())
      throw Usage{"missing argument `" + p.name + "` (" + formatParamType(p.type) + ")"};
    values_.push_back(p.type.pointer ? bufferArg(i, p, it->second) : scalarArg(p, it->second));
  }
}

ArgSet::~ArgSet() {
  for (const SpecBuffer &b : buffers_)
    ctx_.release(b.address);
}

const SpecBuffer *ArgSet::buffer(const std::string &name) const {
  for (const SpecBuffer &b : buffers_)
    if (b.name == name)
      return &b;
  return nullptr;
}

ArgValue ArgSet::scalarArg(const Param &p, const std::string &text) {
  std::optional<double> v = parseValue(p.type.elem, text);
  if (!v)
    throw Usage{"argument `" + p.name + "`: expected a " + formatParamType(p.type) +
                " literal, got `" + text + "`"};
  ArgValue a;
  a.type = p.type;
  a.hostType = "argument spec literal";
  // Integers keep all 64 bits (a double would round above 2^53).
  std::optional<int64_t> exact = parseIntLiteral(text);
  a.bits = isFloatKind(p.type.elem) || !exact ? encode(p.type.elem, *v) : uint64_t(*exact);
  scalars_[p.name] = *v;
  return a;
}

ArgValue ArgSet::bufferArg(size_t index, const Param &p, const std::string &spec) {
  auto usage = [&](const std::string &what) {
    return Usage{"argument `" + p.name + "`: " + what};
  };
  std::vector<std::string> f = split(spec, ':', 4);
  if (f.size() < 3)
    throw Usage{"`" + p.name + "=" + spec + "`: expected KIND:TYPE:COUNT[...]"};
  std::optional<ParamType> t = parseParamType(f[1]);
  if (!t || t->pointer)
    throw Usage{"unknown element type `" + f[1] + "`"};
  if (t->elem != p.type.elem)
    throw usage("type mismatch: the parameter is " + formatParamType(p.type) +
                ", the spec gives " + f[1]);
  size_t size = scalarKindSize(t->elem);
  const std::string &kind = f[0];
  SpecBuffer b;
  b.param = index;
  b.name = p.name;
  b.elem = t->elem;
  if (kind == "file") {
    std::string path = spec.substr(kind.size() + f[1].size() + 2);
    std::string error;
    if (!readFile(path, b.initial, error))
      throw usage(error);
    if (b.initial.size() % size)
      throw usage("`" + path + "` has " + std::to_string(b.initial.size()) +
                  " bytes, not a multiple of " + std::to_string(size));
  } else {
    if (kind != "zeros" && kind != "empty" && kind != "iota" && kind != "fill" && kind != "rand")
      throw Usage{"`" + p.name + "=" + spec + "`: unknown buffer kind `" + kind + "`"};
    std::optional<int64_t> n = parseIntLiteral(f[2]);
    if (!n || *n < 0)
      throw usage("bad element count `" + f[2] + "`");
    bool takesValue = kind == "fill" || kind == "rand";
    if (f.size() > 3 && !takesValue)
      throw usage("unexpected `:" + f[3] + "` after `" + kind + ":T:N`");
    b.initial.assign(size_t(*n) * size, 0);
    std::optional<double> fill = 0;
    if (kind == "fill" && (f.size() < 4 || !(fill = parseValue(t->elem, f[3]))))
      throw usage(f.size() < 4 ? "fill needs a value: fill:T:N:V" : "bad fill value `" + f[3] + "`");
    std::optional<int64_t> seed = f.size() > 3 && kind == "rand" ? parseIntLiteral(f[3]) : 1;
    if (!seed)
      throw usage("bad seed `" + f[3] + "`");
    SpecRandom random{uint64_t(*seed)};
    unsigned digits = specRandomDigits(scalarKindName(t->elem));
    bool isFloat = isFloatKind(t->elem);
    for (size_t i = 0; kind != "zeros" && kind != "empty" && i < size_t(*n); ++i) {
      double v = kind == "iota" ? double(i)
                 : kind == "fill" ? *fill
                 : isFloat ? random.nextUnit(digits)
                           : double(random.nextSmallInt(t->elem == ScalarKind::I1));
      uint64_t bits = encode(t->elem, v);
      std::memcpy(&b.initial[i * size], &bits, size);
    }
  }
  b.address = ctx_.allocate(b.initial.empty() ? 1 : b.initial.size());
  buffers_.push_back(b);
  if (!b.initial.empty())
    ctx_.copyToDevice(b.address, b.initial.data(), b.initial.size());
  ArgValue a;
  a.bits = b.address;
  a.extent = b.initial.size();
  a.type = ParamType{t->elem, true};
  a.hostType = "argument spec buffer";
  return a;
}

std::optional<double> ArgSet::scalar(const std::string &name) const {
  auto it = scalars_.find(name);
  if (it == scalars_.end())
    return std::nullopt;
  return it->second;
}

namespace {
/// Recursive descent over "2*M*N*K": sum := product (('+'|'-') product)*,
/// product := atom (('*'|'/') atom)*, atom := number | name | '(' sum ')'
/// | '-' atom.
struct ExprParser {
  const ArgSet &args;
  const std::string &text;
  size_t at = 0;

  void skip() {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
      ++at;
  }
  bool eat(char c) {
    skip();
    if (at < text.size() && text[at] == c)
      return ++at, true;
    return false;
  }
  Usage error(const std::string &what) const {
    return Usage{"--flops `" + text + "`: " + what};
  }
  double sum() {
    double v = product();
    while (true) {
      if (eat('+'))
        v += product();
      else if (eat('-'))
        v -= product();
      else
        return v;
    }
  }
  double product() {
    double v = atom();
    while (true) {
      if (eat('*'))
        v *= atom();
      else if (eat('/'))
        v /= atom();
      else
        return v;
    }
  }
  double atom() {
    if (eat('('))
      return paren();
    if (eat('-'))
      return -atom();
    skip();
    size_t start = at;
    if (at < text.size() && (std::isalpha(static_cast<unsigned char>(text[at])) || text[at] == '_')) {
      while (at < text.size() && (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_'))
        ++at;
      std::string name = text.substr(start, at - start);
      if (std::optional<double> v = args.scalar(name))
        return *v;
      throw error("`" + name + "` is not a scalar parameter");
    }
    char *end = nullptr;
    double v = std::strtod(text.c_str() + at, &end);
    if (end == text.c_str() + at)
      throw error(at < text.size() ? "unexpected `" + text.substr(at, 1) + "`" : "unexpected end");
    at = size_t(end - text.c_str());
    return v;
  }
  double paren() {
    double v = sum();
    if (!eat(')'))
      throw error("missing `)`");
    return v;
  }
};
} // namespace

double ArgSet::evaluate(const std::string &expr) const {
  ExprParser parser{*this, expr};
  double v = parser.sum();
  parser.skip();
  if (parser.at != expr.size())
    throw parser.error("unexpected `" + expr.substr(parser.at, 1) + "`");
  return v;
}

} // namespace blk::tools
