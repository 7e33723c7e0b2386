//===- BenchCommand.cpp - `blkc bench`: a kernel's configs timed on the GPU -===//
//
// blkc bench FILE(.blk|.fatbin) -k KERNEL --arg NAME=SPEC... [--check]
//            [--arch LIST] [-D NAME=VALUE]... [-I DIR]... [--config "N=V ..."]...
//            [--flops EXPR] [--iters N | --ms BUDGET] [--rtol R] [--atol A]
//            [--device N] [--driver LIB] [--expect NAME=PATH]...
// Builds a .blk file's fatbin as `blkc build -o X.fatbin` would (into a
// temporary directory), then runs blk-bench (runtime/tools/blk-bench.cpp,
// installed next to blkc: the timing needs only libblkrt and a GPU). With
// --check it first runs the kernel on the interpreter as `blkc run` does,
// on the same specs (the same `rand:` values: blk/Support/SpecRandom.h),
// writes every buffer the manifest says the kernel writes (`--out`) and
// passes them to blk-bench as --expect. Exit: blk-bench's; 1 for errors in
// the code or the interpreter's run; 2 for usage errors.
// Tests: tests/lit/target/bench-cli.test.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/Manifest.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

using namespace blkc;
namespace fs = std::filesystem;

namespace {

struct BenchFlags {
  std::string file, kernel, arch, flops, iters, ms, rtol, atol, device, driver;
  FrontendFlags frontend;
  std::vector<std::string> args, configs, expects;
  bool check = false;
};

/// A directory removed with everything in it when the command ends.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "blkc-bench-XXXXXX").string();
    if (::mkdtemp(tmpl.data()))
      path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty())
      fs::remove_all(path, ec);
  }
};

/// The kernel's pointer parameters it may write (write, readwrite, atomic,
/// or unknown), from the fatbin's manifest; false with `error` otherwise.
bool writtenBuffers(const std::string &fatbin, const std::string &kernel,
                    std::vector<std::string> &names, std::string &error) {
  try {
    std::vector<unsigned char> bytes = blk::readBinaryFile(fatbin);
    blk::FatbinReader reader(bytes.data(), bytes.size(), fatbin);
    blk::Manifest m = blk::parseManifest(reader.manifestJson(), fatbin);
    const blk::KernelDesc *d = m.findKernel(kernel);
    if (!d) {
      error = "no kernel `" + kernel + "` in `" + fatbin + "`";
      return false;
    }
    for (const blk::Param &p : d->params)
      if (p.type.pointer && p.access != blk::Access::None && p.access != blk::Access::Read)
        names.push_back(p.name);
    return true;
  } catch (const blk::Error &e) {
    error = e.what();
    return false;
  }
}

