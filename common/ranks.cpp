// ranks.cpp: v25_multi_gpu's sort across GPUs as one process per GPU (ranks.h), the form that
// reaches past one machine. MPI starts the processes, says which rank each is, and hands them
// the id of the NCCL clique that rank 0 makes; the stage's bitonic_sort_gpus then sorts, each
// rank's GPU its share, with the exchanges of the one-process form. MPI carries only that id, a
// few keys and counts for the check, and the times: the keys travel through NCCL.
//
// What each rank does, in order:
//   1. parse the command line (the same on every rank, so a mistake in it is the same on every
//      rank: rank 0 says it, every rank returns its exit code, and none has started anything);
//   2. take its GPU: the rank's place among the ranks of its machine (rank_world.cpp);
//   3. make the n keys from --dist and --seed, keep its share (rank r holds keys r x per_rank ..
//      (r + 1) x per_rank - 1 of the array padded to a power of two), and copy it to its GPU;
//   4. join the clique, sort with the others, timed between barriers;
//   5. check its share in order, its last key against the next rank's first, and the multiset
//      of all keys by a checksum (a sum of a 64-bit mix of every key, before and after:
//      rank_world.cpp);
//   6. rank 0 reports, as the one-process form does.
// A failure in steps 2 to 6 is a rank's own (its GPU, its memory, NCCL): that rank says so and
// MPI_Abort stops every rank with its exit code, so no rank waits for it forever, and before the
// rank frees anything (RankState). Two variables let the tests make a rank fail
// (COURSE_FAIL_RANK) and break a sorted result (COURSE_BREAK_SORT).
#include "ranks.h"

// MPI's C interface alone: its C++ bindings are deprecated, and their headers warn.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "cli.h"
#include "cuda_buffers.h"
#include "device.h"
#include "driver.h"
#include "errors.h"
#include "input.h"
#include "keys.h"
#include "padding.h"
#include "rank_world.h"
#include "report.h"
#include "sort_runner.h"
#include "stage.h"

