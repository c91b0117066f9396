#!/usr/bin/env python3
"""format suite: every C++ and CUDA source matches .clang-format.

Usage: check_format.py SOURCE_ROOT

clang-format's output changes between major versions, so the check runs only with the version
the tree is formatted with (14, Debian 12's) and reports SKIP (77) with any other, or without
clang-format.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

root = sys.argv[1]
clang_format = shutil.which("clang-format-14") or shutil.which("clang-format")
if clang_format is None:
    print("SKIP: clang-format not found")
    sys.exit(77)
version = subprocess.run([clang_format, "--version"], capture_output=True, text=True).stdout
major = re.search(r"version (\d+)", version)
if not major or major.group(1) != "14":
    print(f"SKIP: the tree is formatted with clang-format 14, this is: {version.strip()}")
    sys.exit(77)

sources = sorted(
    path for pattern in ("*/*.cu", "*/*.h", "*/*.cpp", "*/*/*.cu", "*/*/*.h", "*/*/*.cpp")
    for path in glob.glob(os.path.join(root, pattern))
    if not os.path.relpath(path, root).startswith(("build", ".")))
result = subprocess.run([clang_format, "--dry-run", "--Werror", *sources],
                        capture_output=True, text=True)
print(f"{len(sources)} files checked")
print(result.stderr[-6000:])
sys.exit(0 if result.returncode == 0 else 1)
