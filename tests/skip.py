#!/usr/bin/env python3
"""A test that cannot run in this build: prints why and exits 77, which Meson reports as SKIP.

Usage: skip.py REASON
"""
import sys

print("SKIP:", " ".join(sys.argv[1:]))
sys.exit(77)
