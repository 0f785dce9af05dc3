#pragma once
// A one-rank loopback Communicator for the b_eff ring without MPI: each
// message lands in the receive posted with its tag (or, to provoke faults,
// nowhere or in the other direction's buffer).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "core/Communicator.hpp"

namespace bws::testing_support {

// How the loopback delivers: as it should, not at all (a receive that
// leaves last run's data), or each message into the other direction's buffer.
enum class Delivery { Right, Dropped, Swapped };

// One rank: its left and right neighbour are itself; reductions over one
// rank leave the values as they are.
class LoopbackCommunicator final : public Communicator {
 public:
  explicit LoopbackCommunicator(Delivery delivery = Delivery::Right) : delivery_(delivery) {}
  void set_delivery(Delivery delivery) { delivery_ = delivery; }
  std::uint64_t messages() const { return messages_; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  void post_send(const std::byte* data, std::uint64_t bytes, int, int tag) override {
    sends_.push_back({const_cast<std::byte*>(data), bytes, tag});
  }
  void post_receive(std::byte* data, std::uint64_t bytes, int, int tag) override {
    receives_.push_back({data, bytes, tag});
  }
  void post_barrier() override {}
  void wait_all() override {
    for (const Posted& r : receives_)
      for (const Posted& s : sends_)
        if ((s.tag == r.tag) == (delivery_ != Delivery::Swapped)) deliver(r.data, s.data, r.bytes);
    sends_.clear();
    receives_.clear();
  }
  void wait_sends() override { wait_all(); }  // a send completes when it is delivered
  bool test_all() override {
    wait_all();
    return true;
  }
  // Swapped: each call gets the other call's message (the buffers stay put,
  // so the previous call's send buffer is the other direction's).
  void send_receive(const std::byte* send, int, std::byte* receive, int, std::uint64_t bytes, int) override {
    const std::byte* other = last_send_ != nullptr ? last_send_ : send;
    last_send_ = send;
    deliver(receive, delivery_ == Delivery::Swapped ? other : send, bytes);
  }
  void all_reduce(std::span<int>, Reduction) override {}
  void all_reduce(std::span<double>, Reduction) override {}
  void reduce_to_root(std::span<const int> mine, std::span<int> on_root, Reduction) override { copy(mine, on_root); }
  void reduce_to_root(std::span<const double> mine, std::span<double> on_root, Reduction) override {
    copy(mine, on_root);
  }
  void reduce_to_root(std::span<const std::uint64_t> mine, std::span<std::uint64_t> on_root, Reduction) override {
    copy(mine, on_root);
  }
  void broadcast_from_root(std::span<int>) override {}
  void gather_to_root(std::span<const std::byte> mine, std::span<std::byte> on_root) override { copy(mine, on_root); }
  std::unique_ptr<Communicator> split_members(bool member) override {
    return member ? std::make_unique<LoopbackCommunicator>(delivery_) : nullptr;
  }

 private:
  void deliver(std::byte* to, const std::byte* from, std::uint64_t bytes) {
    ++messages_;
    if (delivery_ != Delivery::Dropped) std::memcpy(to, from, bytes);
  }
  struct Posted {
    std::byte* data;
    std::uint64_t bytes;
    int tag;
  };
  template <class T>
  static void copy(std::span<const T> from, std::span<T> to) {
    std::copy(from.begin(), from.end(), to.begin());
  }
  std::vector<Posted> sends_, receives_;
  Delivery delivery_;
  const std::byte* last_send_ = nullptr;
  std::uint64_t messages_ = 0;
};

}  // namespace bws::testing_support
