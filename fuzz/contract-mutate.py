#!/usr/bin/env python3
"""Mutation fuzzing of kproof's contract parser and binder.

Takes the contracts of test/Verifier/*.mlir (split-file sections holding a
kproof.contract, with the kernel their test's first RUN line verifies),
mutates their text (numbers, strings, types, shapes, deleted or duplicated
elements, truncation) and runs `kproof-opt KERNEL --verify-equiv
--contract=MUTANT` on each. Exit codes 0..3 are verdicts or errors; a
signal, another exit code, or a sanitizer report is a crash, and the
mutant is kept under OUT/ (default fuzz/crashes/contracts/).

  fuzz/contract-mutate.py --kproof-opt build-asan/bin/kproof-opt -n 500
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBERS = ["0", "-1", "1", "3", "1024", "1025", "65536", "2147483647",
           "2147483648", "4294967296", "9223372036854775807",
           "-9223372036854775808", "18446744073709551616", "1.5", "1e308",
           "-0.0"]
TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64",
         "index", "tensor<4xf32>", "none", "!kproof.unknown"]
STRINGS = ["", "x", "y", "n", "in", "out", "inout", "global", "shared",
           "softmax", "copy", "permute", "sum", "max", "attention", "causal",
           "nctaid.x*ntid.x", "ntid.q", "ntid.x*", "*", "0*ntid.x",
           "4294967296*ntid.x", "reals", "ieee", "nonexistent.ptx", "/",
           "ref_max2", "\\n", "é"]


def sections(path):
    """(name, text) of each split-file section; the whole file if none."""
    text = open(path, encoding="utf-8").read()
    parts = re.split(r"^//--- (\S+)\n", text, flags=re.M)
    if len(parts) == 1:
        return [(os.path.basename(path), text)]
    return list(zip(parts[1::2], parts[2::2]))


def kernel_of(path, tmpdir):
    """The kernel the test's first kproof-opt RUN line verifies, with the
    test's split-file sections written to tmpdir (for %t/... kernels)."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"RUN:.*?kproof-opt (\S+)", text)
    if not m:
        return None
    arg = m.group(1)
    arg = arg.replace("%S", os.path.dirname(path))
    arg = arg.replace("%inputs", os.path.join(ROOT, "test", "Inputs"))
    arg = arg.replace("%s", path)
    if arg.startswith("%t/"):
        for name, body in sections(path):
            with open(os.path.join(tmpdir, name), "w", encoding="utf-8") as f:
                f.write(body)
        arg = os.path.join(tmpdir, arg[3:])
    return arg if os.path.exists(arg) else None


