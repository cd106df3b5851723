#!/usr/bin/env python3
"""Make a large synthetic PTX module from a fixture (docs/benchmarks.md).

    make-large-ptx.py FIXTURE.ptx OUT.ptx [--mb 15]

Keeps the fixture's header (.version/.target/.address_size) once and repeats
everything after it until OUT reaches about --mb megabytes (10^6 bytes). In
copy i every name declared at module scope (.entry/.func names, module-scope
variables) gets the suffix `_s<i>`, so the result is one valid module with
many distinct kernels. Nothing else is changed: each copy parses and imports
exactly like the original.
"""

import argparse
import re
import sys

IDENT = r"[A-Za-z_$%][A-Za-z0-9_$]*"


def split_header(text):
    m = re.search(r"^\s*\.address_size\s+\d+\s*$", text, re.M)
    if not m:
        sys.exit("make-large-ptx: no .address_size directive in the fixture")
    return text[: m.end() + 1], text[m.end() + 1 :]


def strip_comments(line, in_block):
    """The code part of `line` (for brace depth and declarations)."""
    out = []
    i = 0
    while i < len(line):
        if in_block:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out), True
            i, in_block = j + 2, False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block = True
            i += 2
        elif line[i] == '"':
            j = line.find('"', i + 1)
            i = len(line) if j < 0 else j + 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


def module_scope_names(body):
    """Names declared at brace depth 0 (functions, kernels, variables)."""
    names = set()
    depth = 0
    in_block = False
    pending_func = False  # `.func (.param ...) name` may span lines
    for line in body.splitlines():
        code, in_block = strip_comments(line, in_block)
        if depth == 0 and code.strip():
            m = re.search(r"\.(entry|func)\b(.*)", code)
            if m:
                rest = m.group(2)
                # Skip a return parameter list `(.param ...)`.
                rest = re.sub(r"^\s*\([^)]*\)", "", rest)
                n = re.match(r"\s*(" + IDENT + ")", rest)
                if n:
                    names.add(n.group(1))
                else:
                    pending_func = True
            elif pending_func:
                n = re.match(r"\s*(" + IDENT + ")", code)
                if n:
                    names.add(n.group(1))
                    pending_func = False
            elif re.match(r"\s*(\.(visible|extern|weak|common)\s+)*"
                          r"\.(global|shared|const|local)\b", code):
                # The declared name is the last identifier before
                # `[`, `=`, `;` or `<`.
                decl = re.split(r"[\[=;<]", code, maxsplit=1)[0]
                ids = re.findall(IDENT, decl)
                if ids:
                    names.add(ids[-1])
        depth += code.count("{") - code.count("}")
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixture")
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=15.0)
    args = ap.parse_args()

    text = open(args.fixture, encoding="utf-8").read()
    header, body = split_header(text)
    names = module_scope_names(body)
    if not names:
        sys.exit("make-large-ptx: no module-scope names found")
    pattern = re.compile(
        r"(?<![A-Za-z0-9_$%])("
        + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        + r")(?![A-Za-z0-9_$])")

    target = int(args.mb * 1e6)
    copies = 0
    size = len(header.encode())
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(header)
        while size < target:
            chunk = pattern.sub(lambda m: m.group(1) + "_s%d" % copies, body)
            chunk = "\n// --- copy %d of %s ---\n%s" % (
                copies, args.fixture.rsplit("/", 1)[-1], chunk)
            out.write(chunk)
            size += len(chunk.encode())
            copies += 1
    print("make-large-ptx: %s: %d copies of %s (%d module-scope names), "
          "%d bytes" % (args.out, copies, args.fixture, len(names), size))


if __name__ == "__main__":
    main()
