#pragma once
// Hardware cohorts: nodes are compared only with nodes of the same class
// (CPU model, cores, memory size; a device metric adds the device name).
// A cluster with 100 fat-memory nodes and 1,000 thin ones gets two medians.
// The class is read from /nodes/table, so bwreport computes the same
// cohorts from a file as bwsurvey did during the run.
#include <cstdint>
#include <map>
#include <string>

#include "core/Table.hpp"

namespace bws::model {

// host -> cohort label ("AMD EPYC 7763 64-Core Processor, 128 cores, 512 GiB").
using NodeCohorts = std::map<std::string, std::string>;

// The memory size that names a class: MemTotal differs between identical
// nodes by what firmware and kernel reserve, so sizes are rounded on a
// quarter-octave grid (2^(k/4) GiB): 251 GiB and 240 GiB are both "256 GiB",
// 512 GiB is another class. Returns GiB.
double memory_class_gib(std::uint64_t memory_bytes);

std::string hardware_class(const std::string& cpu_model, std::int64_t cores, std::uint64_t memory_bytes);

// From /nodes/table rows (host, cores, memory_bytes and, where the file has
// it, cpu_model); a table without rows gives no cohorts.
NodeCohorts node_cohorts(const Table& nodes);

}  // namespace bws::model
