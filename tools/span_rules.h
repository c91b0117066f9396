// The plan of passes of v14_span (its bitonic_index.h), for network_dump: span_rules.cpp is
// compiled against that header, as group_rules.cpp is against v13_any_bits's, and each header is
// seen by one translation unit only.
#pragma once

// Prints the launches v14_span makes for one array of n keys (for_each_launch), as
// docs/figures.py draws them:
//   launch KERNEL SIZE STRIDE STEPS
void print_span_plan(unsigned n);

// launches_per_sort(n) of v14_span.
unsigned long long span_passes(unsigned n);

// launches_per_sort(n) of v14_span with the variant v14_tail6's rule for a merge's last pass
// (span_tail6_rules.cpp): what v14's rule of at least kFewestTailSteps strides costs.
unsigned long long span_tail6_passes(unsigned n);
