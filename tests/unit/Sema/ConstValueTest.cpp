// Unit tests for the constexpr evaluator's operators.
#include "blk/Sema/ConstValue.h"

#include <gtest/gtest.h>

using namespace blk::sema;

static ConstValue I(int64_t v) { return ConstValue::integer(v); }
static ConstValue B(bool v) { return ConstValue::boolean(v); }
static ConstValue F(double v) { return ConstValue::floating(v); }

static ConstValue ok(const ConstResult &r) {
  EXPECT_TRUE(isOk(r)) << (isOk(r) ? "" : errorOf(r));
  return isOk(r) ? valueOf(r) : ConstValue();
}

TEST(ConstEval, IntegerArithmetic) {
  EXPECT_EQ(ok(evalBinary(ConstOp::Add, I(3), I(4))), I(7));
  EXPECT_EQ(ok(evalBinary(ConstOp::Sub, I(3), I(4))), I(-1));
  EXPECT_EQ(ok(evalBinary(ConstOp::Mul, I(128), I(64))), I(8192));
  EXPECT_EQ(ok(evalBinary(ConstOp::Div, I(1024), I(2))), I(512));
}

TEST(ConstEval, TruncatingDivision) {
  EXPECT_EQ(ok(evalBinary(ConstOp::Div, I(-7), I(2))), I(-3));
  EXPECT_EQ(ok(evalBinary(ConstOp::Rem, I(-7), I(2))), I(-1));
  EXPECT_EQ(ok(evalBinary(ConstOp::Div, I(7), I(-2))), I(-3));
  EXPECT_EQ(ok(evalBinary(ConstOp::Rem, I(7), I(-2))), I(1));
}

TEST(ConstEval, CdivMinMax) {
  EXPECT_EQ(ok(evalBinary(ConstOp::Cdiv, I(1000), I(128))), I(8));
  EXPECT_EQ(ok(evalBinary(ConstOp::Cdiv, I(1024), I(128))), I(8));
  EXPECT_EQ(ok(evalBinary(ConstOp::Cdiv, I(10), I(8))), I(2));
  EXPECT_EQ(ok(evalBinary(ConstOp::Min, I(3), I(-2))), I(-2));
  EXPECT_EQ(ok(evalBinary(ConstOp::Max, I(3), I(-2))), I(3));
  EXPECT_EQ(ok(evalBinary(ConstOp::Max, F(1.5), I(2))), F(2.0));
}

TEST(ConstEval, Errors) {
  EXPECT_EQ(errorOf(evalBinary(ConstOp::Div, I(1), I(0))),
            "division by zero in constant expression");
  EXPECT_EQ(errorOf(evalBinary(ConstOp::Rem, I(1), I(0))),
            "remainder by zero in constant expression");
  EXPECT_EQ(errorOf(evalBinary(ConstOp::Cdiv, I(1), I(0))),
            "division by zero in constant expression");
  EXPECT_EQ(errorOf(evalBinary(ConstOp::Mul, I(INT64_MAX), I(2))),
            "integer overflow in constant expression");
  EXPECT_EQ(errorOf(evalBinary(ConstOp::And, I(1), B(true))),
            "`&&` needs boolean operands");
  EXPECT_EQ(errorOf(evalBinary(ConstOp::Shl, I(1), I(64))),
            "shift amount 64 is out of range");
  EXPECT_EQ(errorOf(evalUnary(ConstUnaryOp::Not, I(1))),
            "`!` needs a boolean operand");
}

TEST(ConstEval, ComparisonsAndLogic) {
  EXPECT_EQ(ok(evalBinary(ConstOp::Ge, I(64), I(16))), B(true));
  EXPECT_EQ(ok(evalBinary(ConstOp::Lt, F(0.5), I(1))), B(true));
  EXPECT_EQ(ok(evalBinary(ConstOp::Eq, B(true), B(true))), B(true));
  EXPECT_EQ(ok(evalBinary(ConstOp::And, B(true), B(false))), B(false));
  EXPECT_EQ(ok(evalBinary(ConstOp::Or, B(true), B(false))), B(true));
  EXPECT_EQ(ok(evalUnary(ConstUnaryOp::Not, B(false))), B(true));
  EXPECT_EQ(ok(evalBinary(ConstOp::BitAnd, B(true), B(false))), B(false));
}

TEST(ConstEval, Floats) {
  EXPECT_EQ(ok(evalBinary(ConstOp::Mul, F(1.5), I(2))), F(3.0));
  EXPECT_EQ(ok(evalBinary(ConstOp::Div, I(1), F(4))), F(0.25));
  EXPECT_EQ(ok(evalUnary(ConstUnaryOp::Neg, F(2.5))), F(-2.5));
  EXPECT_EQ(errorOf(evalBinary(ConstOp::Shl, F(1), I(1))),
            "`<<` needs integer operands");
}

TEST(ConstEval, Bits) {
  EXPECT_EQ(ok(evalBinary(ConstOp::Shl, I(1), I(10))), I(1024));
  EXPECT_EQ(ok(evalBinary(ConstOp::Shr, I(-8), I(1))), I(-4));
  EXPECT_EQ(ok(evalBinary(ConstOp::BitXor, I(6), I(3))), I(5));
  EXPECT_EQ(ok(evalUnary(ConstUnaryOp::BitNot, I(0))), I(-1));
}

TEST(ConstEval, Spelling) {
  EXPECT_EQ(I(7).str(), "7");
  EXPECT_EQ(B(true).str(), "true");
  EXPECT_EQ(F(2).str(), "2.0");
  EXPECT_EQ(F(1.5).str(), "1.5");
}
