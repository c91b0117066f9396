// report.h: what a run reports, as a text block for people or one CSV record for scripts.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

struct Report {
  std::string program;
  std::string device;
  std::string compute_capability;
  std::uint64_t n = 0;
  // The length actually sorted: n rounded up to a power of two for the stages.
  std::uint64_t padded_n = 0;
  bool ascending = true;
  // A distribution name, or "file" when the keys came from --input.
  std::string distribution;
  // Keys per separately sorted array (--segment); 0 when the whole input is one array.
  std::uint64_t segment = 0;
  std::uint64_t seed = 0;
  // --values: the sort also returned each key's index in its array (an argsort).
  bool indices = false;
  // --top K: only the first K keys of each array were kept (a top-k); 0 when all were.
  std::uint64_t top = 0;
  // --type float: the keys were 32-bit IEEE 754 floats, sorted in totalOrder.
  bool floats = false;
  // Kernel launches of one sort, counted as they happen; -1 when unknown (library calls).
  long long launches = -1;
  // Passes over the whole array per sort (every stage kernel reads and writes all keys once,
  // so passes = launches for the stages); -1 when unknown.
  long long passes = -1;
  int reps = 0;
  // A sort on the host (std::sort): no warm-up, and the keys never leave the host.
  bool on_host = false;
  double sort_ms = 0;
  double total_ms = 0;
  // A sort across GPUs: the time of its last exchange between GPUs, and the bytes each GPU sent
  // in it; negative (exchange_ms) when there was none.
  double exchange_ms = -1;
  std::uint64_t exchange_bytes = 0;
  // "pass", "FAIL" or "skipped".
  std::string validation;
  std::string cuda_runtime;
  std::string cuda_driver;
};

// Keys sorted per second, in millions: n / sort time.
double mkeys_per_second(const Report &report);
// passes x 8 bytes x padded_n / sort time, in GB/s (10^9 bytes); negative when passes unknown.
double effective_gb_per_second(const Report &report);
// A sort across GPUs: the bytes each GPU sent in its last exchange / the exchange's time, in GB/s
// one way; negative when there was no exchange.
double exchange_gb_per_second(const Report &report);

void print_text(std::ostream &out, const Report &report);
void print_csv_header(std::ostream &out);
void print_csv(std::ostream &out, const Report &report);

// The host's processor as /proc/cpuinfo names it ("CPU Intel(R) Xeon(R) ..."), or "CPU": the
// device of a run on the host.
std::string host_cpu_name();
