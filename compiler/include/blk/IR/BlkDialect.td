//===- BlkDialect.td - the blk block-IR dialect -------------*- tablegen -*-===//
//
// The hardware-free tile IR of the blk compiler (docs/ir.md is the contract).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IR_BLKDIALECT_TD
#define BLK_IR_BLKDIALECT_TD

include "mlir/IR/OpBase.td"

def Blk_Dialect : Dialect {
  let name = "blk";
  let cppNamespace = "::blk";
  let summary = "Block-level tile IR of the blk kernel language";
  let description = [{
    Tile operations on builtin ranked tensors (blocks) of scalars or
    `!blk.ptr<T>`, used with `arith`, `math`, `scf` and `func`.
    See docs/ir.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
  private:
    void registerTypes();
  public:
  }];
}

#endif // BLK_IR_BLKDIALECT_TD
