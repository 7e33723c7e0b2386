// wgmma operand descriptors: the constants Triton's 128x256x64 f16 kernel
// uses (../shared/docs/TENSORCORES.md), from blk's NVMMA layouts.
#include "blk/Dialect/BlkGpu/Transforms/WgmmaOperand.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace blk::gpu;

namespace {

class WgmmaOperandTest : public ::testing::Test {
protected:
  WgmmaOperandTest() { ctx.loadDialect<BlkGpuDialect>(); }
  MemDescType buffer(llvm::ArrayRef<int64_t> shape, unsigned swizzleBytes,
                     llvm::ArrayRef<unsigned> order) {
    auto enc = SharedEncodingAttr::get(&ctx, 8, 128 / swizzleBytes, swizzleBytes / 16, order, 0,
                                       swizzleBytes / 2);
    return MemDescType::get(&ctx, shape, mlir::Float16Type::get(&ctx), enc);
  }
  mlir::MLIRContext ctx;
};

TEST_F(WgmmaOperandTest, KMajorATriton128B) {
  std::string why;
  auto a = WgmmaOperand::get(buffer({128, 64}, 128, {1, 0}), /*isB=*/false, why);
  ASSERT_TRUE(a.has_value()) << why;
  EXPECT_TRUE(a->kMajor);
  EXPECT_EQ(a->transposeImm(), 0u);
  EXPECT_EQ(a->descriptorBits(), 0x4000004000000000ull);
  EXPECT_EQ(a->tileOffset(0, 16) >> 4, 2);   // +2 per k16 step
  EXPECT_EQ(a->tileOffset(64, 0) >> 4, 512); // +512 per warpgroup
}

TEST_F(WgmmaOperandTest, NMajorBTriton128B) {
  std::string why;
  auto b = WgmmaOperand::get(buffer({64, 256}, 128, {1, 0}), /*isB=*/true, why);
  ASSERT_TRUE(b.has_value()) << why;
  EXPECT_FALSE(b->kMajor);
  EXPECT_EQ(b->transposeImm(), 1u);
  EXPECT_EQ(b->descriptorBits(), 0x4000004002000000ull); // LBO 8192, SBO 1024
  EXPECT_EQ(b->tileOffset(0, 16) >> 4, 128);             // +128 per k16 step
  EXPECT_EQ(b->tileOffset(64, 0), 8192);                 // next column block
}

TEST_F(WgmmaOperandTest, SmallerSwizzles) {
  std::string why;
  auto a = WgmmaOperand::get(buffer({64, 32}, 64, {1, 0}), false, why);
  ASSERT_TRUE(a.has_value()) << why;
  EXPECT_EQ(a->descriptorBits(), (2ull << 62) | ((512ull >> 4) << 32));
  auto b = WgmmaOperand::get(buffer({16, 64}, 32, {1, 0}), true, why);
  ASSERT_TRUE(b.has_value()) << why;
  EXPECT_EQ(b->descriptorBits(), (3ull << 62) | ((256ull >> 4) << 32) | ((16ull * 32 >> 4) << 16));
  EXPECT_EQ(wgmmaDescriptor(b->descriptorBits(), 0x1400), b->descriptorBits() | 0x140);
}

TEST_F(WgmmaOperandTest, RejectsPaddedOrUnswizzledBuffers) {
  std::string why;
  auto enc = SharedEncodingAttr::get(&ctx, 1, 1, 1, {1, 0}, 1, 0);
  auto t = MemDescType::get(&ctx, {64, 64}, mlir::Float16Type::get(&ctx), enc);
  EXPECT_FALSE(WgmmaOperand::get(t, false, why).has_value());
  EXPECT_NE(why.find("NVMMA"), std::string::npos);
}

} // namespace
