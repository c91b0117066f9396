// host_memory.h: checking that the host has room for a run before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

// "1024 MiB", rounded up.
std::string mebibytes(std::uint64_t bytes);

// Throws FatalError(kExitOutOfMemory), saying how much is needed and how much is available,
// unless the kernel's estimate of available memory (Linux, /proc/meminfo) covers `bytes`.
// Where that estimate is unknown it returns, and an allocation that fails reports the
// shortage instead. `what` names the data ("2^29 keys on the host").
void require_host_memory(std::uint64_t bytes, const std::string &what);
