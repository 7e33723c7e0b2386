//===- BlkOps.td - blk dialect operations -------------------*- tablegen -*-===//
//
// Every op of docs/ir.md's table. Shape/element checks live in the C++
// verifiers (lib/IR/BlkOps*.cpp); side effects are declared here so CSE,
// LICM and DCE treat memory and I/O ops correctly.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IR_BLKOPS_TD
#define BLK_IR_BLKOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "blk/IR/BlkDialect.td"
include "blk/IR/BlkTypes.td"
include "blk/IR/BlkEnums.td"

class Blk_Op<string mnemonic, list<Trait> traits = []>
    : Op<Blk_Dialect, mnemonic, traits>;

// Type of the value loaded through a pointer (block): ptr<T> -> T,
// tensor<S x ptr<T>> -> tensor<S x T>.
class Blk_PointeeOf<string ptr, string res>
    : TypesMatchWith<res # " is the pointee of " # ptr, ptr, res,
                     "::blk::getPointeeOrSelf($_self)">;

// An i1 value with the shape of ptr, for an optional mask operand.
// The comparator short-circuits when the optional mask is absent (the
// generated check would otherwise read a missing operand).
class Blk_MaskOf<string ptr, string mask>
    : TypesMatchWith<mask # " is i1 with the shape of " # ptr, ptr, mask,
                     "::blk::getI1SameShape($_self)",
                     "!this->getMask() || std::equal_to<>()">;

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

def Blk_ProgramIdOp : Blk_Op<"program_id", [Pure]> {
  let summary = "index of this program in the launch grid along `axis`";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Blk_NumProgramsOp : Blk_Op<"num_programs", [Pure]> {
  let summary = "number of programs in the launch grid along `axis`";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

//===----------------------------------------------------------------------===//
// Block creation and shape ops
//===----------------------------------------------------------------------===//

def Blk_MakeRangeOp : Blk_Op<"make_range", [Pure]> {
  let summary = "the block [start, end) of i32";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs StaticShapeTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "int32_t":$start, "int32_t":$end)>];
}

