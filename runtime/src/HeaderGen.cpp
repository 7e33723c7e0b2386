//===- HeaderGen.cpp - write typed launchers for a manifest
//----------------===//
#include "blk/runtime/HeaderGen.h"
#include "blk/runtime/Error.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace blk {
namespace {

const char *const kCppKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t",
    "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
    "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
    "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
    "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "register", "reinterpret_cast", "requires", "return",
    "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true",
    "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // names the generated code itself uses
    "module", "kernel", "blk", "std"};

const char *cppScalar(ScalarKind k) {
  switch (k) {
  case ScalarKind::I1:
    return "bool";
  case ScalarKind::I8:
    return "int8_t";
  case ScalarKind::I16:
    return "int16_t";
  case ScalarKind::I32:
    return "int32_t";
  case ScalarKind::I64:
    return "int64_t";
  case ScalarKind::U8:
    return "uint8_t";
  case ScalarKind::U16:
    return "uint16_t";
  case ScalarKind::U32:
    return "uint32_t";
  case ScalarKind::U64:
    return "uint64_t";
  case ScalarKind::F16:
    return "blk::half";
  case ScalarKind::BF16:
    return "blk::bfloat16";
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  case ScalarKind::F8E4M3:
    return "blk::float8_e4m3";
  case ScalarKind::F8E5M2:
    return "blk::float8_e5m2";
  }
  return "int32_t";
}

std::string cppType(ParamType t) {
  if (t.pointer)
    return std::string("blk::DevicePtr<") + cppScalar(t.elem) + ">";
  return cppScalar(t.elem);
}

/// A C++ string literal for `s`.
std::string quote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string configLiteral(const ConfigValue &v, ParamType type) {
  if (type.elem == ScalarKind::I1)
    return v.intValue ? "true" : "false";
  if (isFloatKind(type.elem)) {
    std::ostringstream os;
    os.precision(17);
    os << (v.isFloat ? v.floatValue : double(v.intValue));
    std::string s = os.str();
    if (s.find_first_of(".eEn") == std::string::npos)
      s += ".0";
    return type.elem == ScalarKind::F32 ? s + "f" : s;
  }
  return std::to_string(v.intValue) +
         (type.elem == ScalarKind::I64 ? "LL" : "");
}

/// Writes one kernel's config struct and launcher class.
void emitKernel(std::ostream &os, const KernelDesc &k) {
  std::string id = cppIdentifier(k.name);
  std::string sig, params, args;
  for (const Param &p : k.params) {
    std::string pid = cppIdentifier(p.name);
    sig += (sig.empty() ? "" : ", ") + p.name + ": " + formatParamType(p.type);
    if (p.aligned)
      sig += " @aligned(" + std::to_string(p.aligned) + ")";
    if (p.multipleOf)
      sig += " @multiple_of(" + std::to_string(p.multipleOf) + ")";
    params += (params.empty() ? "" : ", ") + cppType(p.type) + " " + pid;
    args += ", " + pid;
  }
  for (const ConstParam &c : k.constParams)
    sig += (sig.empty() ? "" : ", ") + std::string("const ") + c.name + ": " +
           formatParamType(c.type);
  // Const params that some specialisation sets, in declaration order.
  std::vector<const ConstParam *> configured;
  for (const ConstParam &c : k.constParams)
    for (const ConfigValue &v : k.specializations.front().config)
      if (v.name == c.name)
        configured.push_back(&c);

  os << "/// `kernel " << k.name << "(" << sig << ")`\n";
  os << "struct " << id << "_config {\n";
  for (const ConstParam *c : configured)
    os << "  " << cppScalar(c->type.elem) << " " << cppIdentifier(c->name)
       << ";\n";
  os << "  int num_warps;\n};\n\n";
  os << "/// The compiled configs of `" << k.name << "`"
     << (k.autotune.enabled ? " (tuned over at run time)" : "; the first is the default")
     << ".\n";
  os << "inline constexpr " << id << "_config " << id << "_configs[] = {\n";
  for (const Specialization &s : k.specializations) {
    os << "    {";
    for (const ConstParam *c : configured) {
      const ConfigValue *value = nullptr;
      for (const ConfigValue &v : s.config)
        if (v.name == c->name)
          value = &v;
      os << (value ? configLiteral(*value, c->type) : "{}") << ", ";
    }
    os << s.numWarps << "}, // " << s.entry << "\n";
  }
  os << "};\n\n";

  bool hasGrid = !k.specializations.front().grid.empty();
  os << "/// Typed, checked launcher of `" << k.name << "`"
     << (hasGrid ? " (grid from @grid)" : " (no @grid: pass a blk::Grid)")
     << ".\n";
  os << "class " << id << "_kernel {\npublic:\n";
  // Without a config the kernel is unpinned: an @autotune kernel is tuned
  // on its first launch per key bucket (docs/tuning.md), any other takes
  // its first config whose @requires hold.
  os << "  /// " << (k.autotune.enabled ? "Tuned per key bucket on first launch"
                                         : "The first config whose @requires hold")
     << "; or the given config.\n";
  os << "  explicit " << id << "_kernel(const blk::Module &module)\n"
     << "      : kernel_(module.kernel(" << quote(k.name) << ")) {}\n";
  os << "  " << id << "_kernel(const blk::Module &module, const " << id
     << "_config &config)\n";
  os << "      : kernel_(module.kernel(" << quote(k.name) << ")";
  for (const ConstParam *c : configured)
    os << "\n                    .with(" << quote(c->name) << ", config."
       << cppIdentifier(c->name) << ")";
  os << "\n                    .with(\"num_warps\", config.num_warps)) {}\n\n";
  std::string sep = params.empty() ? "" : ", ";
  if (hasGrid) {
    os << "  void operator()(" << params << ") const { kernel_.launch("
       << (args.empty() ? "" : args.substr(2)) << "); }\n";
    os << "  void operator()(const blk::Stream &stream" << sep << params
       << ") const {\n    kernel_.launch(stream" << args << ");\n  }\n";
  }
  os << "  void operator()(const blk::Grid &grid" << sep << params
     << ") const {\n    kernel_.launch(grid" << args << ");\n  }\n";
  os << "  void operator()(const blk::Grid &grid, const blk::Stream &stream"
     << sep << params << ") const {\n    kernel_.launch(grid, stream" << args
     << ");\n  }\n";
  os << "  /// The underlying runtime kernel.\n";
  os << "  const blk::Kernel &kernel() const { return kernel_; }\n\n";
  os << "private:\n  blk::Kernel kernel_;\n};\n\n";
}

