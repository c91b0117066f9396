#include "span_rules.h"

#include "host_device.h"

// v14_span's bitonic_index.h with the edits of the variant v14_tail6 (tools/variants.txt: a
// merge's last pass may hold as few as 6 strides, where v14 keeps at least kFewestTailSteps = 8),
// written by make_variant.py into the build folder, in a namespace of its own as span_rules.cpp
// does with v14's.
namespace span_tail6 {
#include "span_tail6_bitonic_index.h"
}  // namespace span_tail6

unsigned long long span_tail6_passes(unsigned n) {
  return span_tail6::launches_per_sort(n);
}
