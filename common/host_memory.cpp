// host_memory.cpp: the host memory check.
#include "host_memory.h"

#include <fstream>
#include <sstream>

#include "errors.h"

std::string mebibytes(std::uint64_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

void require_host_memory(std::uint64_t bytes, const std::string &what) {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kibibytes = 0;
    if (fields >> key >> kibibytes && key == "MemAvailable:") {
      const std::uint64_t available = kibibytes * 1024;
      if (bytes > available) {
        throw FatalError(kExitOutOfMemory,
                         "not enough host memory: " + what + " need about " + mebibytes(bytes) +
                             ", " + mebibytes(available) + " are available (try fewer keys)");
      }
      return;
    }
  }
}
