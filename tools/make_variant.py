#!/usr/bin/env python3
"""Writes the sources of a variant of tools/variants.txt, for Meson (tools/meson.build): the
stage's bitonic_index.h and bitonic_sort.cu with the variant's edits, and a copy of its main(),
the two programs' files including that header instead of the stage's own.

    make_variant.py NAME STAGE_SOURCE STAGE_HEADER MAIN OUT_SOURCE OUT_MAIN OUT_HEADER
"""
import os
import sys

import course

INCLUDE = '#include "bitonic_index.h"\n'


def with_header(text, path, header_name):
    """The text of the file at `path` including header_name instead of bitonic_index.h."""
    if text.count(INCLUDE) != 1:
        sys.exit(f"make_variant.py: {path} does not include bitonic_index.h once")
    return text.replace(INCLUDE, f'#include "{header_name}"\n')


def main():
    name, source, header, main_file, out_source, out_main, out_header = sys.argv[1:8]
    variant = course.variants()[name]
    try:
        edited = variant.edited({"bitonic_index.h": open(header).read(),
                                 "bitonic_sort.cu": open(source).read()})
    except ValueError as error:
        sys.exit(f"make_variant.py: {error}")
    header_name = os.path.basename(out_header)
    files = {out_header: edited["bitonic_index.h"],
             out_source: with_header(edited["bitonic_sort.cu"], source, header_name),
             out_main: with_header(open(main_file).read(), main_file, header_name)}
    for path, text in files.items():
        with open(path, "w") as file:
            file.write(text)


if __name__ == "__main__":
    main()
