#!/usr/bin/env python3
"""cpu suite: tools/measure_banks.py's count of machine-code instructions (--sass-only), on a
made-up piece of `cuobjdump -sass` text. The recorded counts (docs/results/h100/sass.csv)
and the tables and values of them in chapters 7, 8, 10, 11 and 18 rest on it: each opcode goes
to the kernel whose function it is in, only the course's kernels count, integer compares are
told apart by .EX alone, double compares by MIN or MAX, FSEL is not taken for SEL, UISETP for
ISETP nor PLOP3 (logic on predicates) for LOP3, and other suffixes are kept up to the first
character that is not a capital or a digit (BAR.SYNC.DEFER_BLOCKING is recorded as
BAR.SYNC.DEFER).
Needs no GPU.

    python3 tests/tools/sass_counts_test.py ROOT
"""
import os
import sys

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "tools"))
import measure_banks  # noqa: E402

SASS = """
        code for sm_90
                Function : _ZN12_GLOBAL__N_16helperEv
        /*0000*/                   ISETP.GE.AND P0, PT, R0, R1, PT ;
                Function : _ZN12_GLOBAL__N_110block_sortEPiS0_jjb
        /*0000*/                   LDG.E.128 R4, desc[UR4][R2.64] ;
        /*0010*/                   UISETP.GE.U32.AND UP0, UPT, UR4, 0x2, UPT ;
        /*0020*/                   ISETP.GT.U32.AND P0, PT, R4, R6, PT ;
        /*0030*/                   ISETP.GT.U32.AND.EX P0, PT, R5, R7, PT, P0 ;
        /*0040*/                   ISETP.LT.U32.AND P1, PT, R4, R6, PT ;
        /*0050*/                   SEL R8, R4, R6, P0 ;
        /*0060*/                   DSETP.MIN.AND P2, P3, R4, R6, PT ;
        /*0070*/                   FSEL R9, R5, R7, P2 ;
        /*0080*/               @P0 STS.64 [R10], R4 ;
        /*0090*/                   SHFL.BFLY PT, R11, R4, 0x1, 0x1f ;
        /*00a0*/                   VIMNMX.U32 R12, R4, R6, PT ;
        /*00b0*/                   LOP3.LUT R13, RZ, R12, RZ, 0x33, !PT ;
        /*00c0*/                   PLOP3.LUT P4, PT, P0, P1, PT, 0x80, 0x0 ;
                Function : _ZN12_GLOBAL__N_111block_mergeEPiS0_jjb
        /*0000*/                   DSETP.MAX.AND P0, P1, R4, R6, PT ;
        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
"""

counts = measure_banks.count_instructions(SASS)
expected = {
    "block_sort": {"LDG.E.128": 1, "ISETP": 2, "ISETP.EX": 1, "SEL": 1, "DSETP.MIN": 1,
                   "FSEL": 1, "STS.64": 1, "SHFL.BFLY": 1, "VIMNMX.U32": 1,
                   "LOP3.LUT": 1},
    "block_merge": {"DSETP.MAX": 1, "BAR.SYNC.DEFER": 1},
}
found = {kernel: dict(counter) for kernel, counter in counts.items()}
if found != expected:
    print(f"FAIL count_instructions:\n  found    {found}\n  expected {expected}")
    sys.exit(1)
print(f"ok   count_instructions: {sum(len(c) for c in expected.values())} opcodes in 2 kernels")
