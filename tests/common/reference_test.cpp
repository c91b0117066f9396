// cpu suite: the host reference network, the std::sort yardstick, padding and the median.
//
// The reference network is the yardstick every stage's index helpers are checked against, so it
// is checked here on its own terms: it sorts every size and distribution like std::sort, and by
// the 0-1 principle (a comparator network that sorts every sequence of 0s and 1s sorts every
// sequence) the exhaustive test over all 0/1 inputs proves it correct for n <= 16.
#include <doctest/doctest.h>

#include <unistd.h>
#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "host_sort.h"
#include "host_threads.h"
#include "keys.h"
#include "padding.h"
#include "reference_cache.h"
#include "reference_network.h"
#include "sort_runner.h"
#include "validate.h"

namespace {

std::vector<int> std_sorted(std::vector<int> keys, bool ascending) {
  if (ascending) {
    std::sort(keys.begin(), keys.end());
  } else {
    std::sort(keys.begin(), keys.end(), std::greater<int>());
  }
  return keys;
}

// Sorts any length the way the driver does: pad to a power of two with the value that sorts
// last, run the network, keep the first n.
std::vector<int> padded_reference_sort(const std::vector<int> &keys, bool ascending) {
  std::vector<int> padded(keys);
  padded.resize(next_power_of_two(keys.size()), padding_value(ascending));
  reference_bitonic_sort(padded, ascending);
  padded.resize(keys.size());
  return padded;
}

}  // namespace

TEST_CASE("the network for n = 2^q has q(q+1)/2 steps, each pairing every element exactly once") {
  for (unsigned q = 0; q <= 12; ++q) {
    const std::uint32_t n = 1u << q;
    const auto steps = network_steps(n);
    CHECK(steps.size() == q * (q + 1) / 2);
    for (const auto &[size, stride] : steps) {
      const auto comparators = network_step_comparators(n, size, stride, true);
      CHECK(comparators.size() == n / 2);
      std::vector<int> uses(n, 0);
      for (const Comparator &c : comparators) {
        CHECK(c.upper == c.lower + stride);
        ++uses[c.lower];
        ++uses[c.upper];
      }
      CHECK(std::all_of(uses.begin(), uses.end(), [](int count) { return count == 1; }));
    }
  }
}

TEST_CASE("the XOR form equals the block form of the network") {
  // An independent description of the same network: a step (size, stride) cuts the array into
  // blocks of 2 * stride, compares each element of a block's lower half with the element stride
  // above it, and sorts ascending in even blocks of `size`, descending in odd ones.
  for (unsigned q = 1; q <= 10; ++q) {
    const std::uint32_t n = 1u << q;
    for (const bool ascending : {true, false}) {
      for (const auto &[size, stride] : network_steps(n)) {
        std::vector<Comparator> blocks;
        for (std::uint32_t start = 0; start < n; start += 2 * stride) {
          for (std::uint32_t k = start; k < start + stride; ++k) {
            const bool even_block = (k / size) % 2 == 0;
            blocks.push_back({k, k + stride, even_block == ascending});
          }
        }
        const auto xor_form = network_step_comparators(n, size, stride, ascending);
        REQUIRE(xor_form.size() == blocks.size());
        for (std::size_t i = 0; i < blocks.size(); ++i) {
          CHECK(xor_form[i].lower == blocks[i].lower);
          CHECK(xor_form[i].upper == blocks[i].upper);
          CHECK(xor_form[i].ascending == blocks[i].ascending);
        }
      }
    }
  }
}

TEST_CASE("the reference network sorts every size 2^0..2^16, every distribution, both orders") {
  for (unsigned q = 0; q <= 16; ++q) {
    const std::size_t n = std::size_t{1} << q;
    for (Distribution distribution : all_distributions()) {
      for (const bool ascending : {true, false}) {
        const std::vector<int> input = generate_keys(distribution, n, 1000 + q);
        std::vector<int> keys(input);
        reference_bitonic_sort(keys, ascending);
        INFO("n = 2^" << q << ", " << distribution_name(distribution) << ", "
                      << (ascending ? "ascending" : "descending"));
        CHECK(keys == std_sorted(input, ascending));
      }
    }
  }
}

