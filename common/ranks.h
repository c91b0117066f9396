// ranks.h: the sort across GPUs as one process per GPU (v25_multi_gpu under mpirun; README,
// "Running a stage", "Under mpirun"). Each process is one rank of P and drives one GPU; rank 0
// makes the id of an NCCL clique and MPI hands it to the others, which join with it. Built where
// Meson finds NCCL and MPI; the program runs this form when an MPI launcher started it
// (launched_by_mpi), and the one-process form (--gpus P) otherwise.
#pragma once

#include <string>

struct GpuTeam;

// The bytes of an NCCL clique's id (NCCL_UNIQUE_ID_BYTES; v25's bitonic_sort.cu checks it).
constexpr unsigned kTeamIdBytes = 128;

// The stage's half (v25_multi_gpu/bitonic_sort.cu). new_team_id writes a new clique's id into
// id[0 .. kTeamIdBytes - 1] (one rank calls it). join_gpu_team makes this process's team: the
// current device as rank `rank` of `ranks` (a power of two) for sorts of per_gpu keys a GPU,
// waiting until every rank has joined with the same id; free_gpu_team (stage.h) frees it.
void new_team_id(char *id);
GpuTeam *join_gpu_team(const char *id, unsigned rank, unsigned ranks, unsigned per_gpu);

// The driver's half (common/ranks.cpp). Whether an MPI launcher started this process (it sets
// OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK).
bool launched_by_mpi();
// The program as one rank: parses the command line, makes this rank's share of the keys, sorts
// with the other ranks, checks the result across them, and rank 0 reports. Returns the exit code
// (errors.h), the same on every rank; a rank that fails on its own (its GPU, its memory) says so
// on stderr and stops every rank (MPI_Abort) with its code.
int run_ranks(int argc, char **argv, const std::string &program_name);
