// errors.h: the exit codes every program of the course uses, and the one exception type that
// carries a failure up to main(), where it becomes a single line on stderr and an exit code.
#pragma once

#include <stdexcept>
#include <string>

// The documented exit codes (README, "Running a stage").
enum ExitCode : int {
  kExitSuccess = 0,
  kExitValidationFailed = 1,
  kExitBadInput = 2,
  kExitCudaError = 3,
  kExitOutOfMemory = 4,
};

// Thrown anywhere below main(); main() prints "error: <what>" and returns exit_code.
class FatalError : public std::runtime_error {
 public:
  FatalError(ExitCode exit_code, const std::string &message)
      : std::runtime_error(message), exit_code_(exit_code) {}
  ExitCode exit_code() const {
    return exit_code_;
  }

 private:
  ExitCode exit_code_;
};