TEST_CASE("0-1 principle: the network sorts every 0/1 input of every length up to 16") {
  // Lengths that are not powers of two go through padding, as in the driver.
  for (std::size_t n = 1; n <= 16; ++n) {
    for (const bool ascending : {true, false}) {
      int failures = 0;
      for (std::uint32_t bits = 0; bits < (1u << n); ++bits) {
        std::vector<int> keys(n);
        for (std::size_t i = 0; i < n; ++i) {
          keys[i] = (bits >> i) & 1;
        }
        if (padded_reference_sort(keys, ascending) != std_sorted(keys, ascending)) {
          ++failures;
        }
      }
      INFO("n = " << n << (ascending ? ", ascending" : ", descending"));
      CHECK(failures == 0);
    }
  }
}

TEST_CASE("0-1 principle: the mirrored form sorts every 0/1 input of 2 .. 16 keys, ascending") {
  for (std::uint32_t n = 2; n <= 16; n *= 2) {
    int failures = 0;
    for (std::uint32_t bits = 0; bits < (1u << n); ++bits) {
      std::vector<int> keys(n);
      for (std::uint32_t i = 0; i < n; ++i) {
        keys[i] = (bits >> i) & 1;
      }
      const std::vector<int> expected = std_sorted(keys, true);
      for (const auto &[size, stride] : network_steps(n)) {
        for (const Comparator &c : mirrored_step_comparators(n, size, stride)) {
          if (!c.ascending || c.lower >= c.upper) {
            ++failures;
          } else if (keys[c.lower] > keys[c.upper]) {
            std::swap(keys[c.lower], keys[c.upper]);
          }
        }
      }
      failures += keys != expected;
    }
    INFO("n = " << n);
    CHECK(failures == 0);
  }
}

TEST_CASE("padding sorts lengths that are not powers of two, extremes included") {
  const std::size_t lengths[] = {1, 3, 5, 7, 9, 31, 33, 100, 1000, 1023, 1025, 3001};
  for (std::size_t n : lengths) {
    for (Distribution distribution : all_distributions()) {
      for (const bool ascending : {true, false}) {
        const std::vector<int> input = generate_keys(distribution, n, 77 + n);
        INFO("n = " << n << ", " << distribution_name(distribution)
                    << (ascending ? ", ascending" : ", descending"));
        CHECK(padded_reference_sort(input, ascending) == std_sorted(input, ascending));
      }
    }
  }
}

TEST_CASE("next_power_of_two and padding_value") {
  CHECK(next_power_of_two(1) == 1);
  CHECK(next_power_of_two(2) == 2);
  CHECK(next_power_of_two(3) == 4);
  CHECK(next_power_of_two(1000) == 1024);
  CHECK(next_power_of_two(1024) == 1024);
  CHECK(next_power_of_two((1u << 20) + 1) == (1u << 21));
  CHECK(next_power_of_two(kMaxKeys) == kMaxKeys);
  CHECK(padding_value(true) == INT_MAX);
  CHECK(padding_value(false) == INT_MIN);
}

TEST_CASE("std_sorted_copy equals std::sort, on one thread and on many") {
  // 2^20 and above is cut into pieces sorted on several threads and merged.
  const std::size_t lengths[] = {0, 1, 2, 1000, (1u << 20) - 1, (1u << 20) + 3, 3u << 20};
  for (std::size_t n : lengths) {
    for (Distribution distribution : {Distribution::kUniform, Distribution::kFewUnique,
                                      Distribution::kExtremes, Distribution::kOrganPipe}) {
      for (const bool ascending : {true, false}) {
        const std::vector<int> input = generate_keys(distribution, n, 5);
        INFO("n = " << n << ", " << distribution_name(distribution));
        CHECK(std_sorted_copy(input, ascending) == std_sorted(input, ascending));
      }
    }
  }
}

