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
  let cppNamespace = "::mlir::kproof";
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
  let cppNamespace = "::mlir::kproof";
}

def KProof_MemScope : I32EnumAttr<"MemScope",
    "scope of a strong PTX operation (PTX ISA 8.5)", [
      I32EnumAttrCase<"CTA", 0, "cta">,
      I32EnumAttrCase<"Cluster", 1, "cluster">,
      I32EnumAttrCase<"GPU", 2, "gpu">,
      I32EnumAttrCase<"Sys", 3, "sys">
    ]> {
  let cppNamespace = "::mlir::kproof";
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
  let cppNamespace = "::mlir::kproof";
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
  let cppNamespace = "::mlir::kproof";
}

def KProof_BarrierRedOp : I32EnumAttr<"BarrierRedOp",
    "reduction of bar.red (PTX ISA 9.7.13.4)", [
      I32EnumAttrCase<"Popc", 0, "popc">,
      I32EnumAttrCase<"And", 1, "and">,
      I32EnumAttrCase<"Or", 2, "or">
    ]> {
  let cppNamespace = "::mlir::kproof";
}

def KProof_FunctionKind : I32EnumAttr<"FunctionKind",
    "whether a PTX function is a kernel (.entry) or a device function (.func)", [
      I32EnumAttrCase<"Entry", 0, "entry">,
      I32EnumAttrCase<"Func", 1, "func">
    ]> {
  let cppNamespace = "::mlir::kproof";
}

#endif // KPROOF_DIALECT_KPROOFATTRS_TD
