#pragma once
// How fast this rank's part of the machine is, measured once per rank
// before the plans are made (about 50 ms), so that every plan can say how
// long it will take (core/TimeEstimate.hpp): memcpy bandwidth of one thread
// and of all the rank's threads on arrays beyond the last-level cache, the
// first touch of new pages, a dependent load through a random cycle, the
// clock's step and a barrier of two threads. probe_rank_barrier adds the
// time of one MPI_Barrier (collective). The ranks of a node probe at the
// same time, as they measure.
#include <mpi.h>

#include <cstdint>

#include "core/TimeEstimate.hpp"

namespace bws::run {

// threads: the rank's Team size; llc_bytes: the last-level cache it sees
// (0: unknown); memory_limit_bytes: the most the probe may allocate (0: no limit).
MachineSpeed probe_machine(int threads, std::uint64_t llc_bytes, std::uint64_t memory_limit_bytes);

// Collective over comm: seconds of one MPI_Barrier (the mean of a few, after one untimed).
double probe_rank_barrier(MPI_Comm comm);

// Collective over comm: runs of 8-byte ring exchanges (each rank with both
// neighbours, as b_eff does), ~1 ms each, 60 of them: sets
// rank_exchange_seconds from the fastest run and exchange_stretch to the
// mean run over the fastest (the same on every rank: the slowest's).
void probe_rank_exchange(MPI_Comm comm, MachineSpeed& speed);

}  // namespace bws::run