TEST_CASE("std_sorted_copy's merges in slices: every thread count, ties across slice bounds") {
  // Each round's merges are cut into slices of the output at co-ranks: a slice may start inside
  // a run of equal keys, or take every key from one run. Few-unique and extremes keys put long
  // runs of ties across the bounds, and 16 threads on 3 keys leave most pieces empty.
  for (std::size_t n : {std::size_t{3}, std::size_t{100}, std::size_t{4099}, std::size_t{65536}}) {
    for (unsigned threads : {1u, 2u, 4u, 8u, 16u}) {
      for (Distribution distribution :
           {Distribution::kUniform, Distribution::kFewUnique, Distribution::kExtremes,
            Distribution::kSorted, Distribution::kReversed, Distribution::kEqual}) {
        for (const bool ascending : {true, false}) {
          const std::vector<int> input = generate_keys(distribution, n, 11);
          INFO("n = " << n << ", threads = " << threads << ", " << distribution_name(distribution)
                      << (ascending ? ", asc" : ", desc"));
          CHECK(std_sorted_copy(input, ascending, threads) == std_sorted(input, ascending));
        }
      }
    }
  }
}

// The files in `folder`, by name.
std::vector<std::filesystem::path> files_in(const std::filesystem::path &folder) {
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::directory_iterator(folder)) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void write_keys(const std::filesystem::path &path, const std::vector<int> &keys) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(keys.data()),
             static_cast<std::streamsize>(keys.size() * sizeof(int)));
}

// A folder of this process's own under the temporary directory: two runs of the tests at once
// (two build folders, say) must not write each other's files.
std::filesystem::path scratch_folder(const std::string &name) {
  return std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid()));
}

std::vector<int> read_keys(const std::filesystem::path &path, std::size_t count) {
  std::vector<int> keys(count);
  std::ifstream(path, std::ios::binary)
      .read(reinterpret_cast<char *>(keys.data()),
            static_cast<std::streamsize>(keys.size() * sizeof(int)));
  return keys;
}

TEST_CASE(
    "the reference kept on disk: made once, read back, made again where the file is not "
    "the keys' sort") {
  const std::filesystem::path folder = scratch_folder("course_reference_cache_test");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::vector<int> keys = generate_keys(Distribution::kUniform, std::size_t{1} << 20, 7);
  const std::vector<int> ascending = std_sorted(keys, true);
  // Without a folder, or below 2^20 keys, nothing is kept.
  CHECK(cached_sorted_copy(keys, true, "") == ascending);
  const std::vector<int> few(keys.begin(), keys.begin() + 1000);
  CHECK(cached_sorted_copy(few, true, folder.string()) == std_sorted(few, true));
  CHECK(files_in(folder).empty());
  // Made once, then read back; the other order and other keys are files of their own.
  CHECK(cached_sorted_copy(keys, true, folder.string()) == ascending);
  REQUIRE(files_in(folder).size() == 1);
  const std::filesystem::path kept = files_in(folder)[0];
  CHECK(cached_sorted_copy(keys, true, folder.string()) == ascending);
  CHECK(cached_sorted_copy(keys, false, folder.string()) == std_sorted(keys, false));
  std::vector<int> other = keys;
  other[12345] ^= 1;
  CHECK(cached_sorted_copy(other, true, folder.string()) == std_sorted(other, true));
  CHECK(files_in(folder).size() == 3);
  // A file that is not the keys' sort is made again: other keys in order (their sum differs),
  // the keys out of order, the sort with its first two slices of 2^16 keys swapped (each in
  // order, out of order only where they meet: the check reads the file in 16 slices), a file
  // cut short.
  std::vector<int> shifted = ascending;
  shifted.back() -= 1;
  std::vector<int> swapped = ascending;
  const std::ptrdiff_t slice = std::ptrdiff_t{1} << 16;
  std::rotate(swapped.begin(), swapped.begin() + slice, swapped.begin() + 2 * slice);
  for (const std::vector<int> &wrong :
       {shifted, keys, swapped, std::vector<int>(ascending.begin(), ascending.end() - 1)}) {
    write_keys(kept, wrong);
    CHECK(cached_sorted_copy(keys, true, folder.string()) == ascending);
  }
  // What was read last is the file made again.
  CHECK(read_keys(kept, keys.size()) == ascending);
  std::filesystem::remove_all(folder);
}

