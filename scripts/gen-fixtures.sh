#!/usr/bin/env bash
# Regenerates every generated test fixture under test/Inputs/:
#
#   test/Inputs/cuda/ptx/<name>.sm{80,90}.{O3,G}.ptx   from test/Inputs/cuda/*.cu (nvcc)
#   test/Inputs/triton/ptx/<name>.sm90.{ptx,ttgir,ttir[,llvm.mlir]}
#                                                      from test/Inputs/triton/kernels.py (Triton)
#
# Usage: scripts/gen-fixtures.sh [cuda|triton]...
#   Regenerates all parts by default, or only the named ones. Runs from any
#   directory (paths are resolved relative to the repository).
# Environment:
#   NVCC     nvcc to use (default /usr/local/cuda/bin/nvcc)
#   PYTHON   python with the `triton` package (default python3)
#   MLIR_OPT mlir-opt used to validate the Triton LLVM-dialect dump
#            (default /usr/lib/llvm-22/bin/mlir-opt)
#
# Each part is skipped, with a message, when its tool is missing. Output is
# deterministic: sources are compiled from a fixed staging directory
# ($STAGE below) so that nothing depends on where the repository is checked
# out, and every absolute path is rewritten afterwards:
#   * `.file` lines name repository files relative to the repository root
#     ("test/Inputs/cuda/foo.cu"); CUDA system headers keep only their
#     basename ("vector_types.h"); Triton library files are given relative to
#     site-packages ("triton/language/standard.py").
#   * The DWARF DW_AT_comp_dir string inside `.section .debug_info` (the -G
#     builds and Triton's line tables) is an inline string whose length feeds
#     DIE offsets, so it is replaced by a relative path of the SAME length,
#     padded with "./" (e.g. "./././././." == ".").
#
# nvcc flags: `-O3 -lineinfo` and `-G`, for -arch=sm_80 and -arch=sm_90. No
# --use_fast_math unless a kernel's header contains a line
#   // gen-fixtures: nvcc-extra-flags: <flags>
# (currently none does; the kernels call __expf explicitly).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
PYTHON="${PYTHON:-python3}"
MLIR_OPT="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
# Fixed staging root. Its length must be odd (see the comp_dir padding above).
STAGE=/tmp/kproof-gen-stage
export LC_ALL=C

CUDA_DIR="$ROOT/test/Inputs/cuda"
CUDA_OUT="$CUDA_DIR/ptx"
TRITON_DIR="$ROOT/test/Inputs/triton"

if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "gen-fixtures: $PYTHON not found; it is needed to post-process the outputs" >&2
  exit 1
fi

# ---------------------------------------------------------------- nvcc ----
gen_cuda() {
  if [ ! -x "$NVCC" ]; then
    echo "gen-fixtures: $NVCC not found, skipping the CUDA fixtures"
    return 0
  fi
  echo "gen-fixtures: CUDA fixtures with nvcc $("$NVCC" --version | sed -n 's/.*, V//p')"
  rm -rf "$STAGE"
  mkdir -p "$STAGE/test/Inputs/cuda" "$STAGE/out"
  cp "$CUDA_DIR"/*.cu "$STAGE/test/Inputs/cuda/"

  local src name extra arch mode flags out
  local produced=()
  for src in "$STAGE"/test/Inputs/cuda/*.cu; do
    name="$(basename "$src" .cu)"
    extra="$(sed -n 's|^// gen-fixtures: nvcc-extra-flags:||p' "$src" | head -n1)"
    for arch in 80 90; do
      for mode in O3 G; do
        if [ "$mode" = O3 ]; then flags="-O3 -lineinfo"; else flags="-G"; fi
        out="$STAGE/out/$name.sm$arch.$mode.ptx"
        # shellcheck disable=SC2086
        (cd "$STAGE" && "$NVCC" -ptx -arch=sm_$arch $flags $extra \
           "test/Inputs/cuda/$name.cu" -o "$out")
        produced+=("$out")
      done
    done
  done

  mkdir -p "$CUDA_OUT"
  rm -f "$CUDA_OUT"/*.ptx
  "$PYTHON" - "$STAGE" "$CUDA_OUT" "${produced[@]}" <<'PY'
import os, re, sys

stage, outdir, files = sys.argv[1], sys.argv[2], sys.argv[3:]

def padded_relative(target: str, length: int) -> str:
    """A path equivalent to `target` (relative) of exactly `length` chars."""
    pad = length - len(target)
    if pad < 0 or pad % 2:
        sys.exit(f"gen-fixtures: cannot pad {target!r} to {length} chars")
    if target == ".":
        return "./" * (pad // 2) + "."
    return "./" * (pad // 2) + target

def fix_file_line(m):
    path = m.group(2)
    if path.startswith(stage + "/"):
        path = path[len(stage) + 1:]
    elif path.startswith("/"):
        path = os.path.basename(path)
    return f'{m.group(1)}"{path}"'

def fix_debug_bytes(text: str, old: str, new: str) -> str:
    """Same-length byte replacement inside .b8 lists of .section blocks."""
    assert len(old) == len(new)
    lines = text.split("\n")
    slots, values = [], []  # (line, element) per byte, byte values
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*\.b8\s+)([0-9,\s]+?)(\s*(//.*)?)$", line)
        if not m:
            continue
        for j, v in enumerate(m.group(2).split(",")):
            slots.append((i, j))
            values.append(int(v))
    data = bytes(values)
    ob, nb = old.encode(), new.encode()
    if ob not in data:
        return text
    data = data.replace(ob, nb)
    per_line = {}
    for (i, j), b in zip(slots, data):
        per_line.setdefault(i, []).append(str(b))
    for i, vals in per_line.items():
        m = re.match(r"^(\s*\.b8\s+)([0-9,\s]+?)(\s*(//.*)?)$", lines[i])
        lines[i] = m.group(1) + ",".join(vals) + m.group(3)
    return "\n".join(lines)

for f in files:
    text = open(f).read()
    text = re.sub(r'^(\s*\.file\s+\d+\s+)"([^"]*)"', fix_file_line, text, flags=re.M)
    text = fix_debug_bytes(text, stage, padded_relative(".", len(stage)))
    if stage in text:
        sys.exit(f"gen-fixtures: {f} still mentions {stage}")
    with open(os.path.join(outdir, os.path.basename(f)), "w") as o:
        o.write(text)
PY
  echo "gen-fixtures: wrote ${#produced[@]} PTX files to ${CUDA_OUT#"$ROOT"/}"
  rm -rf "$STAGE"
}

# -------------------------------------------------------------- Triton ----
gen_triton() {
  if ! "$PYTHON" -c "import triton" >/dev/null 2>&1; then
    echo "gen-fixtures: the triton Python package is not installed, skipping the Triton fixtures"
    echo "gen-fixtures:   (pip install triton; no GPU is needed)"
    return 0
  fi
  echo "gen-fixtures: Triton fixtures with triton $("$PYTHON" -c 'import triton; print(triton.__version__)')"
  "$PYTHON" "$TRITON_DIR/compile_fixtures.py" --stage "$STAGE" --mlir-opt "$MLIR_OPT"
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(cuda triton)
for part in "${parts[@]}"; do
  case "$part" in
    cuda) gen_cuda ;;
    triton) gen_triton ;;
    *) echo "gen-fixtures: unknown part '$part' (expected cuda or triton)" >&2; exit 2 ;;
  esac
done
