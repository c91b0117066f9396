// cpu suite: the key generators, raw key files and the all-or-nothing output file.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <dirent.h>
#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "errors.h"
#include "float_order.h"
#include "host_memory.h"
#include "key_files.h"
#include "keys.h"

namespace {

// A fresh empty directory under the system's temporary folder, removed with its files at the end.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    char pattern[] = "/tmp/bitonic-test-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TemporaryDirectory() {
    for (const std::string &name : files()) {
      std::remove((path_ + "/" + name).c_str());
    }
    rmdir(path_.c_str());
  }
  std::string path(const std::string &name) const {
    return path_ + "/" + name;
  }
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    if (DIR *directory = opendir(path_.c_str())) {
      while (dirent *entry = readdir(directory)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") {
          names.push_back(name);
        }
      }
      closedir(directory);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::string path_;
};

void write_bytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string refusal(const std::string &path) {
  try {
    read_keys_file(path);
  } catch (const FatalError &error) {
    CHECK(error.exit_code() == kExitBadInput);
    return error.what();
  }
  FAIL("the file was accepted");
  return "";
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("distribution names round-trip, unknown names are refused") {
  for (Distribution distribution : all_distributions()) {
    Distribution parsed = Distribution::kUniform;
    CHECK(parse_distribution(distribution_name(distribution), &parsed));
    CHECK(parsed == distribution);
  }
  Distribution unchanged = Distribution::kSorted;
  CHECK_FALSE(parse_distribution("gauss", &unchanged));
  CHECK_FALSE(parse_distribution("", &unchanged));
  CHECK(unchanged == Distribution::kSorted);
}

TEST_CASE("a seed names the same keys; another seed other keys") {
  for (Distribution distribution : all_distributions()) {
    CHECK(generate_keys(distribution, 1000, 42) == generate_keys(distribution, 1000, 42));
    CHECK(generate_keys(distribution, 0, 42).empty());
    CHECK(generate_keys(distribution, 1, 42).size() == 1);
  }
  CHECK(generate_keys(Distribution::kUniform, 1000, 1) !=
        generate_keys(Distribution::kUniform, 1000, 2));
  // The generator's output does not depend on the platform: the first keys of seed 1 are fixed.
  const std::vector<int> first = generate_keys(Distribution::kUniform, 3, 1);
  CHECK(first == std::vector<int>{-1861603860, -1091859039, -124542226});
}

TEST_CASE("each distribution has its shape") {
  const std::size_t n = 4096;
  const auto uniform = generate_keys(Distribution::kUniform, n, 3);
  CHECK(*std::min_element(uniform.begin(), uniform.end()) < INT_MIN / 2);
  CHECK(*std::max_element(uniform.begin(), uniform.end()) > INT_MAX / 2);
  CHECK(std::set<int>(uniform.begin(), uniform.end()).size() > n - 10);

  const auto sorted = generate_keys(Distribution::kSorted, n, 3);
  CHECK(std::adjacent_find(sorted.begin(), sorted.end(), std::greater_equal<int>()) ==
        sorted.end());
  CHECK(sorted.front() == INT_MIN);
  CHECK(sorted.back() > INT_MAX / 2);

  const auto reversed = generate_keys(Distribution::kReversed, n, 3);
  CHECK(std::adjacent_find(reversed.begin(), reversed.end(), std::less_equal<int>()) ==
        reversed.end());

  const auto equal = generate_keys(Distribution::kEqual, n, 3);
  CHECK(std::set<int>(equal.begin(), equal.end()).size() == 1);

  const auto few = generate_keys(Distribution::kFewUnique, n, 3);
  const std::size_t distinct = std::set<int>(few.begin(), few.end()).size();
  CHECK(distinct > 1);
  CHECK(distinct <= 16);

  const auto pipe = generate_keys(Distribution::kOrganPipe, n, 3);
  CHECK(std::is_sorted(pipe.begin(), pipe.begin() + n / 2));
  CHECK(std::is_sorted(pipe.rbegin(), pipe.rbegin() + n / 2));
  CHECK(pipe[0] == pipe[n - 1]);

  const auto extremes = generate_keys(Distribution::kExtremes, n, 3);
  const std::set<int> allowed = {INT_MIN, INT_MIN + 1, -1, 0, 1, INT_MAX - 1, INT_MAX};
  const std::set<int> seen(extremes.begin(), extremes.end());
  CHECK(seen == allowed);
}

TEST_CASE("float keys: each distribution's shape in totalOrder, the extremes the float specials") {
  const std::size_t n = 5000;
  // Sorted ints become floats sorted in totalOrder, strictly: float_rank is a bijection.
  const std::vector<int> sorted = generate_float_keys(Distribution::kSorted, n, 3);
  for (std::size_t i = 1; i < n; ++i) {
    CHECK(float_rank(sorted[i - 1]) < float_rank(sorted[i]));
  }
  const std::vector<int> reversed = generate_float_keys(Distribution::kReversed, n, 3);
  CHECK(float_rank(reversed.front()) > float_rank(reversed.back()));
  CHECK(std::set<int>(reversed.begin(), reversed.end()).size() == n);
  const std::vector<int> few = generate_float_keys(Distribution::kFewUnique, n, 3);
  CHECK(std::set<int>(few.begin(), few.end()).size() <= 16);
  // Uniform: every bit pattern, so both signs; the same seed gives the same floats.
  const std::vector<int> uniform = generate_float_keys(Distribution::kUniform, n, 3);
  CHECK(uniform == generate_float_keys(Distribution::kUniform, n, 3));
  CHECK(std::count_if(uniform.begin(), uniform.end(), [](int bits) { return bits < 0; }) > 0);
  CHECK(std::count_if(uniform.begin(), uniform.end(), [](int bits) { return bits > 0; }) > 0);
  // Extremes: exactly the eight specials, each of them present.
  const std::vector<int> extremes = generate_float_keys(Distribution::kExtremes, n, 3);
  const std::set<unsigned> specials = {0xffc00000u, 0xff800000u, 0xff7fffffu, 0x80000000u,
                                       0x00000000u, 0x00000001u, 0x7f800000u, 0x7fc00000u};
  std::set<unsigned> found;
  for (int bits : extremes) {
    found.insert(static_cast<unsigned>(bits));
  }
  CHECK(found == specials);
}

TEST_CASE("keys written to a file are read back unchanged") {
  TemporaryDirectory directory;
  const std::string path = directory.path("keys.bin");
  const std::vector<int> keys = generate_keys(Distribution::kExtremes, 1000, 9);
  OutputFile(path).commit(keys);
  CHECK(known_key_count(path) == 1000);
  CHECK(read_keys_file(path) == keys);
  // Little-endian int32 on disk: -1 is four 0xff bytes, 1 is 01 00 00 00.
  OutputFile(path).commit({1, -1});
  std::ifstream file(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  CHECK(bytes == std::string("\x01\x00\x00\x00\xff\xff\xff\xff", 8));
}

TEST_CASE("input files that are missing, unreadable, empty or not a multiple of 4 bytes") {
  TemporaryDirectory directory;
  CHECK(contains(refusal(directory.path("missing.bin")), "cannot open input file"));
  CHECK(contains(refusal(directory.path("missing.bin")), "No such file or directory"));
  CHECK(contains(refusal(directory.path("")), "is a directory"));
  write_bytes(directory.path("empty.bin"), "");
  CHECK(contains(refusal(directory.path("empty.bin")), "is empty: there is nothing to sort"));
  write_bytes(directory.path("odd.bin"), "1234567890");
  CHECK(contains(refusal(directory.path("odd.bin")), "has 10 bytes, not a multiple of 4"));
}

TEST_CASE("an input file without read permission" *
          doctest::skip(geteuid() == 0 /* root reads any file: this case cannot arise */)) {
  TemporaryDirectory directory;
  const std::string path = directory.path("locked.bin");
  write_bytes(path, "12345678");
  chmod(path.c_str(), 0);
  CHECK(contains(refusal(path), "Permission denied"));
}

TEST_CASE("an input that has no size until it is read: a fifo, a /proc file") {
  TemporaryDirectory directory;
  const std::string fifo = directory.path("keys.fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(known_key_count(fifo) == 0);
  // A writer on another thread: opening a fifo waits for the other end.
  std::thread writer(
      [&] { write_bytes(fifo, std::string("\x03\x00\x00\x00\x01\x00\x00\x00", 8)); });
  CHECK(read_keys_file(fifo) == std::vector<int>{3, 1});
  writer.join();
  std::thread empty_writer([&] { write_bytes(fifo, ""); });
  CHECK(contains(refusal(fifo), "is empty: there is nothing to sort"));
  empty_writer.join();
  // /proc files claim 0 bytes but have content: their true length decides.
  CHECK(known_key_count("/proc/self/cmdline") == 0);
  const std::string message = [] {
    try {
      read_keys_file("/proc/self/cmdline");
    } catch (const FatalError &error) {
      return std::string(error.what());
    }
    return std::string("read");
  }();
  CHECK_FALSE(contains(message, "is empty"));
}

namespace {

std::string output_refusal(const std::string &path) {
  try {
    OutputFile file(path);
  } catch (const FatalError &error) {
    CHECK(error.exit_code() == kExitBadInput);
    return error.what();
  }
  FAIL("the output was accepted");
  return "";
}

mode_t mode_of(const std::string &path) {
  struct stat status;
  stat(path.c_str(), &status);
  return status.st_mode;
}

bool is_link(const std::string &path) {
  struct stat status;
  return lstat(path.c_str(), &status) == 0 && S_ISLNK(status.st_mode);
}

}  // namespace

TEST_CASE("an output file is written completely or not at all") {
  TemporaryDirectory directory;
  const std::string path = directory.path("out.bin");
  SUBCASE("a missing folder, a directory and a read-only file are refused at once") {
    CHECK(contains(output_refusal(directory.path("no/such/folder/out.bin")),
                   "folder '" + directory.path("no/such/folder") + "' does not exist"));
    CHECK(contains(output_refusal(directory.path("")), "it is a directory"));
  }
  SUBCASE("without commit, nothing is left behind and an old file stays as it was") {
    write_bytes(path, "old!");
    {
      OutputFile file(path);
      CHECK(directory.files().size() == 2);
    }
    CHECK(directory.files() == std::vector<std::string>{"out.bin"});
    CHECK(read_keys_file(path).size() == 1);
  }
  SUBCASE("commit replaces the target in one step, keeps its permissions, leaves no other file") {
    write_bytes(path, "old!");
    chmod(path.c_str(), 0640);
    OutputFile file(path);
    file.commit({1, 2, 3});
    CHECK(directory.files() == std::vector<std::string>{"out.bin"});
    CHECK(read_keys_file(path) == std::vector<int>{1, 2, 3});
    CHECK((mode_of(path) & 07777) == 0640);
  }
  SUBCASE("a new file gets the usual permissions, 0666 less the umask") {
    const mode_t mask = umask(022);
    OutputFile(path).commit({4});
    umask(mask);
    CHECK((mode_of(path) & 07777) == 0644);
  }
  SUBCASE("a symbolic link is followed and stays a link, also when its file does not exist yet") {
    write_bytes(directory.path("real.bin"), "old!");
    REQUIRE(symlink("real.bin", path.c_str()) == 0);
    OutputFile(path).commit({5, 6});
    CHECK(is_link(path));
    CHECK(read_keys_file(directory.path("real.bin")) == std::vector<int>{5, 6});
    REQUIRE(symlink("later.bin", directory.path("dangling.bin").c_str()) == 0);
    OutputFile(directory.path("dangling.bin")).commit({7});
    CHECK(is_link(directory.path("dangling.bin")));
    CHECK(read_keys_file(directory.path("later.bin")) == std::vector<int>{7});
  }
  SUBCASE("a fifo is written through, and stays a fifo") {
    const std::string fifo = directory.path("out.fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::vector<int> received;
    std::thread reader([&] { received = read_keys_file(fifo); });
    OutputFile(fifo).commit({8, 9});
    reader.join();
    CHECK(received == std::vector<int>{8, 9});
    CHECK(S_ISFIFO(mode_of(fifo)));
  }
  SUBCASE("a character device is written through, never replaced") {
    // As root, a device of our own (the one /dev/null is); anyone may write /dev/null itself.
    std::string device = "/dev/null";
    if (geteuid() == 0 &&
        mknod(directory.path("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
      device = directory.path("null");
    }
    OutputFile(device).commit({10, 11});
    CHECK(S_ISCHR(mode_of(device)));
  }
  SUBCASE("a valid name as long as the file system allows is not made too long") {
    const std::string long_path = directory.path(std::string(255, 'k'));
    OutputFile(long_path).commit({12});
    CHECK(read_keys_file(long_path) == std::vector<int>{12});
  }
}

TEST_CASE("outputs that cannot be written without root's rights are refused at once" *
          doctest::skip(geteuid() == 0 /* root may write anywhere */)) {
  TemporaryDirectory directory;
  const std::string path = directory.path("out.bin");
  write_bytes(path, "old!");
  chmod(path.c_str(), 0444);
  CHECK(contains(output_refusal(path), "the file is not writable"));
  chmod(path.c_str(), 0644);
  mkdir(directory.path("locked").c_str(), 0555);
  CHECK(contains(output_refusal(directory.path("locked/out.bin")), "is not writable"));
  rmdir(directory.path("locked").c_str());
}

TEST_CASE("host memory is checked before allocating, and a refusal names the sizes") {
  CHECK(mebibytes(1) == "1 MiB");
  CHECK(mebibytes(std::uint64_t{1} << 20) == "1 MiB");
  CHECK(mebibytes((std::uint64_t{1} << 20) + 1) == "2 MiB");
  CHECK_NOTHROW(require_host_memory(1 << 20, "a few keys"));
  try {
    require_host_memory(std::uint64_t{1} << 62, "2^60 keys on the host");
    FAIL("4 EiB of host memory were granted");
  } catch (const FatalError &error) {
    CHECK(error.exit_code() == kExitOutOfMemory);
    CHECK(contains(error.what(),
                   "not enough host memory: 2^60 keys on the host need about "
                   "4398046511104 MiB, "));
    CHECK(contains(error.what(), " are available (try fewer keys)"));
  }
}