TEST_CASE("the keys kept on disk: made once, read back, made again where the file is damaged") {
  const std::filesystem::path folder = scratch_folder("course_keys_cache_test");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::size_t n = std::size_t{1} << 20;
  const std::vector<int> made = generate_keys(Distribution::kUniform, n, 7);
  // Without a folder, or below 2^20 keys, nothing is kept.
  CHECK(cached_keys(Distribution::kUniform, n, 7, false, "") == made);
  CHECK(cached_keys(Distribution::kUniform, 1000, 7, false, folder.string()) ==
        generate_keys(Distribution::kUniform, 1000, 7));
  CHECK(files_in(folder).empty());
  // Made once, then read back; another seed, distribution or type is a file of its own.
  CHECK(cached_keys(Distribution::kUniform, n, 7, false, folder.string()) == made);
  REQUIRE(files_in(folder).size() == 1);
  const std::filesystem::path kept = files_in(folder)[0];
  CHECK(cached_keys(Distribution::kUniform, n, 7, false, folder.string()) == made);
  CHECK(cached_keys(Distribution::kUniform, n, 8, false, folder.string()) ==
        generate_keys(Distribution::kUniform, n, 8));
  CHECK(cached_keys(Distribution::kSorted, n, 7, false, folder.string()) ==
        generate_keys(Distribution::kSorted, n, 7));
  CHECK(cached_keys(Distribution::kUniform, n, 7, true, folder.string()) ==
        generate_float_keys(Distribution::kUniform, n, 7));
  CHECK(files_in(folder).size() == 4);
  // The file is the keys and their hash, 32 digits. One cut short, or whose keys were changed
  // since (the hash kept), is made again, whole.
  REQUIRE(std::filesystem::file_size(kept) == n * sizeof(int) + 32);
  std::string hash(32, ' ');
  std::ifstream(kept, std::ios::binary).seekg(n * sizeof(int)).read(&hash[0], 32);
  // The hash is taken in slices: a change in the first and in the last is seen.
  std::vector<int> changed = made;
  changed[12345] ^= 1;
  std::vector<int> changed_last = made;
  changed_last[n - 3] ^= 1;
  // Two middle slices of 2^16 keys swapped: every slice's hash is there, in another order.
  std::vector<int> swapped = made;
  std::swap_ranges(swapped.begin() + (5 << 16), swapped.begin() + (6 << 16),
                   swapped.begin() + (9 << 16));
  for (const std::vector<int> &wrong :
       {std::vector<int>(made.begin(), made.end() - 1), changed, changed_last, swapped}) {
    write_keys(kept, wrong);
    std::ofstream(kept, std::ios::binary | std::ios::app).write(hash.data(), 32);
    CHECK(cached_keys(Distribution::kUniform, n, 7, false, folder.string()) == made);
    CHECK(std::filesystem::file_size(kept) == n * sizeof(int) + 32);
  }
  std::filesystem::remove_all(folder);
}

TEST_CASE("for_each_slice: every slice once, in its bounds, and an exception reaches the caller") {
  for (unsigned parts : {1u, 3u, 16u}) {
    std::vector<int> covered(10, 0);
    std::vector<unsigned> seen(parts, 0);
    for_each_slice(10, parts, [&](unsigned part, std::size_t first, std::size_t last) {
      seen[part] += 1;
      for (std::size_t i = first; i < last; ++i) {
        covered[i] += 1;
      }
    });
    CHECK(covered == std::vector<int>(10, 1));
    CHECK(seen == std::vector<unsigned>(parts, 1));
  }
  // The slice that throws may be any: the first (on the calling thread) or another; every slice
  // still runs to its end before the exception comes back.
  for (unsigned thrower : {0u, 5u}) {
    std::vector<char> done(8, 0);
    CHECK_THROWS_AS(for_each_slice(8, 8,
                                   [&](unsigned part, std::size_t, std::size_t) {
                                     if (part == thrower) {
                                       throw std::bad_alloc();
                                     }
                                     done[part] = 1;
                                   }),
                    std::bad_alloc);
    CHECK(std::count(done.begin(), done.end(), 1) == 7);
  }
}