def Blk_SplatOp : Blk_Op<"splat", [Pure]> {
  let summary = "block whose every element is the scalar `src`";
  let arguments = (ins Blk_Elem:$src);
  let results = (outs Blk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Blk_BroadcastOp : Blk_Op<"broadcast", [Pure]> {
  let summary = "stretch dimensions of size 1 (same rank)";
  let arguments = (ins Blk_Tensor:$src);
  let results = (outs Blk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Blk_ExpandDimsOp : Blk_Op<"expand_dims", [Pure]> {
  let summary = "insert a dimension of size 1 before `axis`";
  let arguments = (ins Blk_Tensor:$src, I32Attr:$axis);
  let results = (outs Blk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "int32_t":$axis)>];
}

def Blk_ReshapeOp : Blk_Op<"reshape", [Pure]> {
  let summary = "same elements in row-major order, new shape";
  let arguments = (ins Blk_Tensor:$src);
  let results = (outs Blk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Blk_TransOp : Blk_Op<"trans", [Pure]> {
  let summary = "permute dimensions: result dim i is src dim order[i]";
  let arguments = (ins Blk_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Blk_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$src,
                                 "::llvm::ArrayRef<int32_t>":$order)>];
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Blk_AddPtrOp : Blk_Op<"addptr", [Pure,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "pointer(s) advanced by `offset` elements";
  let arguments = (ins Blk_PtrLike:$ptr, Blk_Int:$offset);
  let results = (outs Blk_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Blk_PtrCastOp : Blk_Op<"ptr_cast", [Pure]> {
  let summary = "reinterpret pointer(s) to another element type (`p as *f16`)";
  let arguments = (ins Blk_PtrLike:$src);
  let results = (outs Blk_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_PtrToIntOp : Blk_Op<"ptr_to_int", [Pure]> {
  let summary = "address(es) of pointer(s) as i64 (pointer comparisons)";
  let arguments = (ins Blk_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, StaticShapeTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_LoadOp : Blk_Op<"load", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    Blk_PointeeOf<"ptr", "result">,
    Blk_MaskOf<"ptr", "mask">,
    TypesMatchWith<"other has the result type", "ptr", "other",
                   "::blk::getPointeeOrSelf($_self)",
                   "!this->getOther() || std::equal_to<>()">]> {
  let summary = "load from pointer(s); masked-off elements take `other`";
  let description = [{
    Without `other`, masked-off elements are undefined. `other` needs `mask`.
    A volatile load also counts as a write, so it is never removed or merged.
  }];
  let arguments = (ins
    Blk_PtrLike:$ptr,
    Optional<Blk_Bool>:$mask,
    Optional<Blk_ScalarLike>:$other,
    DefaultValuedAttr<Blk_CacheModifier, "::blk::CacheModifier::none">:$cache,
    DefaultValuedAttr<Blk_EvictionPolicy, "::blk::EvictionPolicy::normal">:$evict,
    UnitAttr:$isVolatile);
  let results = (outs Blk_ScalarLike:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cache` `=` $cache | `evict` `=` $evict) (`volatile` $isVolatile^)?
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$mask,
                   "::mlir::Value":$other)>
  ];
}

def Blk_StoreOp : Blk_Op<"store", [
    MemoryEffects<[MemWrite]>,
    Blk_PointeeOf<"ptr", "value">,
    Blk_MaskOf<"ptr", "mask">]> {
  let summary = "store `value` through pointer(s) where `mask` is true";
  let arguments = (ins
    Blk_PtrLike:$ptr,
    Blk_ScalarLike:$value,
    Optional<Blk_Bool>:$mask,
    DefaultValuedAttr<Blk_CacheModifier, "::blk::CacheModifier::none">:$cache,
    DefaultValuedAttr<Blk_EvictionPolicy, "::blk::EvictionPolicy::normal">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? oilist(`cache` `=` $cache | `evict` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasCanonicalizer = 1;
}

def Blk_AtomicRMWOp : Blk_Op<"atomic_rmw", [
    MemoryEffects<[MemRead, MemWrite]>,
    Blk_PointeeOf<"ptr", "value">,
    Blk_PointeeOf<"ptr", "result">,
    Blk_MaskOf<"ptr", "mask">]> {
  let summary = "atomic read-modify-write; returns the old value(s)";
  let arguments = (ins
    Blk_AtomicRMWKind:$kind,
    Blk_PtrLike:$ptr,
    Blk_ScalarLike:$value,
    Optional<Blk_Bool>:$mask);
  let results = (outs Blk_ScalarLike:$result);
  let assemblyFormat = "$kind $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::blk::AtomicRMWKind":$kind, "::mlir::Value":$ptr,
                   "::mlir::Value":$value, "::mlir::Value":$mask)>
  ];
}

def Blk_AtomicCASOp : Blk_Op<"atomic_cas", [
    MemoryEffects<[MemRead, MemWrite]>,
    Blk_PointeeOf<"ptr", "cmp">,
    Blk_PointeeOf<"ptr", "val">,
    Blk_PointeeOf<"ptr", "result">]> {
  let summary = "atomic compare-and-swap; returns the old value(s)";
  let arguments = (ins Blk_PtrLike:$ptr, Blk_ScalarLike:$cmp, Blk_ScalarLike:$val);
  let results = (outs Blk_ScalarLike:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $val attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans, dot
//===----------------------------------------------------------------------===//

def Blk_ReduceOp : Blk_Op<"reduce", [
    RecursiveMemoryEffects, RecursivelySpeculatable,
    SingleBlock, IsolatedFromAbove]> {
  let summary = "reduce blocks along `axis` with the combiner region";
  let description = [{
    The region takes `(%a0, …, %aN-1, %b0, …, %bN-1)` scalars (element
    types of the operands) and yields N scalars with `blk.reduce.return`.
    A rank-1 operand reduces to a scalar.
  }];
  let arguments = (ins Variadic<Blk_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Blk_Value>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    $srcs attr-dict `:` functional-type($srcs, $result) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$srcs, "int32_t":$axis)>
  ];
  let extraClassDeclaration = [{
    /// Result type of reducing `srcType` along `axis`.
    static ::mlir::Type getReducedType(::mlir::Type srcType, int32_t axis);
    /// The combiner's block.
    ::mlir::Block &getCombineBlock() { return getCombineOp().front(); }
  }];
}

def Blk_ReduceReturnOp : Blk_Op<"reduce.return", [
    Pure, ReturnLike, Terminator, HasParent<"ReduceOp">]> {
  let summary = "terminator of the combiner of blk.reduce";
  let arguments = (ins Variadic<Blk_Scalar>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Blk_ScanOp : Blk_Op<"scan", [
    RecursiveMemoryEffects, RecursivelySpeculatable,
    SingleBlock, IsolatedFromAbove]> {
  let summary = "inclusive scan of blocks along `axis` with the combiner region";
  let arguments = (ins Variadic<Blk_Tensor>:$srcs, I32Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Variadic<Blk_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    $srcs attr-dict `:` functional-type($srcs, $result) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$srcs, "int32_t":$axis, "bool":$reverse)>
  ];
  let extraClassDeclaration = [{
    /// The combiner's block.
    ::mlir::Block &getCombineBlock() { return getCombineOp().front(); }
  }];
}

def Blk_ScanReturnOp : Blk_Op<"scan.return", [
    Pure, ReturnLike, Terminator, HasParent<"ScanOp">]> {
  let summary = "terminator of the combiner of blk.scan";
  let arguments = (ins Variadic<Blk_Scalar>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def Blk_DotOp : Blk_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix product a[M,K] x b[K,N] + acc[M,N]";
  let description = [{
    `precision` (f32 inputs only) says how the product may be computed:
    "tf32" lets the tensor cores read each input as tf32 (10-bit mantissa),
    "tf32x3" splits each input into two tf32 halves and sums three
    products, "ieee" (the meaning when absent) keeps f32 products.
  }];
  let arguments = (ins Blk_Tensor:$a, Blk_Tensor:$b, Blk_Tensor:$acc,
                       OptionalAttr<StrAttr>:$precision);
  let extraClassDeclaration = [{
    /// Whether tensor cores may read the inputs as tf32 ("tf32", or the
    /// three tf32 products of "tf32x3"); false for "ieee" and non-f32 inputs.
    bool allowsTf32() {
      std::optional<::llvm::StringRef> p = getPrecision();
      return p && (*p == "tf32" || *p == "tf32x3");
    }
  }];
  let results = (outs Blk_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `*` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Blk_PrintOp : Blk_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "device-side print of scalars and blocks";
  let arguments = (ins StrAttr:$format, Variadic<Blk_Value>:$operands);
  let assemblyFormat = [{
    $format attr-dict ($operands^ `:` type($operands))?
  }];
}

def Blk_AssertOp : Blk_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "device-side assertion: fails where any element of `cond` is false";
  let arguments = (ins Blk_Bool:$cond, StrAttr:$message, StrAttr:$file,
                   I32Attr:$line);
  let assemblyFormat = [{
    $cond `,` $message `,` $file `,` $line attr-dict `:` type($cond)
  }];
}

//===----------------------------------------------------------------------===//
// Hints for the axis info analysis
//===----------------------------------------------------------------------===//

def Blk_MultipleOfOp : Blk_Op<"multiple_of", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "asserts each dimension's values are multiples of `values`";
  let arguments = (ins Blk_Value:$src, DenseI32ArrayAttr:$values);
  let results = (outs Blk_Value:$result);
  let assemblyFormat = "$src `,` $values attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Blk_MaxContiguousOp : Blk_Op<"max_contiguous", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "asserts runs of `values` contiguous elements per dimension";
  let arguments = (ins Blk_Value:$src, DenseI32ArrayAttr:$values);
  let results = (outs Blk_Value:$result);
  let assemblyFormat = "$src `,` $values attr-dict `:` type($src)";
  let hasVerifier = 1;
}

#endif // BLK_IR_BLKOPS_TD
