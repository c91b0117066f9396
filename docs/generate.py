#!/usr/bin/env python3
"""Generates the course text's figures, embedded diffs and result tables (work in progress)."""
import sys
sys.exit(0)
