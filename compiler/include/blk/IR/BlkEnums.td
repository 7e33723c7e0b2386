//===- BlkEnums.td - enums used by blk ops ------------------*- tablegen -*-===//
#ifndef BLK_IR_BLKENUMS_TD
#define BLK_IR_BLKENUMS_TD

include "mlir/IR/EnumAttr.td"

def Blk_CacheModifier : I32EnumAttr<"CacheModifier", "load/store cache modifier", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"ca", 1>,
    I32EnumAttrCase<"cg", 2>, I32EnumAttrCase<"cs", 3>,
    I32EnumAttrCase<"lu", 4>, I32EnumAttrCase<"cv", 5>,
    I32EnumAttrCase<"wb", 6>, I32EnumAttrCase<"wt", 7>]> {
  let cppNamespace = "::blk";
}

def Blk_EvictionPolicy : I32EnumAttr<"EvictionPolicy", "cache eviction policy", [
    I32EnumAttrCase<"normal", 0>, I32EnumAttrCase<"evict_first", 1>,
    I32EnumAttrCase<"evict_last", 2>]> {
  let cppNamespace = "::blk";
}

def Blk_AtomicRMWKind : I32EnumAttr<"AtomicRMWKind", "atomic read-modify-write kind", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"fadd", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"umax", 4>, I32EnumAttrCase<"umin", 5>,
    I32EnumAttrCase<"and_", 6, "and">, I32EnumAttrCase<"or_", 7, "or">,
    I32EnumAttrCase<"xor_", 8, "xor">, I32EnumAttrCase<"xchg", 9>]> {
  let cppNamespace = "::blk";
}

#endif // BLK_IR_BLKENUMS_TD
