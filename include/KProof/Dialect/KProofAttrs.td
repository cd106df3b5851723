//===- KProofAttrs.td - kproof enums and attributes --------*- tablegen -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_DIALECT_KPROOFATTRS_TD
#define KPROOF_DIALECT_KPROOFATTRS_TD

include "KProof/Dialect/KProofDialect.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// State spaces (PTX ISA §5.1)
//===----------------------------------------------------------------------===//

def KProof_StateSpace : I32EnumAttr<"StateSpace",
    "PTX state space (PTX ISA 5.1)", [
      I32EnumAttrCase<"Generic", 0, "generic">,
      I32EnumAttrCase<"Global", 1, "global">,
      I32EnumAttrCase<"Shared", 3, "shared">,
      I32EnumAttrCase<"Const", 4, "const">,
      I32EnumAttrCase<"Local", 5, "local">,
      I32EnumAttrCase<"Param", 6, "param">,
      I32EnumAttrCase<"SharedCluster", 7, "shared_cluster">
    ]> {
  let cppNamespace = "::kproof";
}

//===----------------------------------------------------------------------===//
// Memory-model qualifiers (PTX ISA §8)
//===----------------------------------------------------------------------===//

def KProof_MemSemantics : I32EnumAttr<"MemSemantics",
    "memory ordering of a PTX access (PTX ISA 8.4)", [
      I32EnumAttrCase<"Weak", 0, "weak">,
      I32EnumAttrCase<"Volatile", 1, "volatile">,
      I32EnumAttrCase<"Relaxed", 2, "relaxed">,
      I32EnumAttrCase<"Acquire", 3, "acquire">,
      I32EnumAttrCase<"Release", 4, "release">,
      I32EnumAttrCase<"AcqRel", 5, "acq_rel">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_MemScope : I32EnumAttr<"MemScope",
    "scope of a strong PTX operation (PTX ISA 8.5)", [
      I32EnumAttrCase<"CTA", 0, "cta">,
      I32EnumAttrCase<"Cluster", 1, "cluster">,
      I32EnumAttrCase<"GPU", 2, "gpu">,
      I32EnumAttrCase<"Sys", 3, "sys">
    ]> {
  let cppNamespace = "::kproof";
}

//===----------------------------------------------------------------------===//
// Special registers (PTX ISA §10)
//===----------------------------------------------------------------------===//

def KProof_SpecialReg : I32EnumAttr<"SpecialReg",
    "PTX special register (PTX ISA 10)", [
      I32EnumAttrCase<"TidX", 0, "tid.x">,
      I32EnumAttrCase<"TidY", 1, "tid.y">,
      I32EnumAttrCase<"TidZ", 2, "tid.z">,
      I32EnumAttrCase<"NtidX", 3, "ntid.x">,
      I32EnumAttrCase<"NtidY", 4, "ntid.y">,
      I32EnumAttrCase<"NtidZ", 5, "ntid.z">,
      I32EnumAttrCase<"CtaidX", 6, "ctaid.x">,
      I32EnumAttrCase<"CtaidY", 7, "ctaid.y">,
      I32EnumAttrCase<"CtaidZ", 8, "ctaid.z">,
      I32EnumAttrCase<"NctaidX", 9, "nctaid.x">,
      I32EnumAttrCase<"NctaidY", 10, "nctaid.y">,
      I32EnumAttrCase<"NctaidZ", 11, "nctaid.z">,
      I32EnumAttrCase<"LaneId", 12, "laneid">,
      I32EnumAttrCase<"WarpId", 13, "warpid">,
      I32EnumAttrCase<"NWarpId", 14, "nwarpid">,
      I32EnumAttrCase<"SmId", 15, "smid">,
      I32EnumAttrCase<"NSmId", 16, "nsmid">,
      I32EnumAttrCase<"Clock", 17, "clock">,
      I32EnumAttrCase<"ClockHi", 18, "clock_hi">,
      I32EnumAttrCase<"Clock64", 19, "clock64">,
      I32EnumAttrCase<"GlobalTimer", 20, "globaltimer">,
      I32EnumAttrCase<"LaneMaskEq", 21, "lanemask_eq">,
      I32EnumAttrCase<"LaneMaskLe", 22, "lanemask_le">,
      I32EnumAttrCase<"LaneMaskLt", 23, "lanemask_lt">,
      I32EnumAttrCase<"LaneMaskGe", 24, "lanemask_ge">,
      I32EnumAttrCase<"LaneMaskGt", 25, "lanemask_gt">,
      I32EnumAttrCase<"DynamicSmemSize", 26, "dynamic_smem_size">,
      I32EnumAttrCase<"TotalSmemSize", 27, "total_smem_size">,
      I32EnumAttrCase<"ClusterCtaidX", 28, "cluster_ctaid.x">,
      I32EnumAttrCase<"ClusterCtaidY", 29, "cluster_ctaid.y">,
      I32EnumAttrCase<"ClusterCtaidZ", 30, "cluster_ctaid.z">,
      I32EnumAttrCase<"ClusterNctaidX", 31, "cluster_nctaid.x">,
      I32EnumAttrCase<"ClusterNctaidY", 32, "cluster_nctaid.y">,
      I32EnumAttrCase<"ClusterNctaidZ", 33, "cluster_nctaid.z">,
      I32EnumAttrCase<"ClusterCtaRank", 34, "cluster_ctarank">,
      I32EnumAttrCase<"ClusterNctaRank", 35, "cluster_nctarank">,
      I32EnumAttrCase<"ClusterIdX", 36, "clusterid.x">,
      I32EnumAttrCase<"ClusterIdY", 37, "clusterid.y">,
      I32EnumAttrCase<"ClusterIdZ", 38, "clusterid.z">,
      I32EnumAttrCase<"NClusterIdX", 39, "nclusterid.x">,
      I32EnumAttrCase<"NClusterIdY", 40, "nclusterid.y">,
      I32EnumAttrCase<"NClusterIdZ", 41, "nclusterid.z">,
      I32EnumAttrCase<"GridId", 42, "gridid">
    ]> {
  let cppNamespace = "::kproof";
}

//===----------------------------------------------------------------------===//
// Barriers (PTX ISA §9.7.13.4)
//===----------------------------------------------------------------------===//

def KProof_BarrierKind : I32EnumAttr<"BarrierKind",
    "the flavour of a CTA barrier (PTX ISA 9.7.13.4)", [
      I32EnumAttrCase<"Sync", 0, "sync">,
      I32EnumAttrCase<"Arrive", 1, "arrive">,
      I32EnumAttrCase<"Red", 2, "red">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_BarrierRedOp : I32EnumAttr<"BarrierRedOp",
    "reduction of bar.red (PTX ISA 9.7.13.4)", [
      I32EnumAttrCase<"Popc", 0, "popc">,
      I32EnumAttrCase<"And", 1, "and">,
      I32EnumAttrCase<"Or", 2, "or">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_FunctionKind : I32EnumAttr<"FunctionKind",
    "whether a PTX function is a kernel (.entry) or a device function (.func)", [
      I32EnumAttrCase<"Entry", 0, "entry">,
      I32EnumAttrCase<"Func", 1, "func">
    ]> {
  let cppNamespace = "::kproof";
}


//===----------------------------------------------------------------------===//
// Arithmetic (PTX ISA §9.7.1-9.7.8)
//===----------------------------------------------------------------------===//

def KProof_IntBinKind : I32EnumAttr<"IntBinKind",
    "binary integer and bitwise operations (PTX ISA 9.7.1, 9.7.8)", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Sub", 1, "sub">,
      I32EnumAttrCase<"MulLo", 2, "mul_lo">,
      I32EnumAttrCase<"MulHi", 3, "mul_hi">,
      I32EnumAttrCase<"Mul24Lo", 4, "mul24_lo">,
      I32EnumAttrCase<"Mul24Hi", 5, "mul24_hi">,
      I32EnumAttrCase<"Div", 6, "div">,
      I32EnumAttrCase<"Rem", 7, "rem">,
      I32EnumAttrCase<"Min", 8, "min">,
      I32EnumAttrCase<"Max", 9, "max">,
      I32EnumAttrCase<"And", 10, "and">,
      I32EnumAttrCase<"Or", 11, "or">,
      I32EnumAttrCase<"Xor", 12, "xor">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_IntUnaryKind : I32EnumAttr<"IntUnaryKind",
    "unary integer and bit operations (PTX ISA 9.7.1, 9.7.8)", [
      I32EnumAttrCase<"Abs", 0, "abs">,
      I32EnumAttrCase<"Neg", 1, "neg">,
      I32EnumAttrCase<"Not", 2, "not">,
      I32EnumAttrCase<"CNot", 3, "cnot">,
      I32EnumAttrCase<"Popc", 4, "popc">,
      I32EnumAttrCase<"Clz", 5, "clz">,
      I32EnumAttrCase<"Brev", 6, "brev">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_ShiftKind : I32EnumAttr<"ShiftKind", "shift direction", [
      I32EnumAttrCase<"Shl", 0, "shl">,
      I32EnumAttrCase<"Shr", 1, "shr">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_CmpPredicate : I32EnumAttr<"CmpPredicate",
    "comparison of setp/set (PTX ISA 9.7.7.1); lo/ls/hi/hs are imported as "
    "unsigned lt/le/gt/ge", [
      I32EnumAttrCase<"Eq", 0, "eq">,
      I32EnumAttrCase<"Ne", 1, "ne">,
      I32EnumAttrCase<"Lt", 2, "lt">,
      I32EnumAttrCase<"Le", 3, "le">,
      I32EnumAttrCase<"Gt", 4, "gt">,
      I32EnumAttrCase<"Ge", 5, "ge">,
      I32EnumAttrCase<"Equ", 6, "equ">,
      I32EnumAttrCase<"Neu", 7, "neu">,
      I32EnumAttrCase<"Ltu", 8, "ltu">,
      I32EnumAttrCase<"Leu", 9, "leu">,
      I32EnumAttrCase<"Gtu", 10, "gtu">,
      I32EnumAttrCase<"Geu", 11, "geu">,
      I32EnumAttrCase<"Num", 12, "num">,
      I32EnumAttrCase<"NaN", 13, "nan">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_FloatBinKind : I32EnumAttr<"FloatBinKind",
    "binary float operations (PTX ISA 9.7.3)", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Sub", 1, "sub">,
      I32EnumAttrCase<"Mul", 2, "mul">,
      I32EnumAttrCase<"Div", 3, "div">,
      I32EnumAttrCase<"Min", 4, "min">,
      I32EnumAttrCase<"Max", 5, "max">,
      I32EnumAttrCase<"CopySign", 6, "copysign">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_FloatUnaryKind : I32EnumAttr<"FloatUnaryKind",
    "unary float operations (PTX ISA 9.7.3, 9.7.4)", [
      I32EnumAttrCase<"Neg", 0, "neg">,
      I32EnumAttrCase<"Abs", 1, "abs">,
      I32EnumAttrCase<"Rcp", 2, "rcp">,
      I32EnumAttrCase<"Sqrt", 3, "sqrt">,
      I32EnumAttrCase<"Rsqrt", 4, "rsqrt">,
      I32EnumAttrCase<"Ex2", 5, "ex2">,
      I32EnumAttrCase<"Lg2", 6, "lg2">,
      I32EnumAttrCase<"Tanh", 7, "tanh">,
      I32EnumAttrCase<"Sin", 8, "sin">,
      I32EnumAttrCase<"Cos", 9, "cos">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_FloatMode : I32EnumAttr<"FloatMode",
    "rounding or approximation mode of a float op or conversion (PTX ISA "
    "9.7.3, 9.7.9.21)", [
      I32EnumAttrCase<"RN", 0, "rn">,
      I32EnumAttrCase<"RZ", 1, "rz">,
      I32EnumAttrCase<"RM", 2, "rm">,
      I32EnumAttrCase<"RP", 3, "rp">,
      I32EnumAttrCase<"RNI", 4, "rni">,
      I32EnumAttrCase<"RZI", 5, "rzi">,
      I32EnumAttrCase<"RMI", 6, "rmi">,
      I32EnumAttrCase<"RPI", 7, "rpi">,
      I32EnumAttrCase<"Approx", 8, "approx">,
      I32EnumAttrCase<"Full", 9, "full">,
      I32EnumAttrCase<"RNA", 10, "rna">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_TestpKind : I32EnumAttr<"TestpKind",
    "property tested by testp (PTX ISA 9.7.3.5)", [
      I32EnumAttrCase<"Finite", 0, "finite">,
      I32EnumAttrCase<"Infinite", 1, "infinite">,
      I32EnumAttrCase<"Number", 2, "number">,
      I32EnumAttrCase<"NotANumber", 3, "notanumber">,
      I32EnumAttrCase<"Normal", 4, "normal">,
      I32EnumAttrCase<"Subnormal", 5, "subnormal">
    ]> {
  let cppNamespace = "::kproof";
}

//===----------------------------------------------------------------------===//
// Atomics, warps, fences
//===----------------------------------------------------------------------===//

def KProof_AtomKind : I32EnumAttr<"AtomKind",
    "operation of atom/red (PTX ISA 9.7.13.5, 9.7.13.6)", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Min", 1, "min">,
      I32EnumAttrCase<"Max", 2, "max">,
      I32EnumAttrCase<"Exch", 3, "exch">,
      I32EnumAttrCase<"Cas", 4, "cas">,
      I32EnumAttrCase<"And", 5, "and">,
      I32EnumAttrCase<"Or", 6, "or">,
      I32EnumAttrCase<"Xor", 7, "xor">,
      I32EnumAttrCase<"Inc", 8, "inc">,
      I32EnumAttrCase<"Dec", 9, "dec">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_ShflMode : I32EnumAttr<"ShflMode",
    "source-lane computation of shfl.sync (PTX ISA 9.7.9.6)", [
      I32EnumAttrCase<"Up", 0, "up">,
      I32EnumAttrCase<"Down", 1, "down">,
      I32EnumAttrCase<"Bfly", 2, "bfly">,
      I32EnumAttrCase<"Idx", 3, "idx">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_VoteMode : I32EnumAttr<"VoteMode",
    "reduction of vote.sync (PTX ISA 9.7.13.10)", [
      I32EnumAttrCase<"All", 0, "all">,
      I32EnumAttrCase<"Any", 1, "any">,
      I32EnumAttrCase<"Uni", 2, "uni">,
      I32EnumAttrCase<"Ballot", 3, "ballot">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_ReduxKind : I32EnumAttr<"ReduxKind",
    "reduction of redux.sync (PTX ISA 9.7.13.12)", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Min", 1, "min">,
      I32EnumAttrCase<"Max", 2, "max">,
      I32EnumAttrCase<"And", 3, "and">,
      I32EnumAttrCase<"Or", 4, "or">,
      I32EnumAttrCase<"Xor", 5, "xor">
    ]> {
  let cppNamespace = "::kproof";
}

def KProof_MatchMode : I32EnumAttr<"MatchMode",
    "mode of match.sync (PTX ISA 9.7.13.10)", [
      I32EnumAttrCase<"Any", 0, "any">,
      I32EnumAttrCase<"All", 1, "all">
    ]> {
  let cppNamespace = "::kproof";
}

#endif // KPROOF_DIALECT_KPROOFATTRS_TD
