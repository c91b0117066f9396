// key_files.cpp: reading and writing raw int32 key files.
#include "key_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "errors.h"
#include "padding.h"

// The files hold little-endian int32, which is also how this host keeps an int in memory, so
// keys are read and written as they are. A big-endian host would need a byte swap here.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "raw key files assume a little-endian host");
static_assert(sizeof(int) == 4, "keys are 32-bit signed integers");

namespace {

std::string system_error(const std::string &what, const std::string &path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

// What kind of file `path` names, following symbolic links, in words for a message.
std::string kind_of_file(const struct stat &status) {
  return S_ISDIR(status.st_mode) ? "a directory"
      : S_ISBLK(status.st_mode)  ? "a block device"
      : S_ISSOCK(status.st_mode) ? "a socket"
                                 : "not a regular file";
}

// Refuses a byte count that cannot hold raw int32 keys a run can sort.
void check_key_bytes(const std::string &path, std::uint64_t bytes) {
  if (bytes == 0) {
    throw FatalError(kExitBadInput, "input file '" + path + "' is empty: there is nothing to sort");
  }
  if (bytes % sizeof(int) != 0) {
    throw FatalError(kExitBadInput,
                     "input file '" + path + "' has " + std::to_string(bytes) +
                         " bytes, not a multiple of 4 (raw int32 keys expected)");
  }
  if (bytes / sizeof(int) > kMaxKeys) {
    throw FatalError(kExitBadInput,
                     "input file '" + path + "' holds " + std::to_string(bytes / sizeof(int)) +
                         " keys, more than the " + std::to_string(kMaxKeys) + " a run can sort");
  }
}

// stat() of an input file, refusing what cannot be read as a stream of keys.
struct stat input_status(const std::string &path) {
  struct stat status;
  if (stat(path.c_str(), &status) != 0) {
    throw FatalError(kExitBadInput, system_error("cannot open input file", path));
  }
  if (S_ISDIR(status.st_mode) || S_ISBLK(status.st_mode) || S_ISSOCK(status.st_mode)) {
    throw FatalError(
        kExitBadInput,
        "input file '" + path + "' is " + kind_of_file(status) + ", not a file of keys");
  }
  return status;
}

// The folder part of a path ("." when there is none).
std::string folder_of(const std::string &path) {
  const std::string folder = std::filesystem::path(path).parent_path();
  return folder.empty() ? "." : folder;
}

// path with every symbolic link followed, also when the last one names a file that does not
// exist yet (the file --output will create). Relative link targets are relative to the link's
// folder. Gives up after 40 links, like the kernel.
std::string follow_links(std::string path) {
  for (int links = 0; links < 40; ++links) {
    struct stat status;
    if (lstat(path.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) {
      return path;
    }
    std::vector<char> target(static_cast<std::size_t>(status.st_size) + 256);
    const ssize_t length = readlink(path.c_str(), target.data(), target.size() - 1);
    if (length < 0) {
      return path;
    }
    const std::string next(target.data(), static_cast<std::size_t>(length));
    path = next[0] == '/' ? next : folder_of(path) + "/" + next;
  }
  throw FatalError(kExitBadInput, "cannot write output file '" + path + "': too many links");
}

// The temporary file of the OutputFile being written, for the signal handler: a fixed buffer,
// because a handler may only call async-signal-safe functions (unlink, signal, raise).
char temporary_for_signals[4096];

void remove_temporary_and_stop(int signal_number) {
  if (temporary_for_signals[0] != '\0') {
    unlink(temporary_for_signals);
  }
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

void track_temporary(const std::string &path) {
  if (path.size() < sizeof temporary_for_signals) {
    std::memcpy(temporary_for_signals, path.c_str(), path.size() + 1);
    signal(SIGINT, remove_temporary_and_stop);
    signal(SIGTERM, remove_temporary_and_stop);
  }
}

void forget_temporary() {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  temporary_for_signals[0] = '\0';
}

// Writes every key to `descriptor`, then (if `sync`) waits until they are on the disk, and
// closes it, also when something failed; whether all of it worked (errno says what did not).
bool write_and_close(int descriptor, const std::vector<int> &keys, bool sync) {
  const char *bytes = reinterpret_cast<const char *>(keys.data());
  std::size_t left = keys.size() * sizeof(int);
  bool written_all = true;
  while (written_all && left > 0) {
    const ssize_t written = write(descriptor, bytes, left);
    if (written < 0 && errno == EINTR) {
      continue;
    }
    written_all = written > 0;
    bytes += written_all ? written : 0;
    left -= written_all ? static_cast<std::size_t>(written) : 0;
  }
  written_all = written_all && (!sync || fsync(descriptor) == 0);
  // The message names the first failure: the write's (or fsync's) error survives the close.
  const int write_error = errno;
  const bool closed = close(descriptor) == 0;
  if (!written_all) {
    errno = write_error;
  }
  return written_all && closed;
}

}  // namespace

std::uint64_t known_key_count(const std::string &path) {
  const struct stat status = input_status(path);
  if (!S_ISREG(status.st_mode) || status.st_size == 0) {
    // A pipe or a terminal has no size, and the files of /proc claim 0 bytes: only reading
    // tells how many keys there are.
    return 0;
  }
  const std::uint64_t bytes = static_cast<std::uint64_t>(status.st_size);
  check_key_bytes(path, bytes);
  return bytes / sizeof(int);
}

std::vector<int> read_keys_file(const std::string &path) {
  const std::uint64_t known = known_key_count(path);
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw FatalError(kExitBadInput, system_error("cannot open input file", path));
  }
  if (known != 0) {
    // A regular file: its size is the number of keys, read straight into place.
    std::vector<int> keys(known);
    const std::size_t read = std::fread(keys.data(), sizeof(int), known, file);
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed || read != known) {
      throw FatalError(kExitBadInput,
                       "cannot read input file '" + path + "': got " + std::to_string(read) +
                           " of " + std::to_string(known) + " keys");
    }
    return keys;
  }
  // A pipe, a terminal or a /proc file: read to the end, but no further than one key past what
  // a run can sort, which is enough to refuse it (/dev/zero never ends).
  std::vector<char> bytes;
  std::vector<char> chunk(1 << 20);
  const std::uint64_t most = (kMaxKeys + 1) * sizeof(int);
  while (bytes.size() < most) {
    const std::size_t wanted =
        static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), most - bytes.size()));
    const std::size_t got = std::fread(chunk.data(), 1, wanted, file);
    if (got == 0) {
      break;
    }
    bytes.insert(bytes.end(), chunk.data(), chunk.data() + got);
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    throw FatalError(kExitBadInput, system_error("cannot read input file", path));
  }
  check_key_bytes(path, bytes.size());
  std::vector<int> keys(bytes.size() / sizeof(int));
  std::memcpy(keys.data(), bytes.data(), bytes.size());
  return keys;
}

