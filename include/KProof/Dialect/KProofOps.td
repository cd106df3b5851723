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
include "mlir/Interfaces/InferTypeOpInterface.td"
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
                   "mlir::FunctionType":$type)>
  ];

  let extraClassDeclaration = [{
    /// FunctionOpInterface: the parameter types, in PTX order.
    llvm::ArrayRef<mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// FunctionOpInterface: the `.param` return types of a `.func`.
    llvm::ArrayRef<mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// CallableOpInterface.
    mlir::Region *getCallableRegion() { return &getBody(); }
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
    value and the op is not CSE'd. All registers are 32-bit except `clock64`,
    `globaltimer` and `gridid` (64-bit).

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


//===----------------------------------------------------------------------===//
// Values and moves
//===----------------------------------------------------------------------===//

def KProof_UndefOp : KProof_Op<"undef", [Pure]> {
  let summary = "the value of a register read before any write";
  let description = [{
    PTX registers start with unspecified contents (PTX ISA 5.2.1). The importer
    produces `kproof.undef` for a read of a register that no path has written;
    the proof engine gives it a fresh unconstrained value per thread, so a
    proof never depends on it.

    ```mlir
    %u = kproof.undef : i32
    ```
  }];
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def KProof_BitcastOp : KProof_Op<"bitcast", [Pure]> {
  let summary = "reinterpret the bits of a register at another type";
  let description = [{
    The same bits viewed at a type of the same width (`f32` <-> `i32`,
    `f16` <-> `i16`, `vector<2xf16>` <-> `i32`). PTX registers are untyped bit
    containers and types come from the opcode (PTX ISA 5.2.3, 6.4.2), so the
    importer inserts a bitcast where an instruction reads a register at a
    type other than the one its value was produced at. A real value that
    crosses a bitcast into an integer operation is unmodeled in the reals
    model.

    ```mlir
    %f = kproof.bitcast %r : i32 to f32
    ```
  }];
  let arguments = (ins KProof_RegType:$input);
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

def KProof_PackOp : KProof_Op<"pack", [Pure]> {
  let summary = "concatenate registers into a wider one: mov.b32 d, {lo, hi}";
  let description = [{
    PTX `mov.bN d, {a, b, ...}` (PTX ISA 9.7.9.1): the first element goes to
    the least significant bits. All elements have one integer type and the
    result is their concatenation.

    ```mlir
    %d = kproof.pack %lo, %hi : i16, i16 -> i32
    ```
  }];
  let arguments = (ins Variadic<KProof_AnyInt>:$elements);
  let results = (outs KProof_AnyInt:$result);
  let assemblyFormat = "$elements attr-dict `:` type($elements) `->` type($result)";
  let hasVerifier = 1;
}

def KProof_UnpackOp : KProof_Op<"unpack", [Pure]> {
  let summary = "split a register into narrower ones: mov.b32 {lo, hi}, s";
  let description = [{
    PTX `mov.bN {a, b, ...}, s` (PTX ISA 9.7.9.1): the first result receives
    the least significant bits.

    ```mlir
    %lo, %hi = kproof.unpack %s : i32 -> i16, i16
    ```
  }];
  let arguments = (ins KProof_AnyInt:$input);
  let results = (outs Variadic<KProof_AnyInt>:$elements);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($elements)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Integer arithmetic and bit manipulation
//===----------------------------------------------------------------------===//

def KProof_IntBinOp : KProof_Op<"ibin", [Pure, SameOperandsAndResultType]> {
  let summary = "binary integer or bitwise operation on one width";
  let description = [{
    PTX integer `add sub mul.lo mul.hi mul24.lo mul24.hi div rem min max`
    (PTX ISA 9.7.1) and bitwise `and or xor` (9.7.8), on `i1` (predicates,
    bitwise only), `i16`, `i32`, `i64`. Arithmetic is modulo 2^N (wrap-around)
    unless `sat` (`add.sat.s32`, `sub.sat.s32`: clamp to the signed range).
    `signed` selects the `.sN` variant for `mul.hi`, `mul24`, `div`, `rem`,
    `min`, `max`. Division by zero gives an unspecified value (no trap); the
    proof engine raises an obligation. `mad.lo`/`mad.hi` are imported as this
    op's `mul_lo`/`mul_hi` followed by `add`, which is exact in modular
    arithmetic.

    ```mlir
    %s = kproof.ibin add %a, %b : i32
    %q = kproof.ibin div %a, %b {is_signed} : i32
    ```
  }];
  let arguments = (ins KProof_IntBinKind:$kind, KProof_AnyInt:$lhs,
                       KProof_AnyInt:$rhs, UnitAttr:$is_signed, UnitAttr:$sat);
  let results = (outs KProof_AnyInt:$result);
  let assemblyFormat = "$kind $lhs `,` $rhs attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def KProof_IntUnaryOp : KProof_Op<"iunary", [Pure]> {
  let summary = "unary integer or bit operation";
  let description = [{
    PTX `abs neg` (PTX ISA 9.7.1, signed), `not cnot` (9.7.8), `popc clz brev`
    (9.7.1.13-16). `popc` and `clz` produce a 32-bit count for any input
    width; the others keep the input type. `not` on `i1` negates a predicate.

    ```mlir
    %n = kproof.iunary popc %x : i64 -> i32
    %p = kproof.iunary not %q : i1 -> i1
    ```
  }];
  let arguments = (ins KProof_IntUnaryKind:$kind, KProof_AnyInt:$input);
  let results = (outs KProof_AnyInt:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def KProof_ShiftOp : KProof_Op<"shift", [Pure,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "PTX shl/shr: shifts clamp, they are never poison";
  let description = [{
    PTX `shl.bN` and `shr.{bN,uN,sN}` (PTX ISA 9.7.8.7-8). The shift amount
    is an unsigned 32-bit value; amounts >= N give 0 (`shl`, logical `shr`)
    or the sign fill (`shr.sN`, `signed`), unlike `arith.shli`, where they
    are poison.

    ```mlir
    %r = kproof.shift shr %x, %n {is_signed} : i64
    ```
  }];
  let arguments = (ins KProof_ShiftKind:$kind, KProof_AnyInt:$input,
                       I32:$amount, UnitAttr:$is_signed);
  let results = (outs KProof_AnyInt:$result);
  let assemblyFormat = [{
    $kind $input `,` $amount attr-dict `:` type($input)
  }];
}

def KProof_MulWideOp : KProof_Op<"mul_wide", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "PTX mul.wide: the full 2N-bit product";
  let description = [{
    PTX `mul.wide.{s16,u16,s32,u32}` (PTX ISA 9.7.1.3): both operands are
    sign- (`signed`) or zero-extended to 2N bits and multiplied; the result
    is exact. `mad.wide` is imported as `mul_wide` + `add`.

    ```mlir
    %w = kproof.mul_wide %a, %b {is_signed} : i32 -> i64
    ```
  }];
  let arguments = (ins KProof_AnyInt:$lhs, KProof_AnyInt:$rhs,
                       UnitAttr:$is_signed);
  let results = (outs KProof_AnyInt:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def KProof_BfeOp : KProof_Op<"bfe", [Pure,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "PTX bfe: bit-field extract";
  let description = [{
    PTX `bfe.{u32,u64,s32,s64} d, a, pos, len` (PTX ISA 9.7.8.10): extracts
    `len` bits of `a` starting at `pos` (both taken modulo 256 from their low
    8 bits); `signed` sign-extends the field (with the sign bit taken from
    `a`'s top bit when the field extends past it), otherwise zero-extends.
    A length of 0 gives 0.

    ```mlir
    %f = kproof.bfe %a, %pos, %len {is_signed} : i32
    ```
  }];
  let arguments = (ins KProof_AnyInt:$input, I32:$pos, I32:$len,
                       UnitAttr:$is_signed);
  let results = (outs KProof_AnyInt:$result);
  let assemblyFormat = [{
    $input `,` $pos `,` $len attr-dict `:` type($input)
  }];
}

def KProof_BfiOp : KProof_Op<"bfi", [Pure,
    AllTypesMatch<["insert", "base", "result"]>]> {
  let summary = "PTX bfi: bit-field insert";
  let description = [{
    PTX `bfi.{b32,b64} f, a, b, pos, len` (PTX ISA 9.7.8.11): `b` with its
    bits `[pos, pos+len)` replaced by the low `len` bits of `a` (pos, len
    taken from their low 8 bits; fields past the width are truncated).

    ```mlir
    %f = kproof.bfi %a, %b, %pos, %len : i32
    ```
  }];
  let arguments = (ins KProof_AnyInt:$insert, KProof_AnyInt:$base, I32:$pos,
                       I32:$len);
  let results = (outs KProof_AnyInt:$result);
  let assemblyFormat = [{
    $insert `,` $base `,` $pos `,` $len attr-dict `:` type($base)
  }];
}

def KProof_PrmtOp : KProof_Op<"prmt", [Pure]> {
  let summary = "PTX prmt: byte permute";
  let description = [{
    PTX `prmt.b32{.mode} d, a, b, c` (PTX ISA 9.7.8.9): selects 4 bytes out
    of the 8 bytes of `{b, a}` according to selector `c`. `mode` is absent
    (generic: each nibble of c picks a byte, bit 3 replicates its sign) or
    one of `f4e b4e rc8 ecl ecr rc16`.

    ```mlir
    %d = kproof.prmt %a, %b, %c : i32
    %e = kproof.prmt %a, %b, %c {mode = "rc16"} : i32
    ```
  }];
  let arguments = (ins I32:$a, I32:$b, I32:$selector,
                       OptionalAttr<StrAttr>:$mode);
  let results = (outs I32:$result);
  let assemblyFormat = "$a `,` $b `,` $selector attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def KProof_Lop3Op : KProof_Op<"lop3", [Pure]> {
  let summary = "PTX lop3: arbitrary three-input logic";
  let description = [{
    PTX `lop3.b32 d, a, b, c, immLut` (PTX ISA 9.7.8.6): each result bit is
    `immLut` indexed by the corresponding bits of (a, b, c), i.e. the function
    F with F(0xF0, 0xCC, 0xAA) = immLut.

    ```mlir
    %d = kproof.lop3 %a, %b, %c {lut = 150 : i32} : i32
    ```
  }];
  let arguments = (ins I32:$a, I32:$b, I32:$c, I32Attr:$lut);
  let results = (outs I32:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def KProof_ShfOp : KProof_Op<"shf", [Pure]> {
  let summary = "PTX shf: funnel shift";
  let description = [{
    PTX `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c` (PTX ISA 9.7.8.8): shifts the
    64-bit value `{b, a}` (b high) left (`l`) or right by `c`, taken modulo 32
    (`wrap`) or clamped to 32 (`clamp`), and returns the high (left) or low
    (right) 32 bits.

    ```mlir
    %d = kproof.shf %a, %b, %c {left, clamp} : i32
    ```
  }];
  let arguments = (ins I32:$a, I32:$b, I32:$amount, UnitAttr:$left,
                       UnitAttr:$clamp);
  let results = (outs I32:$result);
  let assemblyFormat = "$a `,` $b `,` $amount attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Comparison and selection
//===----------------------------------------------------------------------===//

def KProof_CmpOp : KProof_Op<"cmp", [Pure, SameTypeOperands]> {
  let summary = "the comparison of setp";
  let description = [{
    The comparison of PTX `setp.CmpOp.type` (PTX ISA 9.7.7.1), producing a
    predicate. On integers `signed` selects the `.sN` ordering (`lo ls hi hs`
    are imported as unsigned `lt le gt ge`). On floats `eq ne lt le gt ge` are
    ordered (false if either input is NaN), `equ neu ltu leu gtu geu`
    unordered (true if either is NaN), `num` is true when neither is NaN and
    `nan` when either is; `ftz` flushes subnormal inputs. The combining forms
    `setp.CmpOp.BoolOp p|q, a, b, c` are imported as `cmp` followed by
    `ibin and/or/xor` on `i1`.

    ```mlir
    %p = kproof.cmp lt %a, %b {is_signed} : i32
    %q = kproof.cmp geu %x, %y : f32
    ```
  }];
  let arguments = (ins KProof_CmpPredicate:$predicate, KProof_RegType:$lhs,
                       KProof_RegType:$rhs, UnitAttr:$is_signed, UnitAttr:$ftz);
  let results = (outs I1:$result);
  let assemblyFormat = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)";
  let hasVerifier = 1;
}

def KProof_SelpOp : KProof_Op<"selp", [Pure,
    AllTypesMatch<["trueValue", "falseValue", "result"]>]> {
  let summary = "PTX selp: select by a predicate";
  let description = [{
    PTX `selp.type d, a, b, c` (PTX ISA 9.7.7.3): `d = c ? a : b`. Bit
    preserving for every type, so real values travel through it.

    ```mlir
    %d = kproof.selp %c, %a, %b : f32
    ```
  }];
  let arguments = (ins I1:$condition, KProof_RegType:$trueValue,
                       KProof_RegType:$falseValue);
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = "$condition `,` $trueValue `,` $falseValue attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

def KProof_CvtOp : KProof_Op<"cvt", [Pure]> {
  let summary = "PTX cvt: convert between integer and float types";
  let description = [{
    PTX `cvt{.frnd}{.ftz}{.sat}.dtype.atype` (PTX ISA 9.7.9.21), between any of
    `i8 i16 i32 i64` (signedness in `src_signed`/`dst_signed`) and `f16 bf16
    f32 f64`.
    - int -> int: truncate, or sign-/zero-extend by the source signedness;
      `sat` clamps to the destination range.
    - float -> int: `mode` is an integer rounding (`rni rzi rmi rpi`); NaN
      gives 0 and out-of-range values saturate (never poison).
    - int -> float, float -> narrower float: `mode` is `rn rz rm rp` (or
      `rna`, `rn` with `satfinite` forms kept in `mode`); a narrowing float
      conversion is a precision downgrade the proof engine reports.
    - float -> same or wider float: exact; `mode` `rni..rpi` rounds to an
      integral value.
    - `ftz` flushes subnormals, `sat` clamps float results to [0, 1].
    Also used by the importer to extend narrow loads (`ld.u8` into a 32-bit
    register) and to adjust register widths (PTX ISA 6.4.3).

    ```mlir
    %i = kproof.cvt %x mode rzi {dst_signed} : f32 -> i32
    %h = kproof.cvt %x mode rn : f32 -> bf16
    %w = kproof.cvt %a {src_signed, dst_signed} : i32 -> i64
    ```
  }];
  let arguments = (ins KProof_RegType:$input,
                       OptionalAttr<KProof_FloatMode>:$mode,
                       UnitAttr:$src_signed, UnitAttr:$dst_signed,
                       UnitAttr:$ftz, UnitAttr:$sat);
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = [{
    $input (`mode` $mode^)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def KProof_CvtPackOp : KProof_Op<"cvt_pack", [Pure]> {
  let summary = "PTX cvt to a packed f16x2/bf16x2 from two f32";
  let description = [{
    PTX `cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b` (PTX ISA
    9.7.9.21): converts `a` into the upper and `b` into the lower half of the
    packed result (note the order). A precision downgrade.

    ```mlir
    %d = kproof.cvt_pack %a, %b mode rn : f32 -> vector<2xbf16>
    ```
  }];
  let arguments = (ins F32:$hi, F32:$lo, KProof_FloatMode:$mode,
                       UnitAttr:$relu, UnitAttr:$satfinite);
  let results = (outs VectorOfLengthAndType<[2], [F16, BF16]>:$result);
  let assemblyFormat = [{
    $hi `,` $lo `mode` $mode attr-dict `:` type($hi) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Floating point
//===----------------------------------------------------------------------===//

def KProof_FloatBinOp : KProof_Op<"fbin", [Pure, SameOperandsAndResultType]> {
  let summary = "binary float operation with PTX modifiers";
  let description = [{
    PTX `add sub mul div min max copysign` on `f16 bf16 f32 f64` and packed
    `f16x2/bf16x2` (PTX ISA 9.7.3, 9.7.4). `mode` is the rounding (`rn rz rm
    rp`), or for `div` `approx`/`full` (`div.full.f32`, `div.approx.f32`:
    a * (1/b) within 2 ulp); `ftz` flushes subnormals, `sat` clamps to
    [0, 1]. `add/sub/mul` without a rounding mode may be contracted into an
    fma by ptxas (PTX ISA 9.7.3.1). `min/max` return the non-NaN operand when
    one is NaN unless `nan` (`.NaN`: propagate). `copysign d, a, b` gives
    |b| with the sign of `a`. In the reals model of the proof engine every op
    is its exact real function.

    ```mlir
    %s = kproof.fbin add %a, %b {ftz} : f32
    %q = kproof.fbin div %a, %b mode approx {ftz} : f32
    ```
  }];
  let arguments = (ins KProof_FloatBinKind:$kind, KProof_RegType:$lhs,
                       KProof_RegType:$rhs,
                       OptionalAttr<KProof_FloatMode>:$mode,
                       UnitAttr:$ftz, UnitAttr:$sat, UnitAttr:$nan);
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = [{
    $kind $lhs `,` $rhs (`mode` $mode^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def KProof_FmaOp : KProof_Op<"fma", [Pure, SameOperandsAndResultType]> {
  let summary = "PTX fma (and mad.f32/f64): fused multiply-add";
  let description = [{
    PTX `fma.rnd{.ftz}{.sat}.type d, a, b, c` (PTX ISA 9.7.3.6): a*b + c with
    one rounding; `mad.rnd.f32/f64` is the same operation (PTX ISA 9.7.3.7).

    ```mlir
    %d = kproof.fma %a, %b, %c mode rn : f32
    ```
  }];
  let arguments = (ins KProof_RegType:$a, KProof_RegType:$b, KProof_RegType:$c,
                       OptionalAttr<KProof_FloatMode>:$mode,
                       UnitAttr:$ftz, UnitAttr:$sat);
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`mode` $mode^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def KProof_FloatUnaryOp : KProof_Op<"funary", [Pure, SameOperandsAndResultType]> {
  let summary = "unary float operation with PTX modifiers";
  let description = [{
    PTX `neg abs` (exact), `rcp sqrt` (`rn rz rm rp` or `approx`), `rsqrt ex2
    lg2 tanh sin cos` (`approx`) (PTX ISA 9.7.3, 9.7.4). Error bounds of the
    approximations (PTX ISA): `ex2.approx.f32` 2 ulp; `lg2.approx` 2^-22
    absolute on (0.5, 2); `rcp.approx` 1 ulp; `rsqrt.approx` 2^-22.9
    relative; `tanh.approx` 2^-11 relative. In the reals model each is its
    exact mathematical function (ex2 is 2^x); an IEEE model bounds the error.

    ```mlir
    %e = kproof.funary ex2 %x mode approx {ftz} : f32
    ```
  }];
  let arguments = (ins KProof_FloatUnaryKind:$kind, KProof_RegType:$input,
                       OptionalAttr<KProof_FloatMode>:$mode,
                       UnitAttr:$ftz, UnitAttr:$sat);
  let results = (outs KProof_RegType:$result);
  let assemblyFormat = [{
    $kind $input (`mode` $mode^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def KProof_TestpOp : KProof_Op<"testp", [Pure]> {
  let summary = "PTX testp: classify a float";
  let description = [{
    PTX `testp.op.type p, a` (PTX ISA 9.7.3.5): whether `a` is finite,
    infinite, a number, NaN, normal or subnormal.

    ```mlir
    %p = kproof.testp finite %x : f32
    ```
  }];
  let arguments = (ins KProof_TestpKind:$kind, AnyTypeOf<[F32, F64]>:$input);
  let results = (outs I1:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// Addresses
//===----------------------------------------------------------------------===//

def KProof_CvtaOp : KProof_Op<"cvta", [Pure,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "PTX cvta: convert between a state-space and a generic address";
  let description = [{
    PTX `cvta.space.size d, a` turns an address in `space` (`global shared
    local const param`) into a generic address; `cvta.to.space.size d, a`
    (`to`) turns a generic address into one of `space` (PTX ISA 9.7.9.17).
    For `.global` the two coincide on every current target; the proof engine
    keeps the conversion exact for the others.

    ```mlir
    %g = kproof.cvta to global %p : i64
    ```
  }];
  let arguments = (ins KProof_StateSpace:$space, KProof_Address:$input,
                       UnitAttr:$to);
  let results = (outs KProof_Address:$result);
  let assemblyFormat = [{
    (`to` $to^)? $space $input attr-dict `:` type($input)
  }];
}

//===----------------------------------------------------------------------===//
// Atomics, warp collectives, fences
//===----------------------------------------------------------------------===//

def KProof_AtomOp : KProof_Op<"atom", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "PTX atom/red: atomic read-modify-write";
  let description = [{
    PTX `atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}` and `red` (no
    result) (PTX ISA 9.7.13.5-6). Reads the element at `addr + offset`,
    combines it with `b` (`cas`: stores `c` if it equals `b`; `inc`/`dec`:
    wrap at `b`), writes it back atomically, and returns the old value
    (`atom`). Defaults: `.relaxed` and `.gpu` scope. `signed` selects the
    `.sN` ordering of `min`/`max`. `atom.add.f32` rounds to nearest and
    flushes subnormals on `.global`.

    ```mlir
    %old = kproof.atom add global %p, %v scope gpu : i64, f32 -> f32
    kproof.atom add shared %q, %one scope cta : i32, i32
    ```
  }];
  let arguments = (ins KProof_AtomKind:$kind, KProof_StateSpace:$space,
                       KProof_Address:$addr, KProof_RegType:$value,
                       Optional<KProof_RegType>:$swap,
                       DefaultValuedAttr<I64Attr, "0">:$offset,
                       DefaultValuedAttr<KProof_MemSemantics,
                                         "MemSemantics::Relaxed">:$sem,
                       DefaultValuedAttr<KProof_MemScope, "MemScope::GPU">:$scope,
                       UnitAttr:$is_signed);
  let results = (outs Optional<KProof_RegType>:$result);
  let assemblyFormat = [{
    $kind $space $addr `,` $value (`,` $swap^)? (`sem` $sem^)? `scope` $scope
    attr-dict `:` type($addr) `,` type($value) (`,` type($swap)^)?
    (`->` type($result)^)?
  }];
  let hasVerifier = 1;
}

def KProof_ShflOp : KProof_Op<"shfl"> {
  let summary = "PTX shfl.sync: exchange a register across the lanes of a warp";
  let description = [{
    PTX `shfl.sync.mode.b32 d{|p}, a, b, c, membermask` (PTX ISA 9.7.9.6).
    `c` packs the clamp value (bits 4:0) and the segment mask (bits 12:8);
    the source lane is `lane - b` (up), `lane + b` (down), `lane ^ b` (bfly)
    or `minLane | (b & ~segmask)` (idx), with `maxLane = (lane & segmask) |
    (clamp & ~segmask)`. An out-of-range source keeps the thread's own `a`
    and gives `in_range` = false. The executing lane must be in
    `membermask`, and every lane it names must execute the same shfl.sync.

    ```mlir
    %d, %p = kproof.shfl bfly %a, %b, %c, %mask : i32
    ```
  }];
  let arguments = (ins KProof_ShflMode:$mode, I32:$value, I32:$lane_arg,
                       I32:$clamp, I32:$membermask);
  let results = (outs I32:$result, I1:$in_range);
  let assemblyFormat = [{
    $mode $value `,` $lane_arg `,` $clamp `,` $membermask attr-dict `:` type($result)
  }];
}

def KProof_VoteOp : KProof_Op<"vote"> {
  let summary = "PTX vote.sync: warp-wide predicate reduction";
  let description = [{
    PTX `vote.sync.mode d, {!}a, membermask` (PTX ISA 9.7.13.10): `all`,
    `any`, `uni` (all equal) give a predicate over the lanes of
    `membermask`; `ballot` a 32-bit mask with bit i = a of lane i.

    ```mlir
    %all = kproof.vote all %p, %mask -> i1
    %bits = kproof.vote ballot %p, %mask -> i32
    ```
  }];
  let arguments = (ins KProof_VoteMode:$mode, I1:$predicate, I32:$membermask);
  let results = (outs AnyTypeOf<[I1, I32]>:$result);
  let assemblyFormat = "$mode $predicate `,` $membermask attr-dict `->` type($result)";
  let hasVerifier = 1;
}

def KProof_ReduxOp : KProof_Op<"redux"> {
  let summary = "PTX redux.sync: warp-wide integer reduction";
  let description = [{
    PTX `redux.sync.op.type d, a, membermask` (PTX ISA 9.7.13.12, sm_80):
    `d` is `op` over the 32-bit `a` of every lane of `membermask`: `add`
    (modulo 2^32), `min` and `max` (unsigned, or two's complement with
    `signed`: `.u32` / `.s32`), `and`, `or`, `xor` (`.b32`). The executing
    lane must be in `membermask`, and every lane it names must execute a
    redux.sync with the same operation and mask. The `.f32` min/max forms
    (sm_100a) are not imported.

    ```mlir
    %sum = kproof.redux add %a, %mask : i32
    %lo = kproof.redux min signed %a, %mask : i32
    ```
  }];
  let arguments = (ins KProof_ReduxKind:$kind, UnitAttr:$is_signed,
                       I32:$value, I32:$membermask);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $kind (`signed` $is_signed^)? $value `,` $membermask attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def KProof_MatchOp : KProof_Op<"match"> {
  let summary = "PTX match.sync: lanes of a warp holding the same value";
  let description = [{
    PTX `match.any.sync.type d, a, membermask` and `match.all.sync.type
    d{|p}, a, membermask` (PTX ISA 9.7.13.10, sm_70), `a` of `.b32` or
    `.b64`. `any`: bit i of `result` is set when lane i is in `membermask`
    and its `a` equals the executing lane's. `all`: `result` is
    `membermask` when every lane of it holds the same `a`, else 0. In both
    modes `all_equal` is that predicate (PTX writes it only for `all`). The
    executing lane must be in `membermask`, and every lane it names must
    execute a match.sync with the same mode and mask.

    ```mlir
    %peers, %p = kproof.match any %key, %mask : i32
    ```
  }];
  let arguments = (ins KProof_MatchMode:$mode, AnyTypeOf<[I32, I64]>:$value,
                       I32:$membermask);
  let results = (outs I32:$result, I1:$all_equal);
  let assemblyFormat = [{
    $mode $value `,` $membermask attr-dict `:` type($value)
  }];
}

def KProof_ElectOp : KProof_Op<"elect"> {
  let summary = "PTX elect.sync: elect one leader lane of a membermask";
  let description = [{
    PTX `elect.sync d|p, membermask` (PTX ISA 9.7.13.14, sm_90): `leader`
    is the lane id of one lane of `membermask`, and `is_leader` is true on
    that lane only. The PTX ISA fixes the leader as a function of the mask
    (the same mask elects the same lane every time) but not which lane:
    the verifier reads it as one unspecified lane of the mask, the
    interpreter elects the lowest. The executing lane must be in
    `membermask`, and every lane it names must execute an elect.sync with
    the same mask.

    ```mlir
    %lane, %leader = kproof.elect %mask
    ```
  }];
  let arguments = (ins I32:$membermask);
  let results = (outs I32:$leader, I1:$is_leader);
  let assemblyFormat = "$membermask attr-dict";
}

def KProof_ActiveMaskOp : KProof_Op<"activemask"> {
  let summary = "PTX activemask: the mask of currently active lanes";
  let description = [{
    PTX `activemask.b32 d` (PTX ISA 9.7.13.11): bit i is set when lane i of
    the warp executes this instruction with the current thread.

    ```mlir
    %m = kproof.activemask : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def KProof_WarpSyncOp : KProof_Op<"warp_sync"> {
  let summary = "PTX bar.warp.sync: synchronize the lanes of a mask";
  let description = [{
    PTX `bar.warp.sync membermask` (PTX ISA 9.7.13.3): the executing lane
    waits until every lane of `membermask` executed a bar.warp.sync with the
    same mask; it also orders memory among them.

    ```mlir
    kproof.warp_sync %mask
    ```
  }];
  let arguments = (ins I32:$membermask);
  let assemblyFormat = "$membermask attr-dict";
}

def KProof_FenceOp : KProof_Op<"fence"> {
  let summary = "PTX membar/fence: order memory accesses";
  let description = [{
    PTX `fence{.sem}.scope` and `membar.level` (PTX ISA 9.7.13.4): `sem` is
    `sc` (sequentially consistent; `membar` is `fence.sc` on sm_70+) or
    `acq_rel`; `scope` is `cta`, `cluster`, `gpu` or `sys`
    (`membar.cta/gl/sys`).

    ```mlir
    kproof.fence scope gpu      // fence.acq_rel.gpu
    kproof.fence sc scope sys   // membar.sys
    ```
  }];
  let arguments = (ins UnitAttr:$sc, KProof_MemScope:$scope);
  let assemblyFormat = "(`sc` $sc^)? `scope` $scope attr-dict";
}

def KProof_CpAsyncOp : KProof_Op<"cp_async", [AttrSizedOperandSegments]> {
  let summary = "PTX cp.async: asynchronous copy from global to shared memory";
  let description = [{
    PTX `cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size
    {, src-size | , ignore-src}{, cache-policy}` (PTX ISA, Data Movement
    and Conversion Instructions: cp.async; sm_80). Starts a copy of `size` bytes (4, 8 or 16; 16 only for `.cg`,
    which `bypass_l1` marks) from the `.global` byte address `src +
    src_offset` to the `.shared` byte address `dst + dst_offset`; both must be
    aligned to `size`. With `src_size` (bytes, at most `size`) only that many
    bytes are read and the rest of the destination is filled with zeros;
    `ignore_src` true reads nothing and fills it all with zeros.

    The copy is asynchronous: it joins the thread's current cp.async-group
    (`kproof.cp_async_commit` closes it), and it is performed only by the
    time the issuing thread completes a `kproof.cp_async_wait` covering its
    group. Until then any access to the destination bytes, by any thread,
    is a data race; after it the bytes are visible to the issuing thread,
    and to other threads only through a later barrier. `cache` keeps the
    cache qualifiers verbatim (`L2::128B`, `L2::cache_hint`), `policy` the
    64-bit cache policy of `.L2::cache_hint`.

    ```mlir
    kproof.cp_async %dst, %src, 4 : i32, i64
    kproof.cp_async %dst, %src, 16 src_size %n {bypass_l1} : i32, i64
    ```
  }];
  let arguments = (ins
    KProof_Address:$dst,
    KProof_Address:$src,
    Optional<I32>:$src_size,
    Optional<I1>:$ignore_src,
    Optional<I64>:$policy,
    I64Attr:$size,
    DefaultValuedAttr<I64Attr, "0">:$dst_offset,
    DefaultValuedAttr<I64Attr, "0">:$src_offset,
    UnitAttr:$bypass_l1,
    OptionalAttr<StrArrayAttr>:$cache
  );
  let assemblyFormat = [{
    $dst `,` $src `,` $size (`src_size` $src_size^)? (`ignore_src` $ignore_src^)?
    (`policy` $policy^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def KProof_CpAsyncCommitOp : KProof_Op<"cp_async_commit"> {
  let summary = "PTX cp.async.commit_group: close the current cp.async-group";
  let description = [{
    PTX `cp.async.commit_group` (PTX ISA: cp.async.commit_group): the thread's
    `kproof.cp_async` copies not yet in a group form a new cp.async-group
    (possibly empty), the newest of the thread's groups.

    ```mlir
    kproof.cp_async_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def KProof_CpAsyncWaitOp : KProof_Op<"cp_async_wait"> {
  let summary = "PTX cp.async.wait_group / wait_all: wait for copies";
  let description = [{
    PTX `cp.async.wait_group N` and `cp.async.wait_all` (PTX ISA:
    cp.async.wait_group). `wait_group N` (`pending` = N) waits until at most the N
    newest committed cp.async-groups of the thread are still pending: the
    copies of every older group are complete and their writes visible to
    the thread. `wait_all` (`all`) is `commit_group` followed by
    `wait_group 0`: every copy the thread started is complete, including
    those not yet committed. Neither orders anything for other threads: a
    barrier must follow.

    ```mlir
    kproof.cp_async_wait pending 1   // cp.async.wait_group 1
    kproof.cp_async_wait all         // cp.async.wait_all
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$pending, UnitAttr:$all);
  let assemblyFormat = "(`pending` $pending^)? (`all` $all^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// mbarrier objects (PTX ISA 9.7.13.15)
//===----------------------------------------------------------------------===//

def KProof_MBarrierInitOp : KProof_Op<"mbarrier_init"> {
  let summary = "PTX mbarrier.init: initialize an mbarrier object";
  let description = [{
    PTX `mbarrier.init{.shared{::cta}}.b64 [addr], count` (PTX ISA
    9.7.13.15.9). Initializes the 8-byte mbarrier object at `addr + offset`
    (`.shared` or a generic address of shared memory, 8-byte aligned) to
    phase 0 with an expected arrival count of `count` (1 to 2^20 - 1):
    each phase completes after `count` arrivals. Initializing an object
    that is still in use (not invalidated by `mbarrier.inval`) is
    undefined.

    ```mlir
    kproof.mbarrier_init shared %bar, %n : i32
    ```
  }];
  let arguments = (ins KProof_StateSpace:$space, KProof_Address:$addr,
                       I32:$count, DefaultValuedAttr<I64Attr, "0">:$offset);
  let assemblyFormat = [{
    $space $addr `,` $count attr-dict `:` type($addr)
  }];
  let hasVerifier = 1;
}

def KProof_MBarrierArriveOp : KProof_Op<"mbarrier_arrive"> {
  let summary = "PTX mbarrier.arrive: one arrival at an mbarrier object";
  let description = [{
    PTX `mbarrier.arrive{.release}{.scope}{.shared{::cta}}.b64 state,
    [addr]{, count}` (PTX ISA 9.7.13.15.13). Counts `count` arrivals
    (default 1) of the executing thread on the current phase of the
    mbarrier object at `addr + offset`; the arrival that reaches the
    phase's expected count completes the phase. With `.release` (the
    default) the thread's prior memory accesses are ordered before any
    access of a thread whose `kproof.mbarrier_wait` observes the phase
    complete (scope `.cta` or `.cluster`). `state` (an opaque 64-bit
    token of the phase, absent for the sink `_`) is what the
    non-`.parity` form of `mbarrier_wait` waits on.

    ```mlir
    kproof.mbarrier_arrive shared %bar : i32
    %st = kproof.mbarrier_arrive shared %bar scope cta : i32 -> i64
    ```
  }];
  let arguments = (ins KProof_StateSpace:$space, KProof_Address:$addr,
                       Optional<I32>:$count,
                       DefaultValuedAttr<I64Attr, "0">:$offset,
                       DefaultValuedAttr<KProof_MemScope, "MemScope::CTA">:$scope);
  let results = (outs Optional<I64>:$state);
  let assemblyFormat = [{
    $space $addr (`count` $count^)? (`scope` $scope^)? attr-dict `:`
    type($addr) (`->` type($state)^)?
  }];
  let hasVerifier = 1;
}

def KProof_MBarrierWaitOp : KProof_Op<"mbarrier_wait"> {
  let summary = "PTX mbarrier.test_wait / try_wait: test a phase's completion";
  let description = [{
    PTX `mbarrier.{test,try}_wait{.parity}{.acquire}{.scope}{.shared{::cta}}.b64
    waitComplete, [addr], phase{, suspendTimeHint}` (PTX ISA 9.7.13.15.16).
    Returns whether a phase of the mbarrier object at `addr + offset` has
    completed: with `parity`, the phase whose parity (0 even, 1 odd) is the
    32-bit `phase`, which must name the current phase or the immediately
    preceding one; without it, the phase of the 64-bit `state` an
    `mbarrier_arrive` returned. `try` (try_wait) may suspend the thread for
    up to `hint` nanoseconds before returning; `test` returns at once. When
    it returns true (`.acquire`, the default) the thread's later accesses
    are ordered after the accesses the phase's arrivals released. The
    usual form is a spin loop that retries while the result is false
    (isSpinLoop).

    ```mlir
    %done = kproof.mbarrier_wait try parity shared %bar, %p : i32, i32
    ```
  }];
  let arguments = (ins KProof_StateSpace:$space, KProof_Address:$addr,
                       AnyTypeOf<[I32, I64]>:$phase,
                       Optional<I32>:$hint,
                       DefaultValuedAttr<I64Attr, "0">:$offset,
                       UnitAttr:$try_wait, UnitAttr:$parity,
                       DefaultValuedAttr<KProof_MemScope, "MemScope::CTA">:$scope);
  let results = (outs I1:$complete);
  let assemblyFormat = [{
    (`try` $try_wait^)? (`parity` $parity^)? $space $addr `,` $phase
    (`hint` $hint^)? (`scope` $scope^)? attr-dict `:` type($addr) `,`
    type($phase)
  }];
  let extraClassDeclaration = [{
    /// Whether this wait is the exit test of a spin loop: its block runs
    /// only pure ops besides it and ends in a conditional branch that,
    /// when the result is false, goes back to the start of the block with
    /// the block's own arguments (nothing changes between two tries), and
    /// leaves the block when it is true. Such a loop is the blocking wait
    /// `while (!try_wait(...));` however the compiler shapes it (`@!p bra`,
    /// or a selp/setp of the result).
    bool isSpinLoop();
  }];
  let hasVerifier = 1;
}

def KProof_MBarrierInvalOp : KProof_Op<"mbarrier_inval"> {
  let summary = "PTX mbarrier.inval: end an mbarrier object's lifetime";
  let description = [{
    PTX `mbarrier.inval{.shared{::cta}}.b64 [addr]` (PTX ISA 9.7.13.15.10).
    Invalidates the mbarrier object at `addr + offset`: no thread may use
    it afterwards until it is initialized again, and only then may its
    memory be reused.

    ```mlir
    kproof.mbarrier_inval shared %bar : i32
    ```
  }];
  let arguments = (ins KProof_StateSpace:$space, KProof_Address:$addr,
                       DefaultValuedAttr<I64Attr, "0">:$offset);
  let assemblyFormat = "$space $addr attr-dict `:` type($addr)";
  let hasVerifier = 1;
}

def KProof_TrapOp : KProof_Op<"trap"> {
  let summary = "PTX trap / __assertfail: abort the kernel";
  let description = [{
    PTX `trap` (PTX ISA 9.7.19.1) aborts the kernel launch; a failed
    `assert` reaches it through `__assertfail`. The proof engine treats
    reaching it as an error path of the kernel.

    ```mlir
    kproof.trap
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def KProof_CreatePolicyOp : KProof_Op<"createpolicy", [Pure]> {
  let summary = "PTX createpolicy: an L2 cache-eviction policy";
  let description = [{
    PTX `createpolicy.*.b64 policy, ...` (PTX ISA 9.7.9.18). The policy is a
    performance hint for `.L2::cache_hint` accesses and never changes the
    values a program computes; the qualifiers are kept verbatim in
    `qualifiers`, and any operands (a fraction, an address) as operands.

    ```mlir
    %pol = kproof.createpolicy {qualifiers = ["fractional", "L2::evict_last", "b64"]}
    ```
  }];
  let arguments = (ins Variadic<KProof_RegType>:$inputs, StrArrayAttr:$qualifiers);
  let results = (outs I64:$result);
  let assemblyFormat = "($inputs^ `:` type($inputs))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Calls and unmodeled instructions
//===----------------------------------------------------------------------===//

def KProof_CallOp : KProof_Op<"call", [
    CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "PTX call: call a .func (inlined by the proof engine)";
  let description = [{
    PTX `call{.uni} (ret), f, (args)` (PTX ISA 9.7.12.5), with the
    `.param` staging resolved by the importer: the operands are the argument
    values and the results the return values, typed as the callee declares.
    The proof engine inlines calls to defined `.func`s; `vprintf` is an
    opaque side effect, `__assertfail` aborts like `trap`, and any other
    body-less callee is unmodeled.

    ```mlir
    %r = kproof.call @square(%x) : (f32) -> f32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let extraClassDeclaration = [{
    /// CallOpInterface.
    mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", llvm::cast<mlir::SymbolRefAttr>(callee));
    }
    mlir::Operation::operand_range getArgOperands() { return getArgs(); }
    mlir::MutableOperandRange getArgOperandsMutable() {
      return getArgsMutable();
    }
  }];
}

def KProof_OpaqueOp : KProof_Op<"opaque"> {
  let summary = "a PTX instruction kproof parses but does not model";
  let description = [{
    An instruction imported without semantics, keeping its PTX text. Tier-2
    instructions (cp.async, ldmatrix, mma.sync, mbarrier, wgmma, ...) have
    `tier2` set; any other unmodeled instruction was reported with a warning
    "unmodeled PTX instruction 'X'" at import. Every register operand of the
    instruction is an operand, and every register it may write gets a fresh
    result (the importer conservatively treats all register operands as
    possibly written), so nothing downstream can assume a value survived it.
    Any proof that reaches it answers UNKNOWN, naming `opcode`.

    ```mlir
    %r0 = kproof.opaque "cp.async.ca.shared.global [%r1], [%rd2], 16" (%r1, %rd2) {opcode = "cp.async", tier2} : (i32, i64) -> (i32)
    ```
  }];
  let arguments = (ins StrAttr:$text, StrAttr:$opcode,
                       Variadic<AnyType>:$inputs, UnitAttr:$tier2);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $text `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
}

//===----------------------------------------------------------------------===//
// Contracts
//===----------------------------------------------------------------------===//

def KProof_ContractOp : KProof_Op<"contract", [Symbol]> {
  let summary = "what a proof is about: kernel, launch, parameters, spec";
  let description = [{
    A proof is `kernel` + `contract` (docs/contracts.md). The contract names the
    kernel entry (`kernel`: PTX name, mangled or demangled), the launch
    (`grid` and `block`: x, y, z), each kernel parameter by position
    (`params`), the `spec`, `assume` (assumptions, printed with every
    verdict) and `mode` (`reals`: floats are exact reals).

    Two unordered writes of one location are a data race even when they
    store the same value (PTX ISA, Memory Consistency Model: conflicting
    accesses that are not morally strong); `tolerate_equal_writes = true`
    accepts write-write races whose values are proved equal (a warning and
    a printed assumption instead of REFUTED).

    `--verify-sync` does not assume that float inputs are finite: a
    comparison of values that may be NaN or infinite may go either way, so
    a race or divergence that only such inputs cause is not PROVED.
    `finite_inputs = true` restricts the proof to finite inputs (printed
    with the verdict). A float input buffer may declare the non-finite
    values its entries may hold, `nonfinite = ["-inf"]` (a mask; any of
    "-inf", "inf", "nan"): `--verify-sync` covers them even under
    `finite_inputs`; `--verify-equiv` (finite reals) is UNKNOWN on them.

    A symbolic launch gives `grid_max` instead of `grid` and/or `block_max`
    instead of `block`: dimension d is then any extent in [1, max_d]
    (`%nctaid.d` / `%ntid.d` become bounded variables; one proof covers
    every launch in range), with at most 1024 threads per CTA; `max_threads`
    bounds the threads of the whole launch. A buffer extent may then depend
    on the launch: `shape = ["nctaid.x", "ntid.x"]` or
    `shape = ["nctaid.x*ntid.x"]` (products of launch extents and
    integers).

    Each entry of `params` is a dictionary:
    - a buffer: `{name = "x", buffer = "in" | "out" | "inout",
      space = "global", type = f32, shape = array<i64: 4>}`; the shape is in
      elements, row-major;
    - a scalar: `{name = "n", scalar = i32, value = 4 : i32}` (a fixed value)
      or without `value` (any value).

    `spec` is a dictionary naming a built-in spec and its buffers; a
    contract for `--verify-sync` alone may leave it out (`--verify-equiv`
    then says the contract has no spec, a contract error):
    - `{builtin = "softmax", input = "x", output = "y"}`: row softmax over the
      last dimension, `y[r, i] = exp(x[r, i] - m_r) / sum_j exp(x[r, j] - m_r)`
      with `m_r = max_j x[r, j]`;
    - `{builtin = "copy", input = "x", output = "y"}`: `y[i] = x[i]`;
    - `{builtin = "sum", input = "x", output = "y"}` and `"max"`: a
      reduction of the last dimension into `y[r]`.
    - `{builtin = "attention", q = "q", k = "k", v = "v", output = "o",
      scale = 0.125 : f32, mask = "causal", offset = 0 : i64}`: softmax
      attention, with keys `j <= i + offset` visible to query `i` under the
      causal mask; `lse = "l"` names a second output `l [M]`, the logsumexp
      `l[i] = m_i + log(sum_j exp(s_ij - m_i))` of row i's visible scaled
      scores (natural log);
    - `{func = @f, inputs = ["x", "s"], output = "y"}`: a func.func over
      tensors (linalg, arith, math, tensor), lowered element-wise.

    ```mlir
    kproof.contract @softmax4 {kernel = "softmax4",
        grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
        params = [{name = "x", buffer = "in", space = "global", type = f32,
                   shape = array<i64: 4>},
                  {name = "y", buffer = "out", space = "global", type = f32,
                   shape = array<i64: 4>} ],
        spec = {builtin = "softmax", input = "x", output = "y"},
        assume = ["inputs are finite"], mode = "reals"}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$kernel,
                       OptionalAttr<DenseI64ArrayAttr>:$grid,
                       OptionalAttr<DenseI64ArrayAttr>:$block,
                       ArrayAttr:$params, OptionalAttr<DictionaryAttr>:$spec,
                       OptionalAttr<StrArrayAttr>:$assume,
                       DefaultValuedAttr<StrAttr, "\"reals\"">:$mode,
                       OptionalAttr<I64Attr>:$dynamic_shared,
                       OptionalAttr<DenseI64ArrayAttr>:$grid_max,
                       OptionalAttr<DenseI64ArrayAttr>:$block_max,
                       OptionalAttr<I64Attr>:$max_threads,
                       OptionalAttr<BoolAttr>:$tolerate_equal_writes,
                       OptionalAttr<BoolAttr>:$finite_inputs);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
}

#endif // KPROOF_DIALECT_KPROOFOPS_TD
