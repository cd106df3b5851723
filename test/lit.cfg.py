# -*- Python -*-
# lit configuration for kproof's FileCheck tests.

import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "KPROOF"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".ptx"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kproof_obj_root, "test")

# Inputs/ holds fixtures (PTX, CUDA sources, contracts), not tests.
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "expect-exit.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(
    ("%expect_exit", "%s %s" % (sys.executable,
                                os.path.join(config.test_source_root, "expect-exit.py"))))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.kproof_tools_dir, config.llvm_tools_dir]
tools = ["kproof-opt", "kproof-translate", "kproof-smt", "kproof-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
