#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the expected code.

Usage: expect-exit.py CODE COMMAND [ARGS...]
stdout and stderr of COMMAND pass through unchanged, so the output can be
piped into FileCheck. Used by lit tests that check kproof-opt's exit codes
(0 PROVED/ok, 1 REFUTED/failure, 2 error, 3 UNKNOWN).
"""
import subprocess
import sys

expected = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != expected:
    sys.stderr.write(f"expect-exit: '{sys.argv[2]}' exited with "
                     f"{result.returncode}, expected {expected}\n")
    sys.exit(1)