TEST_CASE(
    "compare_keys counts every mismatch and lists the first, in order, on one thread and on "
    "many") {
  // Below 2^20 keys one thread compares; from 2^20 on, slices of the keys on several threads,
  // whose first mismatches are joined in order.
  for (std::size_t n : {std::size_t{1000}, (std::size_t{1} << 21) + 5}) {
    const std::vector<int> expected = generate_keys(Distribution::kUniform, n, 3);
    std::vector<int> found = expected;
    const std::vector<std::size_t> wrong = {0, 7, n / 3, n / 2, n / 2 + 1, n - 2, n - 1};
    for (std::size_t i : wrong) {
      found[i] = expected[i] + 1;
    }
    // As many threads as this machine gives (0), one, a count that is not a power of two, and
    // a large GPU machine's 16, whatever the cores here.
    for (const unsigned threads : {0u, 1u, 3u, 16u}) {
      INFO("n = " << n << ", threads " << threads);
      const Validation validation = compare_keys(expected, found, 5, threads);
      CHECK(validation.mismatches == wrong.size());
      REQUIRE(validation.first.size() == 5);
      for (std::size_t k = 0; k < 5; ++k) {
        CHECK(validation.first[k].index == wrong[k]);
        CHECK(validation.first[k].expected == expected[wrong[k]]);
        CHECK(validation.first[k].found == found[wrong[k]]);
      }
      CHECK(compare_keys(expected, expected, 5, threads).passed());
    }
  }
}

TEST_CASE("std_sorted_segments_copy sorts every array on its own, on one thread and on many") {
  // 2^20 keys and more are shared out among several threads, a whole number of arrays each;
  // with fewer arrays than threads (one array of n keys, three or four of 2^20), each array in
  // turn is sorted by all of them.
  for (std::size_t n : {std::size_t{8}, std::size_t{1} << 12, (std::size_t{1} << 20) + 3072,
                        std::size_t{3} << 20, std::size_t{4} << 20}) {
    for (std::size_t segment : {std::size_t{2}, std::size_t{1024}, std::size_t{1} << 20, n}) {
      if (n % segment != 0) {
        continue;
      }
      for (const bool ascending : {true, false}) {
        const std::vector<int> input = generate_keys(Distribution::kUniform, n, n + segment);
        std::vector<int> expected;
        for (std::size_t start = 0; start < n; start += segment) {
          const std::vector<int> array = std_sorted(
              std::vector<int>(input.begin() + start, input.begin() + start + segment), ascending);
          expected.insert(expected.end(), array.begin(), array.end());
        }
        INFO("n = " << n << ", arrays of " << segment << (ascending ? ", ascending" : ""));
        CHECK(std_sorted_segments_copy(input, segment, ascending) == expected);
        // As many threads as a large GPU machine's cores, and a count that is not a power of
        // two, whatever the cores here; none counts as one.
        for (const unsigned threads : {0u, 3u, 16u}) {
          CHECK(std_sorted_segments_copy(input, segment, ascending, threads) == expected);
        }
      }
    }
  }
}

