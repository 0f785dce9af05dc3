#pragma once
// What the b_eff tests share: the plan of a hand-made rank layout, and
// measured samples written by hand.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "beff/BeffPlan.hpp"
#include "beff/BeffRingRun.hpp"
#include "core/Config.hpp"

namespace bws::beff {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * 1024;
inline constexpr std::uint64_t kGiB = 1024 * kMiB;

inline RankLayout layout_with(std::uint64_t node_memory_bytes = 64 * kGiB, int ranks_on_node = 1, bool quick = false,
                              int size = 4) {
  RankLayout l;
  l.size = size;
  l.node_of_rank.assign(static_cast<std::size_t>(size), 0);
  l.node_memory_bytes = node_memory_bytes;
  l.ranks_on_node = ranks_on_node;
  l.quick = quick;
  l.host = "testhost";
  return l;
}

inline BeffParams plan_with(std::initializer_list<std::pair<const char*, const char*>> options,
                            const RankLayout& layout = layout_with()) {
  Config config;
  for (const auto& [key, value] : options) config.set(key, value);
  return plan_beff(config, layout);
}

inline MethodSamples samples(ExchangeMethod method, std::vector<double> t_max, bool valid = true) {
  MethodSamples m;
  m.method = method;
  for (double t : t_max) m.reps.push_back({t * 0.9, t * 0.95, t});
  if (!valid) {
    m.payload.tally.add(PayloadProblem::Stale);
    m.payload.failing_ranks = 1;
    m.payload.first_failing_rank = 2;
  }
  return m;
}

inline SizeMeasurement size_of(std::uint64_t L, std::uint64_t looplength, std::vector<MethodSamples> methods) {
  return SizeMeasurement{L, looplength, std::move(methods)};
}

}  // namespace bws::beff
