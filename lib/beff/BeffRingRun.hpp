#pragma once
// Measures one ring on a communicator (collective over it): for every size
// an untimed first exchange per method, the loop length calibrated with each
// method so one sample lasts >= min-time on the slowest rank (all_reduce
// MAX, so every rank runs the same loop; the longest of the methods' loops
// is used by all), then per method one untimed warm-up exchange, `reps`
// timed samples, each after a barrier, and one untimed exchange after them.
// The untimed exchanges stamp and check every message; a timed run stamps
// its messages once before its clock starts and checks the last ones that
// arrived after it stops (see BeffExchange.hpp). On the PCIe path the
// device send buffers get this rank's pattern first, and every timed run is
// followed by the (untimed) check of what reached the device. Times and payload findings
// are reduced to the communicator's rank 0, which gets the whole
// measurement; other ranks get the sizes and loop lengths only.
#include <cstdint>
#include <functional>
#include <vector>

#include "beff/BeffExchange.hpp"
#include "beff/BeffMeasurement.hpp"
#include "core/Communicator.hpp"

namespace bws::beff {

// Loop lengths stop growing here, whatever the timer says (a timer that
// reads 0 for every loop would otherwise grow it forever).
inline constexpr std::uint64_t kMaxLooplength = std::uint64_t{1} << 30;

struct RingRunSettings {
  std::vector<std::uint64_t> sizes_bytes;
  std::vector<ExchangeMethod> methods;
  int reps = 10;
  double min_time_seconds = 0.01;
  int world_rank = 0;      // names this rank in payload findings
  ExchangeFaults faults;   // the test hook, for this rank and ring
  // The PCIe path (--beff.path device): this rank's device buffers; every
  // exchange goes device -> host -> MPI -> host -> device inside the timed
  // loop, and each sample's last messages are read back and checked after
  // its clock stops. nullptr: the host path.
  DeviceBuffers* device = nullptr;
};

// The next loop length to try after `looplength` exchanges took `seconds` on
// the slowest rank: aims 20% above min-time by extrapolation, at least +1,
// at most x100 per step (a first, cold exchange can be slow, and a timer
// can read 0), never above kMaxLooplength. Pure, for tests.
std::uint64_t next_looplength(std::uint64_t looplength, double seconds, double min_time_seconds);

// order: the ring in ranks of `comm`. iteration: this rank's running exchange
// counter (see run_exchanges). progress(i): called on comm's rank 0 after size i.
std::vector<SizeMeasurement> measure_ring(Communicator& comm, const std::vector<int>& order,
                                          const RingRunSettings& settings, const RingBuffers& buffers,
                                          std::uint32_t& iteration,
                                          const std::function<void(std::size_t)>& progress);

}  // namespace bws::beff