std::string defaultNamespace(const std::string &source) {
  std::string stem = source;
  size_t slash = stem.find_last_of("/\\");
  if (slash != std::string::npos)
    stem = stem.substr(slash + 1);
  size_t dot = stem.find('.');
  if (dot != std::string::npos)
    stem = stem.substr(0, dot);
  if (stem.empty())
    stem = "module";
  // `double.blk` -> `double_blk`: the suffix keeps stems that are keywords
  // valid.
  return cppIdentifier(stem + "_blk");
}

} // namespace

std::string fatbinPathMacro(const std::string &namespaceName) {
  std::string macro;
  for (char c : namespaceName)
    macro += char(std::toupper(static_cast<unsigned char>(c)));
  return macro + "_FATBIN_PATH";
}

std::string cppIdentifier(const std::string &name) {
  std::string id;
  for (char c : name)
    id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])))
    id = "_" + id;
  for (const char *kw : kCppKeywords)
    if (id == kw)
      return id + "_";
  return id;
}

std::string generateLauncherHeader(const Manifest &m,
                                   const HeaderOptions &options) {
  if (options.embeddedImage.empty() && options.fatbinPath.empty())
    throw Error("launcher header: neither a fatbin path nor an image to embed");
  std::string ns = options.namespaceName.empty() ? defaultNamespace(m.source)
                                                 : options.namespaceName;
  std::ostringstream os;
  os << "// Generated by " << (m.compiler.empty() ? "blkc" : m.compiler)
     << " from " << (m.source.empty() ? "<unknown>" : m.source);
  // No source hash: an edit that leaves every kernel's signature and
  // configs alone leaves the header alone, and the host code that includes
  // it is not recompiled.
  os << ". Do not edit.\n"
     << "// Typed launchers over libblkrt: every launch is still checked "
        "against the manifest.\n"
     << "#pragma once\n\n#include <blk/runtime.h>\n\n#include <cstdint>\n"
     << "#include <string>\n\nnamespace " << ns << " {\n\n";
  for (const KernelDesc &k : m.kernels)
    emitKernel(os, k);

  if (!options.embeddedImage.empty()) {
    os << "/// The fatbin, embedded.\nalignas(8) inline constexpr unsigned "
          "char "
          "kFatbinImage[] = {";
    for (size_t i = 0; i < options.embeddedImage.size(); ++i)
      os << (i % 16 ? " " : "\n    ") << unsigned(options.embeddedImage[i])
         << ",";
    os << "\n};\n\n";
  }
  if (!options.fatbinPath.empty()) {
    std::string macro = fatbinPathMacro(ns);
    os << "/// The fatbin `module(ctx)` loads: the `-o` path blkc was given (a\n"
       << "/// relative one is opened from the working directory). Define " << macro << "\n"
       << "/// (a string literal) before including this header to load another;\n"
       << "/// `module(ctx, path)` takes one at run time.\n"
       << "#ifndef " << macro << "\n#define " << macro << " " << quote(options.fatbinPath)
       << "\n#endif\n"
       << "inline constexpr const char kFatbinPath[] = " << macro << ";\n\n";
  }

  os << "/// Loads the module (the runtime caches it per context) and binds "
        "every kernel.\n";
  os << "class module {\n  blk::Module module_;\n\npublic:\n";
  std::string kernelsInit;
  for (const KernelDesc &k : m.kernels)
    kernelsInit += ", " + cppIdentifier(k.name) + "(module_)";
  std::string defaultLoad =
      options.embeddedImage.empty()
          ? "ctx.load(kFatbinPath)"
          : "ctx.loadImage(kFatbinImage, sizeof kFatbinImage, " +
                quote(m.source.empty() ? "<embedded>" : m.source) + ")";
  os << "  explicit module(const blk::Context &ctx)\n      : module_("
     << defaultLoad << ")" << kernelsInit << " {}\n";
  os << "  module(const blk::Context &ctx, const std::string &path)\n"
     << "      : module_(ctx.load(path))" << kernelsInit << " {}\n";
  os << "  /// The loaded runtime module.\n";
  os << "  const blk::Module &get() const { return module_; }\n\n";
  for (const KernelDesc &k : m.kernels)
    os << "  " << cppIdentifier(k.name) << "_kernel " << cppIdentifier(k.name)
       << ";\n";
  os << "};\n\n} // namespace " << ns << "\n";
  return os.str();
}

} // namespace blk
