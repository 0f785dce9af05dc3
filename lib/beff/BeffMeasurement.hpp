#pragma once
// What the ring exchange measures, as plain data: per ring, size, method and
// repetition the times of the ring's ranks (reduced to fastest, mean and
// slowest), and what the payload checks found. Rank 0 of the ring holds it
// complete; BeffResults turns it into b(L) and b_eff.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "beff/BeffPayload.hpp"
#include "beff/BeffRings.hpp"

namespace bws::beff {

enum class ExchangeMethod { Sendrecv, Nonblocking };
const char* method_name(ExchangeMethod method);  // "sendrecv", "nonblocking"
std::optional<ExchangeMethod> method_from_name(const std::string& name);

// One repetition: looplength exchanges, timed on every rank of the ring
// from after a barrier to the end of its last exchange.
struct SampleTimes {
  double t_min_seconds = 0;  // the fastest rank's
  double t_avg_seconds = 0;  // mean over the ranks
  double t_max_seconds = 0;  // the slowest rank's: the sample's time
};

// The payload checks of all ranks for one ring, size and method (warm-up,
// calibration and timed exchanges), summed over the ranks.
struct PayloadSummary {
  PayloadTally tally;          // wrong messages, by problem
  int failing_ranks = 0;       // ranks that received at least one
  int first_failing_rank = -1; // the lowest such world rank, -1 when none
  bool ok() const { return tally.total() == 0; }
};

struct MethodSamples {
  ExchangeMethod method = ExchangeMethod::Sendrecv;
  std::vector<SampleTimes> reps;
  PayloadSummary payload;
};

struct SizeMeasurement {
  std::uint64_t message_bytes = 0;  // L, sent to each neighbour per exchange
  std::uint64_t looplength = 0;     // exchanges per sample, the same for all methods
  std::vector<MethodSamples> methods;  // complete on the ring's rank 0 only
  // This rank's own fastest sample over methods and repetitions (every
  // rank has its own): the per-rank figure of /beff/ranks.
  double own_best_seconds = 0;
};

struct RingMeasurement {
  Ring ring;  // order in world ranks
  std::vector<SizeMeasurement> sizes;
};

}  // namespace bws::beff
