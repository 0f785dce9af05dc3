// The timed runs of the b_eff ring: nothing but exchanges between the
// clock's start and stop, and yet a run that delivered nothing, delivered
// into the wrong buffers, or left a stale message is found by the check
// after it (on a one-rank loopback, so without MPI).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "BeffLoopback.hpp"
#include "beff/BeffExchange.hpp"
#include "beff/BeffRingRun.hpp"
#include "beff/BeffRings.hpp"

namespace bws::beff {
namespace {

using testing_support::Delivery;
using testing_support::LoopbackCommunicator;

constexpr std::uint64_t kCapacityBytes = 65536;
const ExchangeMethod kMethods[] = {ExchangeMethod::Sendrecv, ExchangeMethod::Nonblocking};
// A short (hash-filled) size, the smallest stamped one, one page, several pages.
const std::uint64_t kSizes[] = {8, 32, 4096, 65536};

std::vector<std::byte> copy_of(const std::byte* data, std::uint64_t bytes) { return {data, data + bytes}; }

// Device buffers in host memory; `garble_receipts` flips a body byte of
// every message written to a receive buffer, as a broken device copy would.
class HostDeviceBuffers final : public DeviceBuffers {
 public:
  explicit HostDeviceBuffers(bool garble_receipts = false) : garble_(garble_receipts) {
    for (auto& b : buffers_) b.assign(kCapacityBytes, std::byte{0});
  }
  std::string device_name() const override { return "host memory"; }
  std::uint64_t capacity_bytes() const override { return kCapacityBytes; }
  void read(int index, std::byte* host, std::uint64_t bytes) override {
    std::memcpy(host, buffers_[index].data(), bytes);
  }
  void write(int index, const std::byte* host, std::uint64_t bytes) override {
    std::memcpy(buffers_[index].data(), host, bytes);
    const bool receipt = index == kDeviceRecvFromLeft || index == kDeviceRecvFromRight;
    if (garble_ && receipt && bytes > 2 * kStampBytes) buffers_[index][kStampBytes + 1] ^= std::byte{0x40};
  }

 private:
  std::vector<std::byte> buffers_[kDeviceBuffersPerRank];
  bool garble_;
};

// One verified exchange (as the ring does before its timed runs), then a
// timed run of 5 exchanges with `delivery`; returns what the check found.
PayloadTally timed_run_with(Delivery delivery, ExchangeMethod method, std::uint64_t bytes,
                            const ExchangeFaults& faults = {}) {
  LoopbackCommunicator comm;
  const ExchangePeers peers{&comm, 0, 0, 0};
  const RingBuffers buffers(kCapacityBytes);
  std::uint32_t iteration = 0;
  PayloadTally before;
  run_exchanges(method, peers, buffers, bytes, 1, iteration, before);
  EXPECT_EQ(before.total(), 0u);
  comm.set_delivery(delivery);
  prepare_timed_run(peers, buffers, bytes, iteration);
  run_timed_exchanges(method, peers, buffers, bytes, 5);
  PayloadTally after;
  check_timed_run(peers, buffers, bytes, iteration, after, faults);
  return after;
}

TEST(BeffTimedRun, OnlyExchangesRunWhileTheClockRuns) {
  for (ExchangeMethod method : kMethods)
    for (std::uint64_t bytes : kSizes) {
      LoopbackCommunicator comm;
      const ExchangePeers peers{&comm, 0, 0, 0};
      const RingBuffers buffers(kCapacityBytes);
      std::uint32_t iteration = 7;
      prepare_timed_run(peers, buffers, bytes, iteration);
      EXPECT_EQ(iteration, 8u);  // one stamp for the whole run
      const auto right = copy_of(buffers.send_right(), bytes), left = copy_of(buffers.send_left(), bytes);
      run_timed_exchanges(method, peers, buffers, bytes, 50);
      EXPECT_EQ(comm.messages(), 100u);  // two messages an exchange, no more
      // No stamping in the loop: the outgoing messages are as prepared.
      EXPECT_EQ(copy_of(buffers.send_right(), bytes), right);
      EXPECT_EQ(copy_of(buffers.send_left(), bytes), left);
      PayloadTally tally;
      check_timed_run(peers, buffers, bytes, iteration, tally);
      EXPECT_EQ(tally.total(), 0u) << bytes << " B: " << tally.describe();
    }
}

// For every method and size: the check after a timed run with `delivery`
// (and the test hook's `faults`) names `count` messages with `problem`, and nothing else.
void expect_found_after_timed_run(Delivery delivery, const ExchangeFaults& faults, PayloadProblem problem,
                                  std::uint64_t count) {
  for (ExchangeMethod method : kMethods)
    for (std::uint64_t bytes : kSizes) {
      const PayloadTally tally = timed_run_with(delivery, method, bytes, faults);
      EXPECT_EQ(tally.of(problem), count) << method_name(method) << ", " << bytes << " B: " << tally.describe();
      EXPECT_EQ(tally.total(), count);
    }
}

TEST(BeffTimedRun, ARunThatDeliveredNothingLeavesStaleMessages) {
  expect_found_after_timed_run(Delivery::Dropped, {}, PayloadProblem::Stale, 2);
}

TEST(BeffTimedRun, MessagesInTheOtherDirectionsBufferAreNamed) {
  expect_found_after_timed_run(Delivery::Swapped, {}, PayloadProblem::WrongDirection, 2);
}

TEST(BeffTimedRun, TheStaleMessageHookIsCaughtAfterTheClock) {
  // The hook rewrites the message from the left only.
  expect_found_after_timed_run(Delivery::Right, ExchangeFaults{true}, PayloadProblem::Stale, 1);
}

RingRunSettings device_settings(DeviceBuffers& device) {
  RingRunSettings s;
  // Sizes out of order: stamps one size leaves in the device must not
  // spoil another size's pattern.
  s.sizes_bytes = {65536, 100, 4096, 8, 40000};
  s.methods = {ExchangeMethod::Sendrecv, ExchangeMethod::Nonblocking};
  s.reps = 2;
  s.min_time_seconds = 1e-4;
  s.device = &device;
  return s;
}

TEST(BeffTimedRun, TheDevicePathChecksOutWhenTheCopiesCarryTheData) {
  LoopbackCommunicator comm;
  HostDeviceBuffers device;
  const RingBuffers buffers(kCapacityBytes);
  std::uint32_t iteration = 0;
  for (const SizeMeasurement& size :
       measure_ring(comm, natural_ring(1).order, device_settings(device), buffers, iteration, nullptr))
    for (const MethodSamples& m : size.methods) EXPECT_TRUE(m.payload.ok()) << size.message_bytes << " B: "
                                                                            << m.payload.tally.describe();
}

TEST(BeffTimedRun, ADeviceCopyThatGarblesTheBodyIsCaught) {
  LoopbackCommunicator comm;
  HostDeviceBuffers device(true);
  const RingBuffers buffers(kCapacityBytes);
  std::uint32_t iteration = 0;
  for (const SizeMeasurement& size :
       measure_ring(comm, natural_ring(1).order, device_settings(device), buffers, iteration, nullptr)) {
    if (size.message_bytes < kShortMessageBytes) continue;  // no body: only the host round trip is shown
    for (const MethodSamples& m : size.methods)
      EXPECT_GT(m.payload.tally.of(PayloadProblem::Corrupted), 0u) << size.message_bytes << " B";
  }
}

}  // namespace
}  // namespace bws::beff