/// Runs `argv` and waits; its exit status, or -1 when it could not start.
int runTool(std::vector<std::string> args) {
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::execv(argv[0], argv.data());
    std::cerr << "blkc: error: cannot run " << args[0] << ": " << std::strerror(errno) << "\n";
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) < 0)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int bench(BenchFlags &flags, const ToolContext &ctx) {
  std::string tool = ctx.binDir + "/blk-bench";
  if (!fs::exists(tool))
    return usageError("blk-bench is not installed next to blkc (" + tool + ")");
  if (!fs::exists(flags.file))
    return usageError("cannot read `" + flags.file + "`");
  bool isFatbin = fs::path(flags.file).extension() == ".fatbin";
  if (isFatbin && flags.check)
    return usageError("--check runs the interpreter on the source: give the .blk file, "
                      "not `" + flags.file + "`");
  if (isFatbin && !flags.arch.empty())
    return usageError("--arch applies to a .blk file; `" + flags.file + "` is built already");
  TempDir tmp;
  if (tmp.path.empty())
    return usageError("cannot create a temporary directory");

  std::string fatbin = flags.file;
  if (!isFatbin) {
    blk::BuildOptions build;
    build.input = flags.file;
    build.emit = "fatbin";
    fatbin = (tmp.path / (fs::path(flags.file).stem().string() + ".fatbin")).string();
    build.output = fatbin;
    if (!flags.arch.empty())
      build.target.arch = flags.arch;
    if (!flags.driver.empty())
      build.target.driverLibrary = flags.driver;
    if (int rc = buildStage(build, flags.frontend, ctx))
      return rc;
  }

  std::vector<std::string> expects = flags.expects;
  if (flags.check) {
    std::vector<std::string> written;
    std::string error;
    if (!writtenBuffers(fatbin, flags.kernel, written, error))
      return usageError(error);
    if (written.empty())
      return usageError("--check: kernel `" + flags.kernel + "` writes no buffer");
    RunFlags run;
    run.file = flags.file;
    run.kernel = flags.kernel;
    run.frontend = flags.frontend;
    run.args = flags.args;
    for (const std::string &name : written) {
      std::string path = (tmp.path / (name + ".expected")).string();
      run.outs.push_back(name + "=" + path);
      expects.push_back(name + "=" + path);
    }
    if (int rc = runKernel(run, ctx))
      return rc;
    std::cout << "blkc bench: the interpreter's " << written.size()
              << " written buffer(s) are the expected results\n";
  }

  std::vector<std::string> argv{tool, fatbin, "-k", flags.kernel};
  auto add = [&](const char *flag, const std::string &value) {
    if (!value.empty())
      argv.insert(argv.end(), {flag, value});
  };
  for (const std::string &a : flags.args)
    add("--arg", a);
  for (const std::string &c : flags.configs)
    add("--config", c);
  for (const std::string &e : expects)
    add("--expect", e);
  add("--flops", flags.flops);
  add("--iters", flags.iters);
  add("--ms", flags.ms);
  add("--rtol", flags.rtol);
  add("--atol", flags.atol);
  add("--device", flags.device);
  add("--driver", flags.driver);
  int rc = runTool(argv);
  return rc < 0 ? usageError("cannot run " + tool) : rc;
}

} // namespace

void blkc::registerBenchCommand(CLI::App &app, ToolContext &ctx) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App *cmd = app.add_subcommand(
      "bench", "Time a kernel's configs on this machine's GPU (GB/s, TFLOP/s), optionally "
               "checked against the interpreter (runs blk-bench; see `blk-bench --help`)");
  cmd->add_option("FILE", flags->file, "blk source (built first) or a fatbin")->required();
  cmd->add_option("-k,--kernel", flags->kernel, "Kernel to time")->required();
  addFrontendFlags(cmd, flags->frontend);
  cmd->add_option("--arg", flags->args,
                  "Argument, as for `blkc run`: a literal for scalars; zeros:T:N, iota:T:N, "
                  "fill:T:N:V, rand:T:N[:SEED], empty:T:N or file:T:PATH for pointers")
      ->type_name("NAME=SPEC")
      ->allow_extra_args(false);
  cmd->add_flag("--check", flags->check,
                "Compare every written buffer with the interpreter's result (as `blkc run`)");
  cmd->add_option("--arch", flags->arch,
                  "GPU architectures for a .blk file (as `blkc build`, `native` too; default sm_90)");
  cmd->add_option("--config", flags->configs, "Only configs with these values (repeatable)")
      ->type_name("\"NAME=VALUE ...\"")
      ->allow_extra_args(false);
  cmd->add_option("--flops", flags->flops,
                  "Floating-point operations per launch: a number or an expression of "
                  "scalar arguments (\"2*M*N*K\")")
      ->type_name("EXPR");
  cmd->add_option("--expect", flags->expects, "Compare buffer NAME with a raw file")
      ->type_name("NAME=PATH")
      ->allow_extra_args(false);
  cmd->add_option("--iters", flags->iters, "Timed launches per config (default: by --ms)")
      ->type_name("N");
  cmd->add_option("--ms", flags->ms, "Time budget per config in ms (default 100)")
      ->type_name("BUDGET");
  cmd->add_option("--rtol", flags->rtol, "Relative tolerance of the checks")->type_name("R");
  cmd->add_option("--atol", flags->atol, "Absolute tolerance of the checks")->type_name("A");
  cmd->add_option("--device", flags->device, "GPU ordinal (default 0)")->type_name("N");
  cmd->add_option("--driver", flags->driver, "CUDA driver library to open (tests: a fake one)")
      ->type_name("LIB");
  cmd->callback([flags, &ctx] { ctx.exitCode = bench(*flags, ctx); });
}
