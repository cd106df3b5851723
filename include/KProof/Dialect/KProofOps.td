//===- KProofOps.td - kproof operations --------------------*- tablegen -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_DIALECT_KPROOFOPS_TD
#define KPROOF_DIALECT_KPROOFOPS_TD

include "KProof/Dialect/KProofDialect.td"
include "KProof/Dialect/KProofAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

/// A PTX integer register or address: i1 (.pred), i8, i16, i32, i64.
def KProof_AnyInt : AnyTypeOf<[I1, I8, I16, I32, I64]>;
/// A PTX address: a 32-bit or 64-bit integer, as in PTX (PTX ISA 6.4.1).
def KProof_Address : AnyTypeOf<[I32, I64]>;
/// Any value a PTX register can hold.
def KProof_RegType : AnyTypeOf<[I1, I8, I16, I32, I64, F16, BF16, F32, F64,
                                VectorOfLengthAndType<[2], [F16, BF16]>]>;

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def KProof_KernelOp : KProof_Op<"kernel", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove,
    OpAsmOpInterface, Symbol]> {
  let summary = "a PTX .entry (kernel) or .func (device function)";
  let description = [{
    One PTX function (PTX ISA 11.1 `.entry`, `.func`). The body is a CFG of
    blocks; the entry block's arguments are the function's parameters in PTX
    order, typed by their PTX parameter type (`.u64` is `i64`, `.f32` is
    `f32`). A kernel (`entry`) has no results; a device function (`func`)
    returns its `.param` return values through `kproof.return`.

    `ptx_name` keeps the PTX spelling (mangled) so the kernel can be found by
    its mangled or demangled name. Launch hints (`.maxntid`, `.reqntid`,
    `.minnctapersm`, `.maxnreg`) are kept as discardable attributes.
    Parameter attributes `kproof.ptx_type` (e.g. `"u64"`) and
    `kproof.param_name` keep the PTX declaration.

    Example:

    ```mlir
    kproof.kernel entry @scale(%x: i64 {kproof.ptx_type = "u64"}, %n: i32) {
      %tid = kproof.sreg tid.x : i32
      kproof.return
    }
    ```
  }];

  let arguments = (ins
    SymbolNameAttr:$sym_name,
    OptionalAttr<StrAttr>:$sym_visibility,
    KProof_FunctionKind:$kind,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs
  );
  let regions = (region AnyRegion:$body);

  let builders = [
    OpBuilder<(ins "llvm::StringRef":$name, "FunctionKind":$kind,
                   "FunctionType":$type)>
  ];

  let extraClassDeclaration = [{
    /// FunctionOpInterface: the parameter types, in PTX order.
    llvm::ArrayRef<Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// FunctionOpInterface: the `.param` return types of a `.func`.
    llvm::ArrayRef<Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// CallableOpInterface.
    Region *getCallableRegion() { return &getBody(); }
    /// True for a PTX `.entry`.
    bool isEntry() { return getKind() == FunctionKind::Entry; }
    /// OpAsmOpInterface: no `kproof.` prefix inside the op's own region.
    static llvm::StringRef getDefaultDialect() { return "kproof"; }
  }];

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def KProof_ReturnOp : KProof_Op<"return", [
    Pure, HasParent<"KernelOp">, ReturnLike, Terminator]> {
  let summary = "PTX `ret`: return from a .func or end a kernel";
  let description = [{
    PTX `ret` (PTX ISA 9.7.12.6). In a `.func` the operands are the values of
    the return parameters, whose types must match the function's result types.
    In a kernel `ret` ends the thread, like `exit`.

    ```mlir
    kproof.return %v : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

def KProof_ExitOp : KProof_Op<"exit", [Terminator, HasParent<"KernelOp">]> {
  let summary = "PTX `exit`: terminate the executing thread";
  let description = [{
    PTX `exit` (PTX ISA 9.7.12.7): the thread stops. Barriers then wait only
    for the remaining (non-exited) threads of each warp.

    ```mlir
    kproof.exit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Constants and symbols
//===----------------------------------------------------------------------===//

def KProof_ConstantOp : KProof_Op<"constant", [
    ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "a PTX immediate";
  let description = [{
    An immediate operand (PTX ISA 4.5): an integer of the register's width, or
    a float. Hexadecimal float immediates (`0f3FB8AA3B`, `0d...`) are exact
    and are kept bit-exact; the proof engine reads the value as an exact
    rational.

    ```mlir
    %c = kproof.constant 42 : i32
    %l = kproof.constant 1.44269502 : f32
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def KProof_GlobalOp : KProof_Op<"global", [Symbol]> {
  let summary = "a module-scope PTX variable (.global, .shared, .const, .local)";
  let description = [{
    A variable declaration (PTX ISA 5.4): `.shared .align 4 .b8 buf[1024]`,
    `.global .align 1 .b8 str[5] = {104, 105, 33, 10, 0}`, or the dynamic
    shared memory `.extern .shared .align 16 .b8 smem[]`.

    `elem_type` is the element type (`.b8` is `i8`), `count` the number of
    elements (absent for an unsized `.extern` array; 1 for a scalar), `align`
    the alignment in bytes, `init` the initializer as one integer or float
    per element. Its address in its own state space is taken with
    `kproof.addressof`.

    ```mlir
    kproof.global shared @buf : i8 [1024] {align = 4 : i64}
    kproof.global shared @dyn : i8 [] {align = 16 : i64, external}
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    KProof_StateSpace:$space,
    TypeAttr:$elem_type,
    OptionalAttr<I64Attr>:$count,
    DefaultValuedAttr<I64Attr, "1">:$align,
    UnitAttr:$external,
    OptionalAttr<ArrayAttr>:$init
  );
  let assemblyFormat = [{
    $space $sym_name `:` $elem_type `[` ($count^)? `]` attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The element size in bytes (1 for i8, 4 for f32); i1 counts as 1.
    uint64_t getElementSizeInBytes();
  }];
}

def KProof_AddressOfOp : KProof_Op<"addressof", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the address of a variable in its own state space";
  let description = [{
    A variable name used as a value or an address base (`mov.u32 %r, smem`,
    `[smem+16]`, PTX ISA 6.4.1): the address of the `kproof.global` in its own
    state space (a `.shared` variable gives a shared-window address, not a
    generic one; use `cvta` for that). The result is the PTX address width.

    ```mlir
    %a = kproof.addressof @buf : i32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs KProof_Address:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

def KProof_SRegOp : KProof_Op<"sreg", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "read a PTX special register (%tid.x, %laneid, ...)";
  let description = [{
    Reads a predefined read-only register (PTX ISA 10). `%tid`, `%ntid`,
    `%ctaid`, `%nctaid` and `%laneid` are fixed per thread for the whole launch
    (and so are pure); `%warpid`, `%smid`, the clocks and the global timer may
    change between reads (a thread can migrate), so every read is a fresh
    value and the op is not CSE'd. All registers are 32-bit except `clock64`
    and `globaltimer` (64-bit).

    ```mlir
    %t = kproof.sreg tid.x : i32
    %c = kproof.sreg clock64 : i64
    ```
  }];
  let arguments = (ins KProof_SpecialReg:$reg);
  let results = (outs AnyTypeOf<[I32, I64]>:$result);
  let assemblyFormat = "$reg attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True when the register may change between two reads of one thread.
    bool isVolatileRegister();
  }];
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def KProof_LoadOp : KProof_Op<"ld", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "PTX `ld`: load 1, 2 or 4 elements from a state space";
  let description = [{
    PTX `ld` and `ld.global.nc` (PTX ISA 9.7.9.8, 9.7.9.9). Reads one element,
    or a vector `.v2`/`.v4` of consecutive elements (one result each), from
    the byte address `addr + offset` in state space `space`. All results have
    the type of the PTX instruction's type suffix (`.f32` is `f32`, `.b32` is
    `i32`); a narrower load into a wider register is followed by an explicit
    extension. The address must be aligned to the access size (vector size
    times element size); a misaligned access is undefined behaviour.

    `sem` and `scope` give the memory-model strength (PTX ISA 8): `weak` (the
    default), `volatile`, `relaxed` or `acquire` with a scope. `nc` is the
    read-only non-coherent path (`.global` only). `cache` keeps the cache
    qualifiers verbatim (`L1::evict_last`, `cs`, `L2::128B`, ...); `policy`
    is the 64-bit cache policy of `.L2::cache_hint`. A false guard on the PTX
    instruction is modeled by the importer (the destination keeps its value).

    ```mlir
    %v = kproof.ld global %p {offset = 16 : i64} : i64 -> f32
    %a, %b = kproof.ld shared %q sem relaxed scope cta : i32 -> i32, i32
    ```
  }];
  let arguments = (ins
    KProof_Address:$addr,
    Optional<I64>:$policy,
    KProof_StateSpace:$space,
    DefaultValuedAttr<I64Attr, "0">:$offset,
    DefaultValuedAttr<KProof_MemSemantics, "MemSemantics::Weak">:$sem,
    OptionalAttr<KProof_MemScope>:$scope,
    UnitAttr:$nc,
    OptionalAttr<StrArrayAttr>:$cache
  );
  let results = (outs Variadic<KProof_RegType>:$results);
  let assemblyFormat = [{
    $space $addr (`policy` $policy^)? (`sem` $sem^)? (`scope` $scope^)? attr-dict
    `:` type($addr) `->` type($results)
  }];
  let hasVerifier = 1;
}

def KProof_StoreOp : KProof_Op<"st", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "PTX `st`: store 1, 2 or 4 elements to a state space";
  let description = [{
    PTX `st` (PTX ISA 9.7.9.10). Writes the `values` (one element, or a
    `.v2`/`.v4` vector of consecutive elements, all of one type) to the byte
    address `addr + offset` in state space `space`. Alignment, `sem`, `scope`,
    `cache` and `policy` are as for `kproof.ld`; a strong store is `volatile`,
    `relaxed` or `release`.

    ```mlir
    kproof.st global %p, %v {offset = 4 : i64} : i64, f32
    ```
  }];
  let arguments = (ins
    KProof_Address:$addr,
    Variadic<KProof_RegType>:$values,
    Optional<I64>:$policy,
    KProof_StateSpace:$space,
    DefaultValuedAttr<I64Attr, "0">:$offset,
    DefaultValuedAttr<KProof_MemSemantics, "MemSemantics::Weak">:$sem,
    OptionalAttr<KProof_MemScope>:$scope,
    OptionalAttr<StrArrayAttr>:$cache
  );
  let assemblyFormat = [{
    $space $addr `,` $values (`policy` $policy^)? (`sem` $sem^)? (`scope` $scope^)?
    attr-dict `:` type($addr) `,` type($values)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

def KProof_BarrierOp : KProof_Op<"barrier", [AttrSizedOperandSegments]> {
  let summary = "PTX `bar`/`barrier`: CTA-wide named barrier";
  let description = [{
    PTX `bar{.cta}.sync`, `bar{.cta}.arrive`, `bar{.cta}.red` and
    `barrier{.cta}.{sync,arrive,red}{.aligned}` (PTX ISA 9.7.13.4). `id` is the
    barrier number (0-15; barrier 0 when absent), `count` the number of
    participating threads (a multiple of the warp size; all threads of the CTA
    when absent). `bar.sync` is `barrier.sync.aligned`: `aligned` means all
    threads of the CTA execute the same barrier instruction, so a divergent
    `aligned` barrier is undefined behaviour.

    `sync` waits until all participants arrived; at completion every
    participant's earlier shared and global accesses are performed for all
    participants. `arrive` signals without waiting. `red` is `sync` plus a
    CTA-wide reduction of the predicate `pred` (`popc` gives a 32-bit count,
    `and`/`or` a predicate).

    ```mlir
    kproof.barrier sync {aligned}
    kproof.barrier arrive id %id count %n
    %r = kproof.barrier red op popc, %p {aligned} -> i32
    ```
  }];
  let arguments = (ins
    KProof_BarrierKind:$kind,
    Optional<I32>:$id,
    Optional<I32>:$count,
    Optional<I1>:$pred,
    OptionalAttr<KProof_BarrierRedOp>:$red_op,
    UnitAttr:$aligned
  );
  let results = (outs Optional<AnyTypeOf<[I1, I32]>>:$result);
  let assemblyFormat = [{
    $kind (`op` $red_op^ `,` $pred)? (`id` $id^)? (`count` $count^)? attr-dict
    (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

#endif // KPROOF_DIALECT_KPROOFOPS_TD
