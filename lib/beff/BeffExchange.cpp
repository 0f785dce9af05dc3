#include "beff/BeffExchange.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>

namespace bws::beff {
namespace {

constexpr std::uint64_t kPageBytes = 4096;
constexpr std::uint64_t kHugePageBytes = std::uint64_t{2} << 20;

struct IterationStamps {
  PayloadStamp to_right, to_left, from_left, from_right;
};

IterationStamps stamps_for(const ExchangePeers& p, std::uint64_t bytes, std::uint32_t iteration) {
  const auto self = static_cast<std::uint32_t>(p.self);
  return {{self, iteration, bytes, Direction::Rightward},
          {self, iteration, bytes, Direction::Leftward},
          {static_cast<std::uint32_t>(p.left), iteration, bytes, Direction::Rightward},
          {static_cast<std::uint32_t>(p.right), iteration, bytes, Direction::Leftward}};
}

void check_received(const RingBuffers& b, std::uint64_t bytes, const IterationStamps& s, PayloadTally& tally,
                    const ExchangeFaults& faults) {
  if (faults.make_received_stale) {
    PayloadStamp stale = s.from_left;
    --stale.iteration;
    stamp_message(b.recv_from_left(), bytes, stale);
  }
  tally.add(check_message(b.recv_from_left(), bytes, s.from_left));
  tally.add(check_message(b.recv_from_right(), bytes, s.from_right));
}

void exchange_sendrecv(const ExchangePeers& p, const RingBuffers& b, std::uint64_t bytes) {
  p.comm->send_receive(b.send_right(), p.right, b.recv_from_left(), p.left, bytes, kTagRightward);
  p.comm->send_receive(b.send_left(), p.left, b.recv_from_right(), p.right, bytes, kTagLeftward);
}

void exchange_nonblocking(const ExchangePeers& p, const RingBuffers& b, std::uint64_t bytes) {
  p.comm->post_receive(b.recv_from_left(), bytes, p.left, kTagRightward);
  p.comm->post_receive(b.recv_from_right(), bytes, p.right, kTagLeftward);
  p.comm->post_send(b.send_right(), bytes, p.right, kTagRightward);
  p.comm->post_send(b.send_left(), bytes, p.left, kTagLeftward);
  p.comm->wait_all();
}

void exchange(ExchangeMethod method, const ExchangePeers& p, const RingBuffers& b, std::uint64_t bytes) {
  if (method == ExchangeMethod::Sendrecv)
    exchange_sendrecv(p, b, bytes);
  else
    exchange_nonblocking(p, b, bytes);
}

void read_device_sends(const RingBuffers& b, std::uint64_t bytes, DeviceBuffers& device) {
  device.read(kDeviceSendRight, b.send_right(), bytes);
  device.read(kDeviceSendLeft, b.send_left(), bytes);
}

void write_device_receipts(const RingBuffers& b, std::uint64_t bytes, DeviceBuffers& device) {
  device.write(kDeviceRecvFromLeft, b.recv_from_left(), bytes);
  device.write(kDeviceRecvFromRight, b.recv_from_right(), bytes);
}

}  // namespace

void RingBuffers::Free::operator()(std::byte* p) const { std::free(p); }

RingBuffers::RingBuffers(std::uint64_t max_message_bytes, bool huge_pages) {
  part_bytes_ = max_message_bytes;
  // Buffer k starts k * 256 bytes past a page boundary, so the four do not
  // hit the same cache sets at the same offsets (4 KiB aliasing).
  stride_bytes_ = (max_message_bytes + kPageBytes - 1) / kPageBytes * kPageBytes + 256;
  const std::uint64_t align = huge_pages ? kHugePageBytes : kPageBytes;
  const std::uint64_t total = (4 * stride_bytes_ + align - 1) / align * align;
  void* p = std::aligned_alloc(align, total);
  if (p == nullptr) throw std::bad_alloc();
  storage_.reset(static_cast<std::byte*>(p));
  // A hint: where transparent huge pages are off, 4 KiB pages it is.
  if (huge_pages) ::madvise(p, total, MADV_HUGEPAGE);
  std::memset(p, 0, total);  // first touch: the pages land on this rank's NUMA node
}

void run_exchanges(ExchangeMethod method, const ExchangePeers& peers, const RingBuffers& buffers,
                   std::uint64_t message_bytes, std::uint64_t iterations, std::uint32_t& iteration,
                   PayloadTally& tally, const ExchangeFaults& faults, DeviceBuffers* device) {
  for (std::uint64_t i = 0; i < iterations; ++i, ++iteration) {
    const IterationStamps s = stamps_for(peers, message_bytes, iteration);
    // The send buffers are free again: the last iteration's sends completed.
    if (device) read_device_sends(buffers, message_bytes, *device);
    stamp_message(buffers.send_right(), message_bytes, s.to_right);
    stamp_message(buffers.send_left(), message_bytes, s.to_left);
    exchange(method, peers, buffers, message_bytes);
    check_received(buffers, message_bytes, s, tally, faults);
    if (device) write_device_receipts(buffers, message_bytes, *device);
  }
}

void prepare_timed_run(const ExchangePeers& peers, const RingBuffers& buffers, std::uint64_t message_bytes,
                       std::uint32_t& iteration, DeviceBuffers* device) {
  const IterationStamps s = stamps_for(peers, message_bytes, iteration++);
  const auto self = static_cast<std::uint32_t>(peers.self);
  // On the PCIe path every timed exchange reads its messages from the
  // device: the stamps go there, over the whole pattern (stamps another
  // size left in the device buffer would otherwise sit in this body).
  if (device) {
    fill_device_pattern(buffers.send_right(), message_bytes, self, Direction::Rightward);
    fill_device_pattern(buffers.send_left(), message_bytes, self, Direction::Leftward);
  }
  stamp_message(buffers.send_right(), message_bytes, s.to_right);
  stamp_message(buffers.send_left(), message_bytes, s.to_left);
  if (device) {
    device->write(kDeviceSendRight, buffers.send_right(), message_bytes);
    device->write(kDeviceSendLeft, buffers.send_left(), message_bytes);
  }
}

void run_timed_exchanges(ExchangeMethod method, const ExchangePeers& peers, const RingBuffers& buffers,
                         std::uint64_t message_bytes, std::uint64_t iterations, DeviceBuffers* device) {
  if (device) {
    for (std::uint64_t i = 0; i < iterations; ++i) {
      read_device_sends(buffers, message_bytes, *device);
      exchange(method, peers, buffers, message_bytes);
      write_device_receipts(buffers, message_bytes, *device);
    }
    return;
  }
  if (method == ExchangeMethod::Sendrecv) {
    for (std::uint64_t i = 0; i < iterations; ++i) exchange_sendrecv(peers, buffers, message_bytes);
  } else {
    for (std::uint64_t i = 0; i < iterations; ++i) exchange_nonblocking(peers, buffers, message_bytes);
  }
}

void check_timed_run(const ExchangePeers& peers, const RingBuffers& buffers, std::uint64_t message_bytes,
                     std::uint32_t iteration, PayloadTally& tally, const ExchangeFaults& faults,
                     DeviceBuffers* device) {
  check_received(buffers, message_bytes, stamps_for(peers, message_bytes, iteration - 1), tally, faults);
  if (device) check_device_receipts(peers, buffers, *device, message_bytes, iteration, tally);
}

void load_device_patterns(const ExchangePeers& peers, const RingBuffers& buffers, DeviceBuffers& device) {
  const auto self = static_cast<std::uint32_t>(peers.self);
  const std::uint64_t bytes = buffers.capacity_bytes();
  fill_device_pattern(buffers.send_right(), bytes, self, Direction::Rightward);
  device.write(kDeviceSendRight, buffers.send_right(), bytes);
  fill_device_pattern(buffers.send_left(), bytes, self, Direction::Leftward);
  device.write(kDeviceSendLeft, buffers.send_left(), bytes);
}

void check_device_receipts(const ExchangePeers& peers, const RingBuffers& buffers, DeviceBuffers& device,
                           std::uint64_t message_bytes, std::uint32_t iteration, PayloadTally& tally) {
  const IterationStamps s = stamps_for(peers, message_bytes, iteration - 1);
  // The send buffers are scratch here: every exchange reads them anew from the device.
  device.read(kDeviceRecvFromLeft, buffers.send_right(), message_bytes);
  tally.add(check_device_message(buffers.send_right(), message_bytes, s.from_left));
  device.read(kDeviceRecvFromRight, buffers.send_left(), message_bytes);
  tally.add(check_device_message(buffers.send_left(), message_bytes, s.from_right));
}

}  // namespace bws::beff