OutputFile::OutputFile(const std::string &path) : path_(path) {
  const std::string refused = "cannot write output file '" + path + "': ";
  struct stat status;
  if (stat(path.c_str(), &status) == 0) {
    if (S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode)) {
      // Written through at commit(); opening a fifo now would wait for its reader.
      if (access(path.c_str(), W_OK) != 0) {
        throw FatalError(kExitBadInput, refused + std::strerror(errno));
      }
      stream_ = true;
      target_ = path;
      return;
    }
    if (!S_ISREG(status.st_mode)) {
      throw FatalError(kExitBadInput, refused + "it is " + kind_of_file(status));
    }
    // Root may write any file, so access() alone lets a read-only file through: its mode
    // decides too.
    if (access(path.c_str(), W_OK) != 0 || (status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) {
      throw FatalError(kExitBadInput, refused + "the file is not writable");
    }
  } else if (errno != ENOENT) {
    throw FatalError(kExitBadInput, refused + std::strerror(errno));
  }
  // A regular file, or a new one: replaced (or created) in one step by renaming a temporary file
  // of the same folder onto it. The folder is the target's, after following links.
  target_ = follow_links(path);
  const std::string folder = folder_of(target_);
  struct stat folder_status;
  if (stat(folder.c_str(), &folder_status) != 0 || !S_ISDIR(folder_status.st_mode)) {
    throw FatalError(kExitBadInput, refused + "folder '" + folder + "' does not exist");
  }
  if (access(folder.c_str(), W_OK | X_OK) != 0) {
    throw FatalError(kExitBadInput, refused + "folder '" + folder + "' is not writable");
  }
  // A short name, so that a long valid file name cannot become too long with a suffix.
  std::string pattern = folder + "/.sorted-keys-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  descriptor_ = mkstemp(name.data());
  if (descriptor_ < 0) {
    // /proc, for one, has files but takes no new ones.
    throw FatalError(
        kExitBadInput,
        refused + "cannot create a file in folder '" + folder + "' (" + std::strerror(errno) + ")");
  }
  temporary_path_ = name.data();
  track_temporary(temporary_path_);
  // mkstemp makes the file 0600; give it the target's permissions (and owner, where allowed),
  // or those of a new file.
  if (stat(target_.c_str(), &status) == 0) {
    fchmod(descriptor_, status.st_mode & 07777);
    if (fchown(descriptor_, status.st_uid, status.st_gid) != 0) {
      // Only the owner's own group or root may change it: keep ours.
    }
  } else {
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(descriptor_, 0666 & ~mask);
  }
}

OutputFile::~OutputFile() {
  if (descriptor_ >= 0) {
    close(descriptor_);
    unlink(temporary_path_.c_str());
    forget_temporary();
  }
}

void OutputFile::commit(const std::vector<int> &keys) {
  if (stream_) {
    const int descriptor = open(target_.c_str(), O_WRONLY);
    if (descriptor < 0 || !write_and_close(descriptor, keys, false)) {
      throw FatalError(kExitBadInput, system_error("cannot write output file", path_));
    }
    return;
  }
  const int descriptor = descriptor_;
  descriptor_ = -1;
  // The rename is the one step that replaces the target: before it the old file is whole,
  // after it the new one.
  if (!write_and_close(descriptor, keys, true) ||
      std::rename(temporary_path_.c_str(), target_.c_str()) != 0) {
    const std::string message = system_error("cannot write output file", path_);
    unlink(temporary_path_.c_str());
    forget_temporary();
    throw FatalError(kExitBadInput, message);
  }
  forget_temporary();
}

bool OutputFile::is_same_file_as(const std::string &path) const {
  struct stat mine, theirs;
  return stat(target_.c_str(), &mine) == 0 && stat(path.c_str(), &theirs) == 0 &&
      mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino;
}
