#!/usr/bin/env python3
"""The mutant-zoo gate (docs/benchmarks.md, "Mutant zoo").

Generates PTX mutants of proved fixtures and runs each under the fixture's
contract with `kproof-opt --verify-equiv`:

  killed    REFUTED (exit 1)
  unknown   UNKNOWN (exit 3) or past the time limit
  survived  PROVED (exit 0): then the interpreter runs the mutant in exact
            mode (the engine's reals model) over random inputs and several
            schedules (kproof-run --mode=exact --random); a mismatch or a
            finding there means the PROVED is false, and the run fails.
  invalid   the mutant does not import (exit 2), not counted

Mutation operators, applied to the instructions of the contract's .entry
only: opcode (add/sub, mul/add, min/max, and/or, shl/shr, setp
comparisons), immediate (+1, -1), operand (a source register replaced by
another of its kind), deleted barrier (bar.sync / barrier.sync),
shuffle (mode, offset, membermask), load/store offset (+4 bytes).

Usage:
  scripts/mutant-zoo.py [--build build] [--max N] [--seed S]
                        [--fixtures a,b] [--timeout SECONDS] [--list]

Exit status: 0 when no false PROVED was found, 1 otherwise, 2 on a usage
error. Deterministic for a given --seed.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Proved fixtures: name -> (PTX file, contract). All -O3 sm_80 builds of the
# project's own kernels (test/Inputs/cuda); every one PROVES unmutated.
FIXTURES = {
    "axpy_inplace": ("memory_rmw", "memory-axpy_inplace"),
    "select_local8": ("memory_rmw", "memory-select_local8"),
    "copy_vec4": ("memory_layouts", "memory-copy_vec4"),
    "gather_idx_ranged": ("memory_layouts", "memory-gather_idx_ranged"),
    "scale_grid_stride": ("memory_layouts", "memory-scale_grid_stride"),
    "rmsnorm_warp4": ("memory_layouts", "memory-rmsnorm_warp4"),
    "block_sum_cub": ("block_reduce_cub", "memory-block_sum_cub"),
    "transpose_smem": ("transpose_tiled", "memory-transpose_smem"),
    "row_copy": ("loop_stores", "loop-row_copy"),
    "grid_stride_copy": ("loop_stores", "loop-grid_stride_copy"),
}

OPCODE_SWAPS = [
    (r"\badd\.", "sub."), (r"\bsub\.", "add."), (r"\bmul\.", "add."),
    (r"\bmin\.", "max."), (r"\bmax\.", "min."), (r"\band\.b", "or.b"),
    (r"\bor\.b", "and.b"), (r"\bshl\.b", "shr.b"), (r"\bshr\.([bu])", r"shl.\1"),
    (r"\bsetp\.lt\.", "setp.le."), (r"\bsetp\.le\.", "setp.lt."),
    (r"\bsetp\.gt\.", "setp.ge."), (r"\bsetp\.ge\.", "setp.gt."),
    (r"\bsetp\.eq\.", "setp.ne."), (r"\bsetp\.ne\.", "setp.eq."),
    (r"\bsetp\.lo\.", "setp.ls."), (r"\bsetp\.hi\.", "setp.hs."),
]
SHFL_MODES = ["bfly", "down", "up", "idx"]


def entry_range(lines, kernel):
    """Line indices [start, end) of the body of the .entry named `kernel`
    (the mangled name contains it)."""
    start = None
    for i, l in enumerate(lines):
        m = re.search(r"\.entry\s+([\w$]+)", l)
        if m and start is None and (m.group(1) == kernel or kernel in m.group(1)):
            start = i
        elif start is not None and l.startswith("}"):
            return start, i
    return None


def is_instruction(l):
    s = l.strip()
    return (s and not s.startswith(("//", ".", "{", "}", "$", "@$"))
            and s.endswith(";") and not s.startswith("ld.param")
            and not re.match(r"^\S+:", s))


def mutants(lines, lo, hi):
    """Every mutant as (description, line index, new line, or None to
    delete the line)."""
    regs = {}
    for l in lines[lo:hi]:
        for r in re.findall(r"%[a-z]+\d+", l):
            regs.setdefault(re.match(r"%[a-z]+", r).group(0), set()).add(r)
    out = []
    for i in range(lo, hi):
        l = lines[i]
        if not is_instruction(l):
            continue
        s = l.strip()
        op = s.split()[0] if not s.startswith("@") else s.split()[1]
        if re.match(r"(bar|barrier)\.(sync|cta\.sync)", op) or op in ("bar.sync", "barrier.sync"):
            out.append(("deleted barrier", i, None))
            continue
        for pat, rep in OPCODE_SWAPS:
            if re.match(pat, op):
                new_op = re.sub(pat, rep, op, count=1)
                out.append(("opcode %s -> %s" % (op, new_op), i, l.replace(op, new_op, 1)))
        if op.startswith("shfl.sync."):
            cur = op.split(".")[2]
            for m in SHFL_MODES:
                if m != cur:
                    new_op = op.replace("." + cur + ".", "." + m + ".", 1)
                    out.append(("shuffle mode %s -> %s" % (cur, m), i, l.replace(op, new_op, 1)))
            if "-1;" in s:
                out.append(("shuffle membermask -1 -> 0x7fffffff", i, l.replace("-1;", "2147483647;")))
        # Immediates: integer operands (not inside [..]).
        body = l.split(op, 1)[1] if op in l else ""
        for m in re.finditer(r"(?<=[ ,])(-?\d+)(?=[,;])", body):
            k = int(m.group(1))
            for d in (1, -1):
                start = l.index(body) + m.start()
                new = l[:start] + str(k + d) + l[start + len(m.group(1)):]
                out.append(("immediate %d -> %d" % (k, k + d), i, new))
        # Load/store offsets.
        for m in re.finditer(r"\[(%\w+)(\+(-?\d+))?\]", l):
            off = int(m.group(3) or 0)
            new = l[:m.start()] + "[%s+%d]" % (m.group(1), off + 4) + l[m.end():]
            out.append(("address offset %d -> %d" % (off, off + 4), i, new))
        # Operands: the first source register replaced by another of its kind.
        ops = re.findall(r"%[a-z]+\d+", body.split("[")[0] if "[" in body and op.startswith("st") else body)
        srcs = ops[1:] if not op.startswith("st") else ops
        for r in srcs[:2]:
            kind = re.match(r"%[a-z]+", r).group(0)
            others = sorted(regs.get(kind, set()) - {r})
            if others:
                o = others[i % len(others)]
                if op.startswith("st"):
                    new = l.replace(r, o, 1)
                else:
                    # Sources follow the destination's comma.
                    head, _, tail = l.partition(",")
                    new = head + "," + re.sub(re.escape(r) + r"\b", o, tail, count=1)
                if new != l:
                    out.append(("operand %s -> %s" % (r, o), i, new))
    return out


def run(cmd, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, text=True)
        return p.returncode, p.stdout, time.time() - t0
    except subprocess.TimeoutExpired:
        return None, "", time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--max", type=int, default=40, help="mutants per fixture (sampled)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fixtures", default="", help="comma-separated names (default: all)")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--list", action="store_true", help="list the fixtures and exit")
    ap.add_argument("-v", action="store_true", help="print every mutant's outcome")
    a = ap.parse_args()
    if a.list:
        for n, (p, c) in FIXTURES.items():
            print(n, p, c)
        return 0
    names = [n for n in a.fixtures.split(",") if n] or list(FIXTURES)
    for n in names:
        if n not in FIXTURES:
            print("mutant-zoo: unknown fixture '%s' (--list)" % n, file=sys.stderr)
            return 2
    opt = os.path.join(a.build, "bin", "kproof-opt")
    runner = os.path.join(a.build, "bin", "kproof-run")
    for t in (opt, runner):
        if not os.access(t, os.X_OK):
            print("mutant-zoo: build %s first" % t, file=sys.stderr)
            return 2
    false_proved = []
    rows = []
    tmp = tempfile.mkdtemp(prefix="kproof-zoo-")
    for name in names:
        src, contract = FIXTURES[name]
        ptx = os.path.join(ROOT, "test/Inputs/cuda/ptx/%s.sm80.O3.ptx" % src)
        cfile = os.path.join(ROOT, "bench/contracts/%s.mlir" % contract)
        kernel = re.search(r'kernel\s*=\s*"([^"]+)"', open(cfile).read()).group(1)
        lines = open(ptx).read().split("\n")
        rng = entry_range(lines, kernel)
        if not rng:
            print("mutant-zoo: no .entry '%s' in %s" % (kernel, ptx), file=sys.stderr)
            return 2
        all_m = mutants(lines, *rng)
        r = random.Random(a.seed * 1000003 + sum(map(ord, name)))
        sample = r.sample(all_m, min(a.max, len(all_m)))
        counts = {"killed": 0, "unknown": 0, "survived": 0, "invalid": 0}
        secs = 0.0
        for k, (what, i, new) in enumerate(sample):
            m = list(lines)
            if new is None:
                m[i] = ""
            else:
                m[i] = new
            mpath = os.path.join(tmp, "%s-%d.ptx" % (name, k))
            open(mpath, "w").write("\n".join(m))
            rc, out, dt = run([opt, mpath, "--verify-equiv", "--contract=" + cfile], a.timeout)
            secs += dt
            where = "%s:%d: %s" % (os.path.basename(ptx), i + 1, what)
            if a.v:
                verdict = {0: "PROVED", 1: "REFUTED", 2: "invalid", 3: "UNKNOWN", None: "timeout"}.get(rc, str(rc))
                reason = [x for x in out.split("\n") if x.startswith(("UNKNOWN:", "REFUTED:"))]
                print("  %-8s %s %s" % (verdict, where, reason[-1][:100] if reason else ""))
            if rc == 1:
                counts["killed"] += 1
            elif rc == 2:
                counts["invalid"] += 1
            elif rc == 0:
                counts["survived"] += 1
                bad = None
                for sched in ("inorder", "reversed", "random:7"):
                    rrc, rout, _ = run([runner, mpath, "--contract=" + cfile, "--mode=exact",
                                        "--random=6", "--seed=%d" % a.seed,
                                        "--schedule=" + sched], a.timeout)
                    if rrc == 1:
                        bad = "kproof-run --schedule=%s: %s" % (sched, rout.strip().split("\n")[-1])
                        break
                if bad:
                    false_proved.append("%s [%s] %s" % (name, where, bad))
                    print("FALSE PROVED: %s: %s" % (where, bad))
                    keep = os.path.join(tmp, "false-proved-%s-%d.ptx" % (name, k))
                    os.replace(mpath, keep)
                    print("  mutant kept in " + keep)
                    continue
            else:
                counts["unknown"] += 1
            os.remove(mpath)
        counted = counts["killed"] + counts["unknown"] + counts["survived"]
        rate = 100.0 * counts["killed"] / counted if counted else 0.0
        rows.append((name, len(all_m), len(sample), counts, rate, secs))
    print("%-20s %8s %7s %7s %8s %9s %8s %10s %8s" % (
        "fixture", "mutants", "run", "killed", "unknown", "survived", "invalid", "kill rate", "seconds"))
    for name, total, run_n, c, rate, secs in rows:
        print("%-20s %8d %7d %7d %8d %9d %8d %9.0f%% %8.1f" % (
            name, total, run_n, c["killed"], c["unknown"], c["survived"], c["invalid"], rate, secs))
    print("false PROVED: %d" % len(false_proved))
    for f in false_proved:
        print("  " + f)
    return 1 if false_proved else 0


if __name__ == "__main__":
    sys.exit(main())
