// cpu suite, common/report: the CSV header and every record have the same columns, in the same
// order, whatever the report holds; the rates are computed from the fields; and the lines and
// columns that only some runs have (the bandwidth, the exchange between GPUs) appear exactly
// when those runs made them.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "report.h"

namespace {

std::vector<std::string> split(const std::string &line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// {column name: value} of one report as a CSV record under its header.
std::vector<std::pair<std::string, std::string>> csv_columns(const Report &report) {
  std::ostringstream header, record;
  print_csv_header(header);
  print_csv(record, report);
  const std::vector<std::string> names = split(header.str().substr(0, header.str().size() - 1));
  const std::vector<std::string> values = split(record.str().substr(0, record.str().size() - 1));
  REQUIRE(names.size() == values.size());
  std::vector<std::pair<std::string, std::string>> columns;
  for (std::size_t i = 0; i < names.size(); ++i) {
    columns.emplace_back(names[i], values[i]);
  }
  return columns;
}

std::string column(const Report &report, const std::string &name) {
  for (const auto &[column_name, value] : csv_columns(report)) {
    if (column_name == name) {
      return value;
    }
  }
  FAIL("no column " << name);
  return "";
}

std::string text(const Report &report) {
  std::ostringstream out;
  print_text(out, report);
  return out.str();
}

Report stage_report() {
  Report report;
  report.program = "v7_register_tile";
  report.device = "NVIDIA H100 80GB HBM3, \"PCIe\"";
  report.n = 1000;
  report.padded_n = 1024;
  report.launches = 10;
  report.passes = 10;
  report.reps = 5;
  report.sort_ms = 0.5;
  report.total_ms = 2;
  report.validation = "pass";
  return report;
}

}  // namespace

TEST_CASE("a record has the header's columns, and a quoted field keeps its comma and quotes") {
  const Report report = stage_report();
  CHECK(column(report, "program") == "v7_register_tile");
  CHECK(column(report, "device") == "NVIDIA H100 80GB HBM3, PCIe");
  CHECK(column(report, "n") == "1000");
  CHECK(column(report, "padded_n") == "1024");
  CHECK(column(report, "validation") == "pass");
  std::ostringstream record;
  print_csv(record, report);
  CHECK(record.str().find("\"NVIDIA H100 80GB HBM3, \"\"PCIe\"\"\"") != std::string::npos);
}

TEST_CASE("the rates come from the fields") {
  Report report = stage_report();
  // 10 passes x 8 bytes x 1024 keys in 0.5 ms.
  CHECK(effective_gb_per_second(report) == doctest::Approx(10 * 8 * 1024 / 0.5e6));
  CHECK(mkeys_per_second(report) == doctest::Approx(1000 / 0.5e3));
  CHECK(column(report, "effective_gb_s") == "0.164");
  report.passes = -1;
  CHECK(effective_gb_per_second(report) < 0);
  CHECK(column(report, "effective_gb_s").empty());
  CHECK(column(report, "passes").empty());
  CHECK(text(report).find("bandwidth") == std::string::npos);
}

TEST_CASE("the exchange between GPUs is reported exactly when a sort made one") {
  Report report = stage_report();
  CHECK(column(report, "exchange_ms").empty());
  CHECK(column(report, "exchange_gb_s").empty());
  CHECK(text(report).find("exchange") == std::string::npos);
  report.exchange_ms = 2;
  report.exchange_bytes = 4000000;
  CHECK(exchange_gb_per_second(report) == doctest::Approx(2.0));
  CHECK(column(report, "exchange_ms") == "2.000000");
  CHECK(column(report, "exchange_gb_s") == "2.000");
  CHECK(text(report).find("exchange      2.0000 ms, the sort's last between GPUs (4000000 bytes "
                          "each way per GPU, 2.0 GB/s one way)") != std::string::npos);
}
