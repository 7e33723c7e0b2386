//===- BlkTypes.td - blk dialect types ----------------------*- tablegen -*-===//
#ifndef BLK_IR_BLKTYPES_TD
#define BLK_IR_BLKTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "blk/IR/BlkDialect.td"

class Blk_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Blk_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Blk_PtrType : Blk_Type<"Ptr", "ptr"> {
  let summary = "64-bit global-memory pointer to scalars";
  let description = [{
    `!blk.ptr<f32>`: a pointer to elements of a scalar type (integer or
    float). Offsets (`blk.addptr`) count elements, not bytes.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Type constraints used by the ops.
//===----------------------------------------------------------------------===//

def Blk_Ptr : Type<CPred<"::mlir::isa<::blk::PtrType>($_self)">, "blk pointer",
                   "::blk::PtrType">;
def Blk_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat]>;
def Blk_Elem : AnyTypeOf<[AnySignlessInteger, AnyFloat, Blk_Ptr]>;

// A block: static-shaped ranked tensor of scalars or pointers.
def Blk_Tensor : StaticShapeTensorOf<[AnySignlessInteger, AnyFloat, Blk_Ptr]>;
def Blk_IntTensor : StaticShapeTensorOf<[AnySignlessInteger]>;
def Blk_I1Tensor : StaticShapeTensorOf<[I1]>;
def Blk_PtrTensor : StaticShapeTensorOf<[Blk_Ptr]>;

def Blk_Value : AnyTypeOf<[Blk_Elem, Blk_Tensor]>;
def Blk_Int : AnyTypeOf<[AnySignlessInteger, Blk_IntTensor]>;
def Blk_Bool : AnyTypeOf<[I1, Blk_I1Tensor]>;
def Blk_PtrLike : AnyTypeOf<[Blk_Ptr, Blk_PtrTensor]>;
def Blk_ScalarLike : AnyTypeOf<[Blk_Scalar, StaticShapeTensorOf<[AnySignlessInteger, AnyFloat]>]>;

#endif // BLK_IR_BLKTYPES_TD
