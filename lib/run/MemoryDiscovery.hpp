#pragma once
// Reads the node's DIMM population from the firmware's SMBIOS tables, for
// the theoretical memory bandwidth (model/MemoryPopulation). Optional by
// nature: both sources usually need root, and VMs often have no records.
#include "model/MemoryPopulation.hpp"

namespace bws::run {

// Tries, in order: `dmidecode -t 17` (when the executable is in /usr/sbin,
// /sbin or /usr/bin; 5 s at most, stderr discarded), then the raw table in
// /sys/firmware/dmi/tables/DMI. When neither gives a type 17 record the
// result has readable = false, source "" and unknown_reason saying what was
// tried. Never throws.
model::MemoryPopulation read_memory_population();

// The population from a saved `dmidecode -t memory` output (--memory.dmidecode);
// `%h` in the path is replaced by `host`. Throws UsageError naming the
// option when the file cannot be read or holds no memory device record.
model::MemoryPopulation read_memory_population_file(const std::string& path_pattern, const std::string& host);

}  // namespace bws::run
