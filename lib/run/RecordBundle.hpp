#pragma once
// What one rank sends rank 0 at the end of a step: its own tables, on a
// node's leader the node-level tables, and metadata that is no table (the
// node's topology XML), packed into one payload for the batched gather (core/BatchedGather).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Table.hpp"
#include "run/RunMetadata.hpp"

namespace bws::run {

// Bytes rank 0 receives at a time when gathering a step's records.
inline constexpr std::uint64_t kGatherBytesInFlight = std::uint64_t{64} << 20;

struct RecordBundle {
  std::vector<Table> rank_tables;
  std::vector<Table> node_tables;
  std::vector<MetadataText> texts;
};

std::vector<std::byte> pack_bundle(const RecordBundle& bundle);
// RuntimeFailure for a payload that is cut short.
RecordBundle unpack_bundle(std::span<const std::byte> bytes);

}  // namespace bws::run