def mutate(text, rng):
    kind = rng.randrange(9)
    if kind == 0:  # a number
        spans = [m.span() for m in re.finditer(r"-?\b\d+(\.\d+)?\b", text)]
        if spans:
            a, b = rng.choice(spans)
            return text[:a] + rng.choice(NUMBERS) + text[b:]
    if kind == 1:  # a string literal
        spans = [m.span() for m in re.finditer(r'"[^"\n]*"', text)]
        if spans:
            a, b = rng.choice(spans)
            return text[:a] + '"' + rng.choice(STRINGS) + '"' + text[b:]
    if kind == 2:  # a type
        spans = [m.span() for m in re.finditer(r"\b(f32|f16|i32|i64|i1)\b",
                                               text)]
        if spans:
            a, b = rng.choice(spans)
            return text[:a] + rng.choice(TYPES) + text[b:]
    if kind == 3:  # delete a `key = value` entry or list element
        spans = [m.span() for m in
                 re.finditer(r"\b\w+ = (\"[^\"]*\"|[\w.@<>:, -]+?|\[[^\[\]]*\]|\{[^{}]*\})(, |\})", text)]
        if spans:
            a, b = rng.choice(spans)
            end = text[b - 1]
            return text[:a] + ("}" if end == "}" else "") + text[b:]
    if kind == 4:  # duplicate a dictionary
        spans = [m.span() for m in re.finditer(r"\{[^{}]*\}", text)]
        if spans:
            a, b = rng.choice(spans)
            return text[:b] + ", " + text[a:b] + text[b:]
    if kind == 5:  # a shape
        spans = [m.span() for m in re.finditer(r"array<i64(: [^>]*)?>", text)]
        if spans:
            a, b = rng.choice(spans)
            vals = ", ".join(rng.choice(NUMBERS[:12])
                             for _ in range(rng.randrange(0, 5)))
            return text[:a] + ("array<i64: %s>" % vals if vals else
                               "array<i64>") + text[b:]
    if kind == 6:  # truncate
        return text[:rng.randrange(len(text) + 1)]
    if kind == 7:  # swap two string literals
        spans = [m.span() for m in re.finditer(r'"[^"\n]*"', text)]
        if len(spans) >= 2:
            (a, b), (c, d) = sorted(rng.sample(spans, 2))
            return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    # a string where a list or dictionary was, or the reverse
    spans = [m.span() for m in re.finditer(r"\[[^\[\]]*\]|\{[^{}]*\}", text)]
    if spans:
        a, b = rng.choice(spans)
        return text[:a] + rng.choice(['"x"', "1", "[]", "{}", "unit",
                                      "[1, [2]]", "{a = 1}"]) + text[b:]
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--kproof-opt", default=os.path.join(ROOT, "build", "bin",
                                                        "kproof-opt"))
    ap.add_argument("-n", type=int, default=300, help="mutants")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--out", default=os.path.join(ROOT, "fuzz", "crashes",
                                                  "contracts"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="kproof-contract-fuzz-")
    corpus = []
    vdir = os.path.join(ROOT, "test", "Verifier")
    for name in sorted(os.listdir(vdir)):
        if not name.endswith(".mlir"):
            continue
        path = os.path.join(vdir, name)
        tdir = os.path.join(tmp, name)
        os.makedirs(tdir, exist_ok=True)
        kernel = kernel_of(path, tdir)
        if not kernel:
            continue
        for sec, body in sections(path):
            if "kproof.contract" in body:
                corpus.append((name + ":" + sec, kernel, tdir, body))
    print("corpus: %d contracts" % len(corpus))
    crashes = timeouts = 0
    codes = {}
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    for i in range(args.n):
        origin, kernel, tdir, body = rng.choice(corpus)
        text = body
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        # References named by `file` resolve next to the contract.
        mpath = os.path.join(tdir, "mutant-%d.mlir" % i)
        with open(mpath, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            p = subprocess.run([args.kproof_opt, kernel, "--verify-equiv",
                                "--contract=" + mpath],
                               capture_output=True, timeout=args.timeout,
                               env=env)
        except subprocess.TimeoutExpired:
            timeouts += 1
            os.remove(mpath)
            continue
        err = p.stderr.decode("utf-8", "replace")
        codes[p.returncode] = codes.get(p.returncode, 0) + 1
        crashed = (p.returncode not in (0, 1, 2, 3) or
                   "Sanitizer" in err or "runtime error:" in err)
        if crashed:
            crashes += 1
            os.makedirs(args.out, exist_ok=True)
            keep = os.path.join(args.out, "crash-%d-%d.mlir" % (args.seed, i))
            with open(keep, "w", encoding="utf-8") as f:
                f.write("// from %s, kernel %s, exit %d\n" %
                        (origin, os.path.relpath(kernel, ROOT)
                         if kernel.startswith(ROOT) else kernel, p.returncode))
                f.write(text)
            print("CRASH exit %d: %s (from %s)" % (p.returncode, keep, origin))
            print("\n".join(err.splitlines()[:12]))
        os.remove(mpath)
    print("mutants: %d, exit codes: %s, timeouts: %d, crashes: %d" %
          (args.n, dict(sorted(codes.items())), timeouts, crashes))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
