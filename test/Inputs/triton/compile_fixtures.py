#!/usr/bin/env python3
"""Compiles the Triton kernels in kernels.py ahead of time (no GPU needed).

Called by scripts/gen-fixtures.sh; can also be run directly from anywhere:

    python3 test/Inputs/triton/compile_fixtures.py [--only NAME]...

For every fixture in FIXTURES it writes, under test/Inputs/triton/ptx/:

    <name>.sm<arch>.ttir    Triton IR                    (compiled.asm["ttir"])
    <name>.sm90.ttgir       TritonGPU IR                 (compiled.asm["ttgir"])
    <name>.sm90.ptx         PTX from Triton's LLVM       (compiled.asm["ptx"])
    <name>.sm90.llvm.mlir   LLVM-dialect MLIR, captured with MLIR_ENABLE_DUMP /
                            MLIR_DUMP_PATH, kept only if it parses with
                            mlir-opt (MLIR 22); see README.md

Target: triton.backends.compiler.GPUTarget("cuda", 90, 32) (a fixture's "arch"
may name another, e.g. 80 for mma.sync), num_warps=4 and
options["ptx_version"] = 90 (PTX ISA 9.0). Pinning it changes only the
`.version` line (Triton feeds LLVM at most +ptx90 anyway; the default would
follow the ptxas bundled with the wheel: 9.4 for triton 3.9.0's CUDA 13.4
ptxas), keeps the output independent of that bundled ptxas, and lets CUDA
13.0's ptxas assemble it.

Determinism: each fixture is compiled in a fresh subprocess with an empty
TRITON_CACHE_DIR, from a copy of kernels.py in a fixed staging directory, and
every absolute path is rewritten afterwards (loc(...) in the MLIR files,
`.file` lines and the DWARF comp_dir string in the PTX).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
REL_DIR = "test/Inputs/triton"  # kernels.py relative to the repository root
OUT_DIR = os.path.join(HERE, "ptx")
DEFAULT_STAGE = "/tmp/kproof-gen-stage"  # odd length, see padded_relative()

D16 = [["tt.divisibility", 16]]  # what Triton's JIT infers for 16-byte aligned args

def softmax_fixture(block, num_warps):
    """softmax_row_kernel at one BLOCK and warp count."""
    return dict(
        fn="softmax_row_kernel",
        signature={"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32",
                   "out_row_stride": "i32", "n_cols": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": block},
        attrs={0: D16, 1: D16, 2: D16, 3: D16},
        options={"num_warps": num_warps, "ptx_version": 90},
    )


# name -> kernel function name, signature, constexprs, attrs (arg index -> attrs),
# compile options. Signatures list every argument; constexpr ones as "constexpr".
FIXTURES = {
    "softmax_row": softmax_fixture(1024, 4),
    "softmax_row_b64": softmax_fixture(64, 1),
    "softmax_row_b256": softmax_fixture(256, 2),
    "layernorm_fwd": dict(
        fn="layernorm_fwd_kernel",
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "w_ptr": "*fp32", "b_ptr": "*fp32",
                   "mean_ptr": "*fp32", "rstd_ptr": "*fp32", "row_stride": "i32",
                   "n_cols": "i32", "eps": "fp32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": 1024},
        attrs={0: D16, 1: D16, 2: D16, 3: D16, 4: D16, 5: D16, 6: D16},
        options={"num_warps": 4, "ptx_version": 90},
    ),
    "attn_fwd": dict(
        fn="attn_fwd_kernel",
        signature={"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16",
                   "sm_scale": "fp32", "seq_len": "i32", "CAUSAL": "constexpr",
                   "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "HEAD_DIM": "constexpr"},
        constexprs={"CAUSAL": False, "BLOCK_M": 64, "BLOCK_N": 32, "HEAD_DIM": 16},
        attrs={0: D16, 1: D16, 2: D16, 3: D16},
        options={"num_warps": 4, "ptx_version": 90},
    ),
    # tl.dot on sm_80: ldmatrix + mma.sync.m16n8k16 (one warp).
    "matmul_tile": dict(
        fn="matmul_tile_kernel",
        signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32",
                   "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
        constexprs={"BM": 16, "BN": 16, "BK": 32},
        attrs={0: D16, 1: D16, 2: D16},
        # Triton's sm_80 ptxas accepts PTX ISA 8.8 at most.
        options={"num_warps": 1, "ptx_version": 88},
        arch=80,
    ),
    "attn_fwd_causal": dict(
        fn="attn_fwd_kernel",
        signature={"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16",
                   "sm_scale": "fp32", "seq_len": "i32", "CAUSAL": "constexpr",
                   "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "HEAD_DIM": "constexpr"},
        constexprs={"CAUSAL": True, "BLOCK_M": 64, "BLOCK_N": 32, "HEAD_DIM": 16},
        attrs={0: D16, 1: D16, 2: D16, 3: D16},
        options={"num_warps": 4, "ptx_version": 90},
    ),
}

ARCH = 90  # default; a fixture may name its own "arch"
LLVM_DUMP_PASS = "LLVMDIScope"  # last pass of make_llir; the dump before it is LLVM dialect


# --------------------------------------------------------------- child ----

def compile_one(name, stage, outdir):
    """Runs in a subprocess: compile one fixture and write the raw stages."""
    sys.path.insert(0, os.path.join(stage, REL_DIR))
    import triton
    from triton.backends.compiler import GPUTarget
    import kernels

    spec = FIXTURES[name]
    fn = getattr(kernels, spec["fn"])
    src = triton.compiler.ASTSource(
        fn=fn, signature=spec["signature"], constexprs=spec["constexprs"],
        attrs={(i,): a for i, a in spec["attrs"].items()})
    compiled = triton.compile(src, target=GPUTarget("cuda", spec.get("arch", ARCH), 32),
                              options=spec["options"])
    for ext in ("ttir", "ttgir", "ptx"):
        with open(os.path.join(outdir, f"{name}.{ext}"), "w") as f:
            f.write(compiled.asm[ext])


# -------------------------------------------------------------- parent ----

def padded_relative(target, length):
    """A relative path equivalent to `target`, exactly `length` characters."""
    pad = length - len(target)
    if pad < 0 or pad % 2:
        sys.exit(f"compile_fixtures: cannot pad {target!r} to {length} chars")
    return "./" * (pad // 2) + target


def fix_debug_bytes(text, old, new):
    """Same-length replacement of a string inside `.b8` byte lists."""
    assert len(old) == len(new)
    pat = re.compile(r"^(\s*\.b8\s+)([0-9,\s]+?)(\s*(//.*)?)$")
    lines = text.split("\n")
    slots, values = [], []
    for i, line in enumerate(lines):
        m = pat.match(line)
        if m:
            for j, v in enumerate(m.group(2).split(",")):
                slots.append((i, j))
                values.append(int(v))
    data = bytes(values)
    if old.encode() not in data:
        return text
    data = data.replace(old.encode(), new.encode())
    per_line = {}
    for (i, _), b in zip(slots, data):
        per_line.setdefault(i, []).append(str(b))
    for i, vals in per_line.items():
        m = pat.match(lines[i])
        lines[i] = m.group(1) + ",".join(vals) + m.group(3)
    return "\n".join(lines)


def sanitize(text, stage, site_dirs):
    """Rewrites absolute paths: staged repo files -> repo-relative, Triton
    library files -> relative to site-packages, anything else -> basename."""
    text = text.replace(stage + "/", "")
    for d in site_dirs:
        text = text.replace(d.rstrip("/") + "/", "")

    def other(m):
        return m.group(1) + os.path.basename(m.group(2)) + m.group(3)
    # Remaining absolute paths in loc("...") and .file "..." strings.
    text = re.sub(r'(loc\(")(/[^"]*)(")', other, text)
    text = re.sub(r'^(\s*\.file\s+\d+\s+")(/[^"]*)(")', other, text, flags=re.M)
    return text


def extract_llvm_dialect(dump_path):
    """Returns (module_text, pass_name) for the last IR dump of make_llir."""
    with open(dump_path, errors="replace") as f:
        dump = f.read()
    heads = list(re.finditer(r"^// -----// IR Dump Before (\S+): .*$", dump, re.M))
    if not heads:
        return None, None
    # The last section, preferably the one before LLVMDIScope.
    chosen = heads[-1]
    for h in heads:
        if h.group(1) == LLVM_DUMP_PASS:
            chosen = h
    nxt = [h for h in heads if h.start() > chosen.start()]
    end = nxt[0].start() if nxt else len(dump)
    return dump[chosen.end():end].strip("\n") + "\n", chosen.group(1)


def mlir22_workaround(text):
    """MLIR 22's nvvm.barrier parser takes a trailing `loc(#locN)` for its
    optional reductionOp attribute ("undefined symbol alias id"); even
    mlir-opt-22's own --mlir-print-debuginfo output does not round-trip.
    Drop the location of those ops only."""
    return re.sub(r"^(\s*nvvm\.barrier)\s+loc\([^()]*\)\s*$", r"\1", text, flags=re.M)


def mlir_parses(mlir_opt, path):
    r = subprocess.run([mlir_opt, path, "-o", os.devnull], capture_output=True, text=True)
    return r.returncode == 0, r.stderr.strip().splitlines()[:3]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stage", default=DEFAULT_STAGE)
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--only", action="append", choices=sorted(FIXTURES))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-out", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child:
        compile_one(args.child, args.stage, args.child_out)
        return 0

    import triton
    site_dirs = sorted({os.path.dirname(os.path.dirname(os.path.abspath(triton.__file__)))},
                       key=len, reverse=True)
    stage = args.stage
    if len(stage) % 2 == 0:
        sys.exit(f"compile_fixtures: staging path {stage!r} must have odd length")
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(os.path.join(stage, REL_DIR))
    shutil.copy(os.path.join(HERE, "kernels.py"), os.path.join(stage, REL_DIR, "kernels.py"))
    comp_dir = os.path.join(stage, REL_DIR)
    comp_dir_rel = padded_relative(REL_DIR, len(comp_dir))

    have_mlir_opt = os.access(args.mlir_opt, os.X_OK)
    if not have_mlir_opt:
        print(f"compile_fixtures: {args.mlir_opt} not found; *.llvm.mlir will not be written")

    names = args.only or list(FIXTURES)
    os.makedirs(OUT_DIR, exist_ok=True)
    if not args.only:
        for f in os.listdir(OUT_DIR):
            os.remove(os.path.join(OUT_DIR, f))
    failures = []
    with tempfile.TemporaryDirectory(prefix="kproof-triton-") as tmp:
        for name in names:
            raw = os.path.join(tmp, name)
            os.makedirs(raw)
            dump = os.path.join(raw, "mlir.dump")
            env = dict(os.environ,
                       TRITON_CACHE_DIR=os.path.join(raw, "cache"),
                       TRITON_ALWAYS_COMPILE="1",
                       TRITON_DEFAULT_FP_FUSION="1",  # Triton 3.9's default; silences its warning
                       MLIR_ENABLE_DUMP="1",
                       MLIR_DUMP_PATH=dump,
                       PYTHONDONTWRITEBYTECODE="1")
            for k in ("TRITON_MOCK_PTX_VERSION", "TRITON_KERNEL_DUMP", "TRITON_KERNEL_OVERRIDE",
                      "TRITON_DISABLE_LINE_INFO", "LLVM_IR_ENABLE_DUMP"):
                env.pop(k, None)
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--stage", stage,
                                "--child", name, "--child-out", raw],
                               env=env, cwd=tmp, capture_output=True, text=True)
            if r.returncode != 0:
                sys.stderr.write(r.stderr)
                sys.exit(f"compile_fixtures: compiling {name} failed")

            arch = FIXTURES[name].get("arch", ARCH)
            for ext in ("ttir", "ttgir", "ptx"):
                with open(os.path.join(raw, f"{name}.{ext}")) as f:
                    text = f.read()
                if ext == "ptx":
                    text = fix_debug_bytes(text, comp_dir, comp_dir_rel)
                text = sanitize(text, stage, site_dirs)
                with open(os.path.join(OUT_DIR, f"{name}.sm{arch}.{ext}"), "w") as f:
                    f.write(text)

            status = "not written"
            module, pass_name = (None, None)
            if os.path.exists(dump):
                module, pass_name = extract_llvm_dialect(dump)
            if module is None:
                failures.append(f"{name}: no MLIR dump was produced")
            elif not have_mlir_opt:
                failures.append(f"{name}: mlir-opt missing, LLVM-dialect dump not validated")
            else:
                module = sanitize(module, stage, site_dirs)
                header = (f"// Triton {triton.__version__} LLVM-dialect MLIR for {name} (cuda:{arch}):\n"
                          f"// the module as printed by MLIR_ENABLE_DUMP before pass {pass_name},\n"
                          f"// with loc(...) removed from nvvm.barrier ops (MLIR 22 parser quirk,\n"
                          f"// see README.md). Generated by compile_fixtures.py; do not edit.\n")
                out = os.path.join(OUT_DIR, f"{name}.sm{arch}.llvm.mlir")
                with open(out, "w") as f:
                    f.write(header + mlir22_workaround(module))
                ok, err = mlir_parses(args.mlir_opt, out)
                if ok:
                    status = f"written (dump before {pass_name})"
                else:
                    os.remove(out)
                    failures.append(f"{name}: LLVM-dialect dump does not parse with "
                                    f"{args.mlir_opt}: {' | '.join(err)}")
            print(f"compile_fixtures: {name}: ttir, ttgir, ptx written; llvm.mlir {status}")

    shutil.rmtree(stage, ignore_errors=True)
    for f in sorted(os.listdir(OUT_DIR)):
        text = open(os.path.join(OUT_DIR, f)).read()
        leftovers = set(re.findall(r'"(/[^"\s]*)"', text))
        if leftovers:
            failures.append(f"{f}: absolute paths remain: {sorted(leftovers)[:3]}")
    for msg in failures:
        print(f"compile_fixtures: WARNING: {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
