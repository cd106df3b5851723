#!/usr/bin/env python3
"""Checks kproof-opt's --format=json output against the documented schema
(docs/verify-equiv.md, "JSON"): FILE holds one verdict object, or an array of
them, with COUNT objects in all. Prints one line per object: the contract (or
"-"), the verdict, and for an error object its message. Exits 1 with the
reason on the first violation."""
import json
import sys

REQUIRED = {
    "schema_version": int, "tool": str, "verdict": str, "kernel": str,
    "spec": str, "mode": str, "assumptions": list, "idioms": list,
    "warnings": list, "paths": int, "branches": int, "merges": int,
    "obligations": list,
}
ERROR_REQUIRED = {"schema_version": int, "tool": str, "verdict": str,
                  "error": str}
OPTIONAL = {"contract": str, "time_ms": int, "reason": str,
            "counterexample": dict, "launch": str, "buffers": list}


def fail(msg):
    print("schema violation: " + msg)
    sys.exit(1)


def check(obj):
    if not isinstance(obj, dict):
        fail("not an object: %r" % (obj,))
    error = obj.get("verdict") == "ERROR"
    required = ERROR_REQUIRED if error else REQUIRED
    for key, ty in required.items():
        if not isinstance(obj.get(key), ty) or isinstance(obj.get(key), bool) != (ty is bool):
            fail("key %r missing or not %s in %r" % (key, ty.__name__, obj))
    for key, ty in OPTIONAL.items():
        if key in obj and not isinstance(obj[key], ty):
            fail("key %r is not %s" % (key, ty.__name__))
    if obj["schema_version"] != 1:
        fail("schema_version %r" % obj["schema_version"])
    if obj["verdict"] not in ("PROVED", "REFUTED", "UNKNOWN", "ERROR"):
        fail("verdict %r" % obj["verdict"])
    if not error:
        for o in obj["obligations"]:
            if not {"name", "verdict", "how"} <= set(o) <= \
                    {"name", "verdict", "how", "residual"}:
                fail("obligation keys %r" % sorted(o))
            r = o.get("residual")
            if r is not None and (set(r) != {"kernel", "spec", "condition"}
                                  or o["verdict"] != "UNKNOWN"):
                fail("residual %r" % (r,))
        for b in obj.get("buffers", []):
            if set(b) != {"name", "role", "type", "shape"} or \
                    b["role"] not in ("in", "out", "inout"):
                fail("buffer %r" % (b,))
        cex = obj.get("counterexample")
        if cex is not None:
            for key in ("property", "location", "inputs", "kernel_value",
                        "spec_value"):
                if key not in cex:
                    fail("counterexample without %r" % key)
            if not isinstance(cex["inputs"], list):
                fail("counterexample inputs are not a list")
            for i in cex["inputs"]:
                if not {"name", "value"} <= set(i):
                    fail("input %r" % (i,))
                if "index" in i and not all(isinstance(x, int) for x in i["index"]):
                    fail("input index %r" % (i,))
    line = "%s %s" % (obj.get("contract", "-"), obj["verdict"])
    if error:
        # The message with its file name only (the directory varies).
        line += " " + obj["error"].split("/")[-1]
    print(line)


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    with open(path) as f:
        data = json.load(f, parse_constant=lambda c: fail("bare " + c))
    objs = data if isinstance(data, list) else [data]
    if len(objs) != count:
        fail("%d objects, expected %d" % (len(objs), count))
    for obj in objs:
        check(obj)


if __name__ == "__main__":
    main()
