// key_files.h: raw little-endian int32 key files, the formats of --input and --output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The number of int32 keys in a raw key file when its size is known before reading it (a regular
// file with a size), after checking that it is a positive multiple of 4 and not more than a run
// can sort; 0 when only reading tells (a pipe, a terminal, a /proc file). Throws
// FatalError(kExitBadInput) with the reason when the file cannot be a key file (missing, a
// directory, a socket, a block device, a bad size).
std::uint64_t known_key_count(const std::string &path);
// The keys of a raw little-endian int32 file: a regular file (read straight into the result), or
// anything else that can be read to its end (a pipe, /dev/stdin, a /proc file; read in pieces,
// then checked like known_key_count checks a size).
std::vector<int> read_keys_file(const std::string &path);

// Where the sorted keys go (--output). Nothing is ever half-written or clobbered:
//   - a regular file is replaced in one step: the keys go to a temporary file in the same
//     folder, which then takes the file's name (rename); the file keeps its permissions;
//   - a symbolic link is followed: the file it names is written, and the link stays a link;
//   - a character device (/dev/null) or a fifo is written through, never replaced;
//   - a new file is created with the usual permissions (0666 less the umask);
//   - a directory, a block device, a socket, a missing or unwritable folder and a read-only
//     file are refused with FatalError(kExitBadInput) when the OutputFile is made, before any
//     sorting.
// If commit() is never reached, or the program is stopped by SIGINT or SIGTERM, the temporary
// file is removed and the target is left as it was.
class OutputFile {
 public:
  explicit OutputFile(const std::string &path);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  void commit(const std::vector<int> &keys);
  // Whether this output is the file at `path` (the same file, by device and inode).
  bool is_same_file_as(const std::string &path) const;

 private:
  std::string path_;
  // The file that is written: path_ with every symbolic link followed.
  std::string target_;
  // A character device or fifo, written through instead of replaced.
  bool stream_ = false;
  std::string temporary_path_;
  int descriptor_ = -1;
};
