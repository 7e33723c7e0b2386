//===- ResourceLimitsTest.cpp - configs left out of an artifact -----------===//
//
// The register-file fit (ptxas's report decides it; no sample reaches the
// limit, so it is checked here) and the messages and checks over the entries
// left out. The shared-memory path runs end to end in tests/lit/target/
// build-resource-limits.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/ResourceLimits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace blk;
using namespace blk::target;

TEST(ResourceLimits, RegisterFileHoldsWhatFitsOneSm) {
  GpuTarget sm90 = GpuTarget::fromArch("sm_90", 80);
  EXPECT_TRUE(fitsRegisterFile(255, 256, sm90));  // 8 warps x 8192 = 64 Ki
  EXPECT_FALSE(fitsRegisterFile(255, 288, sm90)); // 9 warps
  EXPECT_TRUE(fitsRegisterFile(64, 1024, sm90));  // 32 warps x 2048
  // 65 registers take 2304 per warp (units of 256): 32 warps do not fit.
  EXPECT_FALSE(fitsRegisterFile(65, 1024, sm90));
  EXPECT_TRUE(fitsRegisterFile(72, 896, sm90));   // 28 x 2304 = 64512
  EXPECT_FALSE(fitsRegisterFile(256, 32, sm90));  // over 255 per thread
}

namespace {
class OmittedEntriesTest : public ::testing::Test {
protected:
  OmittedEntriesTest() {
    context.loadDialect<mlir::func::FuncDialect>();
    context.allowUnregisteredDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  }

  static constexpr const char *kModule = R"mlir(
module {
  func.func @mm__BM_64__w4() attributes {blk.kernel = "mm", blk.num_warps = 4 : i32,
      blk.config = {BN = 32 : i64, BM = 64 : i64, ACC = true}, blk.const_params = ["BM:i32", "BN:i32"]} {
    return
  }
  func.func @mm__BM_256__w8() attributes {blk.kernel = "mm", blk.num_warps = 8 : i32,
      blk.config = {BN = 32 : i64, BM = 256 : i64, ACC = false}, blk.const_params = ["BM:i32", "BN:i32"]} {
    return
  }
  func.func @mm__BM_256__w8__v1() attributes {blk.kernel = "mm", blk.num_warps = 8 : i32,
      blk.variant_of = "mm__BM_256__w8",
      blk.config = {BN = 32 : i64, BM = 256 : i64, ACC = false}, blk.const_params = ["BM:i32", "BN:i32"]} {
    return
  }
  func.func @one__w1() attributes {blk.kernel = "one", blk.num_warps = 1 : i32} {
    return
  }
}
)mlir";

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};
} // namespace

TEST_F(OmittedEntriesTest, MessagesNameTheKernelAndConfigInDeclarationOrder) {
  ASSERT_TRUE(module);
  OmittedEntries omitted;
  omitted.add("mm__BM_256__w8", "needs 300000 bytes of shared memory, sm_90 allows 232448");
  omitted.add("mm__BM_256__w8", "a second reason is dropped");
  omitted.addVariants(*module);
  EXPECT_EQ(omitted.size(), 2u);
  EXPECT_TRUE(omitted.contains("mm__BM_256__w8__v1"));
  // Declared const parameters first (BM, BN), then the rest; the variant is
  // not repeated.
  std::vector<std::string> messages = omitted.messages(*module);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "kernel `mm` config BM=256 BN=32 ACC=false num_warps=8: needs 300000 "
                         "bytes of shared memory, sm_90 allows 232448");
  EXPECT_FALSE(static_cast<bool>(omitted.checkEveryKernelKept(*module)));
}

TEST_F(OmittedEntriesTest, AVariantAloneIsNamedAsOne) {
  ASSERT_TRUE(module);
  OmittedEntries omitted;
  omitted.add("mm__BM_256__w8__v1", "needs 300000 bytes of shared memory, sm_90 allows 232448");
  std::vector<std::string> messages = omitted.messages(*module);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0], "kernel `mm` config BM=256 BN=32 ACC=false num_warps=8 (value variant "
                         "`mm__BM_256__w8__v1`): needs 300000 bytes of shared memory, sm_90 "
                         "allows 232448");
}

TEST_F(OmittedEntriesTest, AKernelWithNoConfigLeftIsAnError) {
  ASSERT_TRUE(module);
  OmittedEntries omitted;
  omitted.add("mm__BM_64__w4", "r");
  omitted.add("mm__BM_256__w8", "r");
  llvm::Error err = omitted.checkEveryKernelKept(*module);
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "kernel `mm`: every config is over a resource limit of the target, so none is left "
            "to build (r)");
}

TEST_F(OmittedEntriesTest, ProgressLinesNameTheKernelAndConfig) {
  ASSERT_TRUE(module);
  auto funcs = module->getOps<mlir::func::FuncOp>();
  std::vector<std::string> labels;
  for (mlir::func::FuncOp func : funcs)
    labels.push_back(describeConfig(func));
  EXPECT_EQ(labels, (std::vector<std::string>{
                        "mm BM=64 BN=32 ACC=true num_warps=4",
                        "mm BM=256 BN=32 ACC=false num_warps=8",
                        "mm BM=256 BN=32 ACC=false num_warps=8 (value variant `mm__BM_256__w8__v1`)",
                        "one num_warps=1"}));
}
