#pragma once
// One rank's part of the ring exchange: each iteration it sends L bytes to
// both ring neighbours and receives L bytes from both (2L sent, 2L received),
// by one of two methods. Two kinds of run use the same buffers and the same
// sends and receives:
//   verified: every exchange stamps its messages and checks what arrived
//             (the untimed exchanges before and after the timed ones);
//   timed:    the exchanges only, as lean as hpcc's loop; its messages are
//             stamped once before the clock starts and the last ones that
//             arrived are checked after it stops (a run that delivered
//             nothing, or another sender's or direction's data, fails).
//   sendrecv:    send_receive (MPI_Sendrecv) to the right / from the left,
//                then to the left / from the right. Each call pairs a send
//                with a receive, so no rank count deadlocks (HPCC_FPGA's
//                even/odd pairing does for odd n).
//   nonblocking: post_receive x2, post_send x2, wait_all (MPI_Irecv x2,
//                MPI_Isend x2, MPI_Waitall).
// The two directions use distinct tags, so with 2 ranks (both neighbours the
// same rank) and with 1 rank (the rank itself) each message lands in the
// buffer of its direction.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "beff/BeffMeasurement.hpp"
#include "beff/BeffPayload.hpp"
#include "core/Communicator.hpp"
#include "core/DeviceBuffers.hpp"

namespace bws::beff {

inline constexpr int kTagRightward = 1;  // to the right neighbour, from the left one
inline constexpr int kTagLeftward = 2;   // to the left neighbour, from the right one

// The four message buffers of a rank, allocated once at the largest size,
// page-aligned and first-touched by this rank.
class RingBuffers {
 public:
  RingBuffers() = default;
  // Throws std::bad_alloc when the memory is not there. huge_pages: align
  // to 2 MiB and ask the kernel for transparent huge pages.
  explicit RingBuffers(std::uint64_t max_message_bytes, bool huge_pages = false);
  std::byte* send_right() const { return part(0); }
  std::byte* send_left() const { return part(1); }
  std::byte* recv_from_left() const { return part(2); }
  std::byte* recv_from_right() const { return part(3); }
  std::uint64_t capacity_bytes() const { return part_bytes_; }

 private:
  struct Free {
    void operator()(std::byte* p) const;
  };
  std::byte* part(int i) const { return storage_.get() + static_cast<std::size_t>(i) * stride_bytes_; }
  std::unique_ptr<std::byte[], Free> storage_;
  std::uint64_t part_bytes_ = 0;
  std::uint64_t stride_bytes_ = 0;
};

// Who this rank exchanges with, in the ring's communicator.
struct ExchangePeers {
  Communicator* comm = nullptr;
  int self = 0;   // this rank in comm: the stamps' sender
  int left = 0;   // receives its rightward message from here, sends leftward here
  int right = 0;  // sends rightward here, receives its leftward message from here
};

// Test hook: when set, every message this rank receives
// from its left neighbour is rewritten as the previous iteration's before
// it is checked, as if the receive had left last iteration's data: a stale
// message, which the check must catch. Never set in a normal run.
struct ExchangeFaults {
  bool make_received_stale = false;
};

// The device buffers of the PCIe path (--beff.path device), indexed as the
// RingBuffers' parts; the host buffers are then the staging copies.
inline constexpr int kDeviceSendRight = 0, kDeviceSendLeft = 1, kDeviceRecvFromLeft = 2, kDeviceRecvFromRight = 3;
inline constexpr int kDeviceBuffersPerRank = 4;

// Runs `iterations` verified exchanges of L bytes; `iteration` is this
// rank's running exchange counter (the same on all ranks of the ring, since
// they run the same sequence) and is advanced. Problems found in received
// payloads are added to `tally`. With `device` (the PCIe path), each
// iteration first reads both outgoing messages from the device buffers into
// the host send buffers, and after the exchange and the check writes both
// received messages into the device buffers: device -> host -> MPI -> host
// -> device.
void run_exchanges(ExchangeMethod method, const ExchangePeers& peers, const RingBuffers& buffers,
                   std::uint64_t message_bytes, std::uint64_t iterations, std::uint32_t& iteration,
                   PayloadTally& tally, const ExchangeFaults& faults = {}, DeviceBuffers* device = nullptr);

// A timed run, in three steps so that only the middle one is timed:
// prepare_timed_run stamps both outgoing messages once with `iteration`
// (on the PCIe path: the sender's pattern with the stamps, written to the
// device send buffers) and advances it by one; run_timed_exchanges does
// `iterations` exchanges and nothing else (on the PCIe path with the
// device copies, which are the path measured); check_timed_run checks the
// messages the last exchange left (on the PCIe path also the device
// receive buffers) against the prepared stamps; its `iteration` is the
// counter as prepare_timed_run left it.
void prepare_timed_run(const ExchangePeers& peers, const RingBuffers& buffers, std::uint64_t message_bytes,
                       std::uint32_t& iteration, DeviceBuffers* device = nullptr);
void run_timed_exchanges(ExchangeMethod method, const ExchangePeers& peers, const RingBuffers& buffers,
                         std::uint64_t message_bytes, std::uint64_t iterations, DeviceBuffers* device = nullptr);
void check_timed_run(const ExchangePeers& peers, const RingBuffers& buffers, std::uint64_t message_bytes,
                     std::uint32_t iteration, PayloadTally& tally, const ExchangeFaults& faults = {},
                     DeviceBuffers* device = nullptr);

// The PCIe path, before a ring: writes this rank's body pattern
// (fill_device_pattern, sender = peers.self) into both device send buffers,
// through the host send buffers.
void load_device_patterns(const ExchangePeers& peers, const RingBuffers& buffers, DeviceBuffers& device);
// The PCIe path, after a run (untimed): reads both device receive buffers
// back, through the host send buffers, and checks them against the last
// exchange's stamps (iteration - 1) and the senders' patterns.
void check_device_receipts(const ExchangePeers& peers, const RingBuffers& buffers, DeviceBuffers& device,
                           std::uint64_t message_bytes, std::uint32_t iteration, PayloadTally& tally);

}  // namespace bws::beff
