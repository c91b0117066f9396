// report.cpp: the text and CSV forms of a report.
#include "report.h"

#include <cstdio>
#include <fstream>

namespace {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// "2^20" when n is a power of two, else the number itself.
std::string size_name(std::uint64_t n) {
  for (int q = 0; q < 64; ++q) {
    if (n == (std::uint64_t{1} << q)) {
      return "2^" + std::to_string(q);
    }
  }
  return std::to_string(n);
}

// A CSV field: quoted, with quotes doubled, when it holds a comma, a quote or a line break.
// Device names and file names are the only free text that reaches a record.
std::string csv_field(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string quoted = "\"";
  for (char c : text) {
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return quoted + "\"";
}

// An optional count or rate: empty when unknown (negative).
std::string optional(long long value) {
  return value < 0 ? "" : std::to_string(value);
}

}  // namespace

double mkeys_per_second(const Report &report) {
  return report.sort_ms > 0 ? report.n / (report.sort_ms * 1e3) : 0;
}

double exchange_gb_per_second(const Report &report) {
  return report.exchange_ms > 0 ? report.exchange_bytes / (report.exchange_ms * 1e6) : -1;
}

double effective_gb_per_second(const Report &report) {
  if (report.passes < 0 || report.sort_ms <= 0) {
    return -1;
  }
  return report.passes * 8.0 * report.padded_n / (report.sort_ms * 1e6);
}

void print_text(std::ostream &out, const Report &report) {
  const std::string order = report.ascending ? "ascending" : "descending";
  std::string keys = report.distribution;
  if (report.distribution != "file") {
    keys += " (seed " + std::to_string(report.seed) + ")";
  }
  std::string size = std::to_string(report.n) + " (" + size_name(report.n) + ")";
  if (report.padded_n != report.n) {
    size += ", padded to " + size_name(report.padded_n);
  }
  out << "program       " << report.program << "\n"
      << "device        " << report.device;
  if (!report.compute_capability.empty()) {
    out << " (compute capability " << report.compute_capability << ")";
  }
  out << "\n"
      << "keys          " << size << ", " << keys << ", " << order << "\n";
  if (report.floats) {
    out << "type          32-bit IEEE 754 floats, in totalOrder (-NaN first, +NaN last)\n";
  }
  if (report.segment != 0) {
    out << "arrays        " << report.n / report.segment << " arrays of " << report.segment
        << " keys, each sorted on its own\n";
  }
  if (report.indices) {
    out << "values        each key's index in its array (argsort), checked with the keys\n";
  }
  if (report.top != 0) {
    out << "top           the first " << report.top
        << " keys of each array kept, the rest dropped\n";
  }
  if (report.launches >= 0) {
    out << "launches      " << report.launches << " kernel launches per sort\n";
  }
  // A sort on the host has no warm-up and no copies to or from a device.
  const char *runs = report.on_host ? " runs)\n" : " runs after a warm-up)\n";
  const char *total = report.on_host
      ? " ms (the keys stay on the host: no copies)\n"
      : " ms (host-to-device copy + sort + device-to-host copy, pinned memory)\n";
  out << "sort time     " << fixed(report.sort_ms, 4) << " ms (median of " << report.reps << runs
      << "total time    " << fixed(report.total_ms, 4) << total << "throughput    "
      << fixed(mkeys_per_second(report), 1) << " Mkeys/s\n";
  const double bandwidth = effective_gb_per_second(report);
  if (bandwidth >= 0) {
    out << "bandwidth     " << fixed(bandwidth, 1) << " GB/s effective (" << report.passes
        << " passes x 8 bytes x " << report.padded_n << " keys / sort time)\n";
  }
  if (report.exchange_ms >= 0) {
    out << "exchange      " << fixed(report.exchange_ms, 4) << " ms, the sort's last between GPUs ("
        << report.exchange_bytes << " bytes each way per GPU, "
        << fixed(exchange_gb_per_second(report), 1) << " GB/s one way)\n";
  }
  out << "validation    " << report.validation << "\n";
}

namespace {

// The columns of a CSV record, in order: one line per field, so that the header and the record
// cannot disagree.
struct Column {
  const char *name;
  std::string (*value)(const Report &report);
};

const Column kColumns[] = {
    {"program", [](const Report &r) { return csv_field(r.program); }},
    {"device", [](const Report &r) { return csv_field(r.device); }},
    {"compute_capability", [](const Report &r) { return r.compute_capability; }},
    {"n", [](const Report &r) { return std::to_string(r.n); }},
    {"padded_n", [](const Report &r) { return std::to_string(r.padded_n); }},
    {"order", [](const Report &r) { return std::string(r.ascending ? "asc" : "desc"); }},
    {"distribution", [](const Report &r) { return csv_field(r.distribution); }},
    {"seed", [](const Report &r) { return std::to_string(r.seed); }},
    {"segment", [](const Report &r) { return std::to_string(r.segment); }},
    {"values", [](const Report &r) { return std::string(r.indices ? "indices" : "none"); }},
    {"top", [](const Report &r) { return std::to_string(r.top); }},
    {"type", [](const Report &r) { return std::string(r.floats ? "float32" : "int32"); }},
    {"launches", [](const Report &r) { return optional(r.launches); }},
    {"passes", [](const Report &r) { return optional(r.passes); }},
    {"reps", [](const Report &r) { return std::to_string(r.reps); }},
    {"sort_ms", [](const Report &r) { return fixed(r.sort_ms, 6); }},
    {"total_ms", [](const Report &r) { return fixed(r.total_ms, 6); }},
    {"mkeys_per_s", [](const Report &r) { return fixed(mkeys_per_second(r), 3); }},
    {"effective_gb_s",
     [](const Report &r) {
       const double rate = effective_gb_per_second(r);
       return rate < 0 ? std::string() : fixed(rate, 3);
     }},
    {"exchange_ms",
     [](const Report &r) { return r.exchange_ms < 0 ? std::string() : fixed(r.exchange_ms, 6); }},
    {"exchange_gb_s",
     [](const Report &r) {
       const double rate = exchange_gb_per_second(r);
       return rate < 0 ? std::string() : fixed(rate, 3);
     }},
    {"validation", [](const Report &r) { return r.validation; }},
    {"cuda_runtime", [](const Report &r) { return r.cuda_runtime; }},
    {"cuda_driver", [](const Report &r) { return r.cuda_driver; }},
};

}  // namespace

void print_csv_header(std::ostream &out) {
  const char *separator = "";
  for (const Column &column : kColumns) {
    out << separator << column.name;
    separator = ",";
  }
  out << '\n';
}

void print_csv(std::ostream &out, const Report &report) {
  const char *separator = "";
  for (const Column &column : kColumns) {
    out << separator << column.value(report);
    separator = ",";
  }
  out << '\n';
}

std::string host_cpu_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      return "CPU " + line.substr(line.find(':') + 2);
    }
  }
  return "CPU";
}
