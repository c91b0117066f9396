// report.cpp: the text, CSV and JSON forms of a report.
#include "report.h"

#include <cstdio>

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

// CSV and JSON strings: quotes doubled for CSV, escaped for JSON. Device names and file names
// are the only free text that reaches a record.
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

std::string json_string(const std::string &text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      quoted += escape;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

std::string optional_number(double value, int decimals) {
  return value < 0 ? "" : fixed(value, decimals);
}

}  // namespace

double mkeys_per_second(const Report &report) {
  return report.sort_ms > 0 ? report.n / (report.sort_ms * 1e3) : 0;
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
  if (report.segment != 0) {
    out << "arrays        " << report.n / report.segment << " arrays of " << report.segment
        << " keys, each sorted on its own\n";
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
  out << "validation    " << report.validation << "\n";
}

void print_csv_header(std::ostream &out) {
  out << "program,device,compute_capability,n,padded_n,order,distribution,seed,segment,launches,"
         "passes,reps,sort_ms,total_ms,mkeys_per_s,effective_gb_s,validation,cuda_runtime,"
         "cuda_driver\n";
}

void print_csv(std::ostream &out, const Report &report) {
  out << csv_field(report.program) << ',' << csv_field(report.device) << ','
      << report.compute_capability << ',' << report.n << ',' << report.padded_n << ','
      << (report.ascending ? "asc" : "desc") << ',' << csv_field(report.distribution) << ','
      << report.seed << ',' << report.segment << ','
      << (report.launches >= 0 ? std::to_string(report.launches) : "") << ','
      << (report.passes >= 0 ? std::to_string(report.passes) : "") << ',' << report.reps << ','
      << fixed(report.sort_ms, 6) << ',' << fixed(report.total_ms, 6) << ','
      << fixed(mkeys_per_second(report), 3) << ','
      << optional_number(effective_gb_per_second(report), 3) << ',' << report.validation << ','
      << report.cuda_runtime << ',' << report.cuda_driver << '\n';
}

void print_json(std::ostream &out, const Report &report) {
  auto number_or_null = [](double value, int decimals) {
    return value < 0 ? std::string("null") : fixed(value, decimals);
  };
  out << "{\"program\": " << json_string(report.program)
      << ", \"device\": " << json_string(report.device)
      << ", \"compute_capability\": " << json_string(report.compute_capability)
      << ", \"n\": " << report.n << ", \"padded_n\": " << report.padded_n
      << ", \"order\": " << json_string(report.ascending ? "asc" : "desc")
      << ", \"distribution\": " << json_string(report.distribution) << ", \"seed\": " << report.seed
      << ", \"segment\": " << report.segment
      << ", \"launches\": " << (report.launches >= 0 ? std::to_string(report.launches) : "null")
      << ", \"passes\": " << (report.passes >= 0 ? std::to_string(report.passes) : "null")
      << ", \"reps\": " << report.reps << ", \"sort_ms\": " << fixed(report.sort_ms, 6)
      << ", \"total_ms\": " << fixed(report.total_ms, 6)
      << ", \"mkeys_per_s\": " << fixed(mkeys_per_second(report), 3)
      << ", \"effective_gb_s\": " << number_or_null(effective_gb_per_second(report), 3)
      << ", \"validation\": " << json_string(report.validation)
      << ", \"cuda_runtime\": " << json_string(report.cuda_runtime)
      << ", \"cuda_driver\": " << json_string(report.cuda_driver) << "}\n";
}
