# lit configuration shared by every stage folder under tests/lit/.
import os
import lit.formats

config.name = "blk"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".blk", ".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

build_dir = lit_config.params.get("build_dir")
source_dir = lit_config.params.get("source_dir")
if not build_dir or not source_dir:
    lit_config.fatal("run through ctest, or pass --param build_dir=... --param source_dir=...")

# Test outputs (%t) live in the build tree, so parallel builds never share them.
config.test_exec_root = os.path.join(build_dir, "tests", "lit-output")

bin_dir = os.path.join(build_dir, "bin")
llvm_bin = "/usr/lib/llvm-19/bin"
config.environment["PATH"] = os.pathsep.join([bin_dir, llvm_bin, config.environment.get("PATH", "")])
config.substitutions.append(("%blkc", os.path.join(bin_dir, "blkc")))
config.substitutions.append(("%blk-opt", os.path.join(bin_dir, "blk-opt")))
config.substitutions.append(("%stdlib", os.path.join(source_dir, "stdlib")))
config.substitutions.append(("%samples", os.path.join(source_dir, "samples")))
config.substitutions.append(("%srcroot", source_dir))
config.substitutions.append(("%ptxas", "/usr/local/cuda/bin/ptxas"))