TEST_CASE("median of the timed runs") {
  CHECK(median({3.0}) == 3.0);
  CHECK(median({5.0, 1.0, 3.0}) == 3.0);
  CHECK(median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(median({1.0, 100.0, 2.0}) == 2.0);
}

namespace {

// An argsort made on the host: every array's positions, ordered by their keys.
std::vector<int> host_argsort(const std::vector<int> &input, std::size_t segment, bool ascending) {
  std::vector<int> indices(input.size());
  for (std::size_t start = 0; start < input.size(); start += segment) {
    for (std::size_t i = 0; i < segment; ++i) {
      indices[start + i] = static_cast<int>(i);
    }
    std::stable_sort(indices.begin() + start, indices.begin() + start + segment, [&](int a, int b) {
      return ascending ? input[start + a] < input[start + b] : input[start + a] > input[start + b];
    });
  }
  return indices;
}

}  // namespace

TEST_CASE("check_indices: a permutation of every array that points at the sorted keys") {
  for (std::size_t segment : {std::size_t{4}, std::size_t{64}, std::size_t{4096}}) {
    for (const bool ascending : {true, false}) {
      // Few unique values: many ties, which may break either way.
      const std::vector<int> input = generate_keys(Distribution::kFewUnique, 4096, segment);
      const std::vector<int> output = std_sorted_segments_copy(input, segment, ascending);
      std::vector<int> indices = host_argsort(input, segment, ascending);
      INFO("arrays of " << segment << (ascending ? ", ascending" : ", descending"));
      CHECK(check_indices(input, output, indices, segment) == "");
      CHECK(check_indices(input, output, indices, segment == 4096 ? 0 : segment) == "");
      // Two equal keys trade places: still right.
      std::size_t tie = 0;
      while (output[tie] != output[tie + 1] || (tie + 1) % segment == 0) {
        ++tie;
      }
      std::swap(indices[tie], indices[tie + 1]);
      CHECK(check_indices(input, output, indices, segment) == "");
      std::swap(indices[tie], indices[tie + 1]);
      // Two unequal keys trade places: both positions are wrong.
      std::size_t step = 0;
      while (output[step] == output[step + 1] || (step + 1) % segment == 0) {
        ++step;
      }
      std::vector<int> swapped = indices;
      std::swap(swapped[step], swapped[step + 1]);
      CHECK(
          check_indices(input, output, swapped, segment).rfind("2 of 4096 indices are wrong", 0) ==
          0);
      CHECK(check_indices(input, output, swapped, segment).find("points at key") !=
            std::string::npos);
      // A position named twice, and one outside its array.
      std::vector<int> twice = indices;
      twice[1] = twice[0];
      CHECK(check_indices(input, output, twice, segment).find("is named twice in its array") !=
            std::string::npos);
      std::vector<int> outside = indices;
      outside[0] = static_cast<int>(segment);
      CHECK(check_indices(input, output, outside, segment).find("lies outside its array") !=
            std::string::npos);
      outside[0] = -1;
      CHECK(check_indices(input, output, outside, segment).find("index -1 lies outside") !=
            std::string::npos);
    }
  }
  CHECK(check_indices({1, 2}, {1, 2}, {0}, 0) == "1 indices for 2 keys");
}

TEST_CASE("check_indices on many threads: every wrong index counted, the first three in order") {
  // 2^20 keys in arrays of 64 are shared out among several threads; an index is made to point
  // outside its array near the start, the middle and the end.
  const std::size_t n = std::size_t{1} << 20;
  const std::size_t segment = 64;
  const std::vector<int> input = generate_keys(Distribution::kUniform, n, 5);
  const std::vector<int> output = std_sorted_segments_copy(input, segment, true);
  std::vector<int> indices = host_argsort(input, segment, true);
  REQUIRE(check_indices(input, output, indices, segment) == "");
  for (std::size_t i : {std::size_t{3}, n / 2 + 5, n / 2 + 70, n - 1}) {
    indices[i] = -1;
  }
  // As many threads as this machine gives (0), one, three and 16, whatever the cores here.
  for (const unsigned threads : {0u, 1u, 3u, 16u}) {
    INFO("threads " << threads);
    CHECK(check_indices(input, output, indices, segment, 0, threads) ==
          "4 of 1048576 indices are wrong; first: array 0, index 3 (key 3): index -1 lies outside "
          "its array; array 8192, index 5 (key 524293): index -1 lies outside its array; array "
          "8193, index 6 (key 524358): index -1 lies outside its array");
  }
}

TEST_CASE("a top-k keeps the first K of every array, and its indices may name a position once") {
  const std::vector<int> input = generate_keys(Distribution::kFewUnique, 4096, 3);
  for (std::size_t segment : {std::size_t{64}, std::size_t{0}}) {
    const std::size_t length = segment == 0 ? input.size() : segment;
    const std::vector<int> sorted = segment == 0 ? std_sorted_copy(input, true)
                                                 : std_sorted_segments_copy(input, segment, true);
    const std::vector<int> all_indices = host_argsort(input, length, true);
    for (std::size_t kept : {std::size_t{1}, std::size_t{16}}) {
      const std::vector<int> output = first_of_arrays(sorted, segment, kept);
      const std::vector<int> indices = first_of_arrays(all_indices, segment, kept);
      INFO("arrays of " << length << ", first " << kept);
      REQUIRE(output.size() == input.size() / length * kept);
      for (std::size_t i = 0; i < output.size(); ++i) {
        CHECK(output[i] == sorted[i / kept * length + i % kept]);
      }
      CHECK(check_indices(input, output, indices, segment, kept) == "");
      if (kept > 1) {
        std::vector<int> twice = indices;
        twice[1] = twice[0];
        CHECK(check_indices(input, output, twice, segment, kept).find("is named twice") !=
              std::string::npos);
      }
      std::vector<int> outside = indices;
      outside[0] = static_cast<int>(length);
      CHECK(check_indices(input, output, outside, segment, kept).find("lies outside") !=
            std::string::npos);
      CHECK(check_indices(input, output, indices, segment) != "");
    }
  }
}