namespace {

// The rank form's refusals of the command line, beyond the one-process form's: each rank finds
// them alike.
void check_rank_options(const Options &options, unsigned ranks) {
  const auto refuse = [](const std::string &message) { throw FatalError(kExitBadInput, message); };
  if ((ranks & (ranks - 1)) != 0) {
    refuse("mpirun -np " + std::to_string(ranks) +
           ": the ranks sort one array in equal parts of a power of two keys; start 1, 2, 4, "
           "... ranks");
  }
  if (options.gpus != 0) {
    refuse("--gpus: under mpirun each rank drives one GPU; mpirun -np P says how many");
  }
  if (!options.input_path.empty() || !options.output_path.empty()) {
    refuse(std::string(options.input_path.empty() ? "--output" : "--input") +
           ": the ranks make their keys from --dist and --seed; run without mpirun to sort "
           "or write a file");
  }
  if (options.trace_launches) {
    refuse("--trace-launches: run without mpirun; the plan of one GPU's sort is the same");
  }
  check_arrays(options, {}, ranks, options.n, "n");
}

// A test's way to make one rank fail on its own (tests/stages/ranks_test.py), with exit code 3:
// COURSE_FAIL_RANK=r stops rank r at `when` "join", while the others wait for it to join the
// clique; COURSE_FAIL_RANK=r:sort at "sort", before its second sort, while the others wait for
// it inside their sort's exchange.
void fail_if_asked(const World &world, const std::string &when) {
  const char *asked = std::getenv("COURSE_FAIL_RANK");
  const std::string rank = std::to_string(world.rank);
  if (asked != nullptr && (when == "join" ? rank : rank + ":" + when) == asked) {
    throw FatalError(kExitCudaError,
                     "COURSE_FAIL_RANK=" + std::string(asked) + " asked this rank to fail");
  }
}

// The time between two points of the host's clock, in ms (as sort_runner.cu reckons it).
double milliseconds_between(std::chrono::steady_clock::time_point start,
                            std::chrono::steady_clock::time_point end) {
  return std::chrono::duration<double, std::milli>(end - start).count();
}

// What a rank holds on its GPU and in pinned memory. run_ranks owns it, so that a rank that fails
// stops every rank before any of it is freed: freeing waits for the GPU, and the GPU for a
// partner that may never come.
struct RankState {
  std::unique_ptr<DeviceBuffer> keys;
  std::unique_ptr<PinnedBuffer> input, output;
  GpuTeam *team = nullptr;
};

// Steps 2 to 6; returns the exit code, the same on every rank.
int sort_as_rank(const Options &options, const World &world, const std::string &program_name,
                 RankState &state) {
  const DeviceInfo device = select_device(local_device(world));
  const std::uint64_t n = options.n;
  const std::uint64_t padded = std::max<std::uint64_t>(next_power_of_two(n), world.ranks);
  const std::uint64_t per_rank = padded / world.ranks;
  const std::uint64_t first = world.rank * per_rank;
  const std::uint64_t real = std::min(per_rank, n - std::min(n, first));
  // Every rank makes the same n keys from --seed and keeps its share (keys.h's generators run
  // in sequence, so a share cannot be made alone: a limit the README names).
  std::vector<int> share;
  {
    const std::vector<int> keys = generate_keys(options.distribution, n, options.seed);
    // A rank past the n keys (n below the number of ranks) has none of them.
    const auto begin = keys.begin() + static_cast<std::ptrdiff_t>(std::min(first, n));
    share.assign(begin, begin + static_cast<std::ptrdiff_t>(real));
  }
  require_device_memory(2 * per_rank * sizeof(int),
                        std::to_string(per_rank) + " keys on rank " + std::to_string(world.rank) +
                            ", and as many from its partner");
  state.keys = std::make_unique<DeviceBuffer>(per_rank);
  state.input = std::make_unique<PinnedBuffer>(per_rank);
  state.output = std::make_unique<PinnedBuffer>(per_rank);
  int *const host_input = state.input->data();
  int *const host_output = state.output->data();
  std::copy(share.begin(), share.end(), host_input);
  std::fill(host_input + real, host_input + per_rank, padding_value(options.ascending));
  // The clique: rank 0 makes its id, MPI hands it to every rank, each joins with it.
  char id[kTeamIdBytes] = {};
  if (world.rank == 0) {
    new_team_id(id);
  }
  MPI_Bcast(id, kTeamIdBytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  fail_if_asked(world, "join");
  state.team = join_gpu_team(id, world.rank, world.ranks, static_cast<unsigned>(per_rank));
  // As time_gpus_sort (sort_runner.h): one warm-up, then reps timed runs, by the host's clock,
  // the sort from when every rank holds its share until the last rank is done.
  std::vector<double> sort_ms, total_ms, exchange_ms;
  unsigned long long launches = 0;
  int *const part = state.keys->data();
  for (int run_index = 0; run_index < 1 + options.reps; ++run_index) {
    const auto start = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaMemcpy(part, host_input, per_rank * sizeof(int), cudaMemcpyHostToDevice));
    MPI_Barrier(MPI_COMM_WORLD);
    const auto sort_start = std::chrono::steady_clock::now();
    if (run_index == 1) {
      fail_if_asked(world, "sort");
    }
    reset_launch_count();
    bitonic_sort_gpus(state.team, &part, options.ascending);
    launches = launch_count();
    CUDA_CHECK(cudaDeviceSynchronize());
    MPI_Barrier(MPI_COMM_WORLD);
    const auto sort_end = std::chrono::steady_clock::now();
    // The run's exchange: the shortest rank's (last_exchange_ms: the one that waited for no
    // one), as time_gpus_sort takes the shortest GPU's of each run.
    const double mine = last_exchange_ms(state.team);
    double exchange = mine;
    MPI_Reduce(&mine, &exchange, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    CUDA_CHECK(cudaMemcpy(host_output, part, real * sizeof(int), cudaMemcpyDeviceToHost));
    MPI_Barrier(MPI_COMM_WORLD);
    const auto end = std::chrono::steady_clock::now();
    if (run_index >= 1) {
      sort_ms.push_back(milliseconds_between(sort_start, sort_end));
      total_ms.push_back(milliseconds_between(start, end));
      exchange_ms.push_back(exchange);
    }
  }
  // The report's launches are every rank's, as one process driving every GPU counts them.
  unsigned long long all_launches = 0;
  MPI_Reduce(&launches, &all_launches, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  break_if_asked(world, host_output, real, options.ascending);
  const std::string wrong =
      options.validate ? check_ranks(world, share, host_output, real, options.ascending) : "";
  int status = wrong.empty() ? kExitSuccess : kExitValidationFailed;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (world.rank != 0) {
    return status;
  }
  if (!wrong.empty()) {
    std::cerr << program_name << ": validation failed for " << program_name << ": " << wrong
              << "\n";
  }
  Report report;
  report.program = program_name;
  report.device = world.ranks > 1 ? std::to_string(world.ranks) + " x " + device.name : device.name;
  report.compute_capability = device.compute_capability;
  report.cuda_runtime = device.runtime_version;
  report.cuda_driver = device.driver_version;
  report.n = n;
  report.padded_n = padded;
  report.ascending = options.ascending;
  report.distribution = distribution_name(options.distribution);
  report.seed = options.seed;
  report.launches = static_cast<long long>(all_launches);
  report.passes = report.launches / world.ranks;
  report.reps = options.reps;
  report.sort_ms = median(sort_ms);
  report.total_ms = median(total_ms);
  const double exchange = median(exchange_ms);
  if (exchange >= 0) {
    report.exchange_ms = exchange;
    report.exchange_bytes = per_rank * sizeof(int);
  }
  report.validation = !options.validate ? "skipped" : wrong.empty() ? "pass" : "FAIL";
  print_report(options, report, true);
  return status;
}

// A rank's own failure: its line on stderr, written at once (ranks that fail together do not
// mix their lines), then every rank stops with its exit code.
void stop_every_rank(const std::string &program_name, const World &world,
                     const std::string &message, int exit_code) {
  std::cout.flush();
  const std::string line =
      program_name + ": rank " + std::to_string(world.rank) + ": error: " + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
}

}  // namespace

bool launched_by_mpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
      std::getenv("PMIX_RANK") != nullptr;
}

int run_ranks(int argc, char **argv, const std::string &program_name) {
  MPI_Init(&argc, &argv);
  World world;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  world.rank = static_cast<unsigned>(rank);
  world.ranks = static_cast<unsigned>(ranks);
  // Step 1, alike on every rank: rank 0 alone speaks.
  ProgramSpec program{program_name, {}, false};
  program.traces = true;
  program.gpus = true;
  Options options;
  try {
    options = parse_command_line(std::vector<std::string>(argv + 1, argv + argc), program);
    if (!options.help) {
      check_rank_options(options, world.ranks);
    }
  } catch (const FatalError &error) {
    if (world.rank == 0) {
      std::cerr << program_name << ": error: " << error.what() << "\n";
    }
    MPI_Finalize();
    return error.exit_code();
  }
  if (options.help) {
    if (world.rank == 0) {
      std::cout
          << usage_text(program)
          << "\nUnder mpirun (as now): one process a GPU, mpirun -np P with P a power of two. The\n"
             "ranks make their keys from --dist and --seed and check them among themselves\n"
             "(each share in order, each boundary, a checksum of all keys); --gpus, --input,\n"
             "--output and --trace-launches belong to the one-process form.\n";
    }
    MPI_Finalize();
    return kExitSuccess;
  }
  // Steps 2 to 6: a rank that fails stops them all, before its state is freed.
  int status = kExitSuccess;
  RankState state;
  try {
    status = sort_as_rank(options, world, program_name, state);
  } catch (const FatalError &error) {
    stop_every_rank(program_name, world, error.what(), error.exit_code());
  } catch (const std::bad_alloc &) {
    stop_every_rank(program_name, world, "not enough host memory (try fewer keys)",
                    kExitOutOfMemory);
  }
  free_gpu_team(state.team);
  MPI_Finalize();
  return status;
}
