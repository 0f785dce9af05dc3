#pragma once
// A Communicator for N threads over a simulated network with one virtual
// clock per member, so that what the link map measures on links of known
// speed is exact and does not depend on the machine's load. Each host has
// an out rate, an in rate and a delay its link adds each way. A message of
// B bytes from s to r leaves s's NIC after s's earlier messages, takes
// B / min(out_s, in_r) seconds there (a sender cannot outrun the
// receiver), and arrives latency + delay_s + delay_r after it has left.
// A send completes when its message has left, a receive when its message
// has arrived; a member's clock moves only when it waits. Receives match
// the first message from their source with their tag, as MPI's do;
// send_receive completes with its own two messages only, as MPI_Sendrecv.
// Only the point-to-point calls the link map's exchange makes are here.
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/Communicator.hpp"

namespace bws::testing_support {

struct SimulatedHost {
  double out_Bps = 1e6, in_Bps = 1e6;  // what its NIC sends and takes
  double delay_s = 0;                  // added by its link, each way
};

class SimulatedNetwork {
 public:
  struct Message {
    int from = 0, tag = 0;
    std::vector<std::byte> data;
    double arrival_s = 0;
  };
  SimulatedNetwork(std::vector<SimulatedHost> hosts, double latency_s)
      : hosts_(std::move(hosts)), latency_s_(latency_s), arrived_(hosts_.size()), mailboxes_(hosts_.size()) {}
  int size() const { return static_cast<int>(hosts_.size()); }
  const SimulatedHost& host(int rank) const { return hosts_[static_cast<std::size_t>(rank)]; }
  double latency_s() const { return latency_s_; }

  void deliver(int to, Message message) {
    std::lock_guard lock(mutex_);
    mailboxes_[static_cast<std::size_t>(to)].push_back(std::move(message));
    arrived_[static_cast<std::size_t>(to)].notify_one();  // only `to`'s thread takes from its mailbox
  }
  // The first message to `to` from `from` with `tag`; blocks until there is one.
  Message take(int to, int from, int tag) {
    std::unique_lock lock(mutex_);
    auto& box = mailboxes_[static_cast<std::size_t>(to)];
    for (;;) {
      const auto it = std::find_if(box.begin(), box.end(), [&](const Message& m) { return m.from == from && m.tag == tag; });
      if (it != box.end()) {
        Message m = std::move(*it);
        box.erase(it);
        return m;
      }
      arrived_[static_cast<std::size_t>(to)].wait(lock);
    }
  }

 private:
  std::vector<SimulatedHost> hosts_;
  double latency_s_;
  std::mutex mutex_;
  std::vector<std::condition_variable> arrived_;  // one per mailbox
  std::vector<std::deque<Message>> mailboxes_;
};

class SimulatedCommunicator final : public Communicator {
 public:
  SimulatedCommunicator(SimulatedNetwork& network, int rank) : net_(network), rank_(rank) {}
  // This member's virtual clock, in seconds.
  double now() const { return clock_s_; }

  int rank() const override { return rank_; }
  int size() const override { return net_.size(); }
  void post_send(const std::byte* data, std::uint64_t bytes, int to, int tag) override {
    const SimulatedHost &from_host = net_.host(rank_), &to_host = net_.host(to);
    const double start_s = std::max(clock_s_, nic_free_s_);
    const double left_s = start_s + static_cast<double>(bytes) / std::min(from_host.out_Bps, to_host.in_Bps);
    nic_free_s_ = left_s;
    sends_done_s_ = std::max(sends_done_s_, left_s);
    net_.deliver(to, {rank_, tag, std::vector<std::byte>(data, data + bytes),
                      left_s + net_.latency_s() + from_host.delay_s + to_host.delay_s});
  }
  void post_receive(std::byte* data, std::uint64_t bytes, int from, int tag) override {
    receives_.push_back({data, bytes, from, tag});
  }
  void wait_all() override {
    for (const Receive& r : receives_) receive(r);
    receives_.clear();
    clock_s_ = std::max(clock_s_, sends_done_s_);
  }
  void send_receive(const std::byte* send, int to, std::byte* receive_into, int from, std::uint64_t bytes,
                    int tag) override {
    post_send(send, bytes, to, tag);
    receive({receive_into, bytes, from, tag});
    clock_s_ = std::max(clock_s_, sends_done_s_);
  }

  void barrier() override { unsupported("barrier"); }
  void post_barrier() override { unsupported("post_barrier"); }
  void wait_sends() override { unsupported("wait_sends"); }
  bool test_all() override { unsupported("test_all"); }
  void all_reduce(std::span<int>, Reduction) override { unsupported("all_reduce"); }
  void all_reduce(std::span<double>, Reduction) override { unsupported("all_reduce"); }
  void reduce_to_root(std::span<const int>, std::span<int>, Reduction) override { unsupported("reduce_to_root"); }
  void reduce_to_root(std::span<const double>, std::span<double>, Reduction) override {
    unsupported("reduce_to_root");
  }
  void reduce_to_root(std::span<const std::uint64_t>, std::span<std::uint64_t>, Reduction) override {
    unsupported("reduce_to_root");
  }
  void broadcast_from_root(std::span<int>) override { unsupported("broadcast_from_root"); }
  void gather_to_root(std::span<const std::byte>, std::span<std::byte>) override { unsupported("gather_to_root"); }
  std::unique_ptr<Communicator> split_members(bool) override { unsupported("split_members"); }

 private:
  struct Receive {
    std::byte* data;
    std::uint64_t bytes;
    int from, tag;
  };
  void receive(const Receive& r) {
    const SimulatedNetwork::Message m = net_.take(rank_, r.from, r.tag);
    if (m.data.size() != r.bytes) throw std::logic_error("SimulatedCommunicator: message size differs from receive");
    std::memcpy(r.data, m.data.data(), r.bytes);
    clock_s_ = std::max(clock_s_, m.arrival_s);
  }
  [[noreturn]] static void unsupported(const char* what) {
    throw std::logic_error(std::string("SimulatedCommunicator: ") + what + " is not simulated");
  }
  SimulatedNetwork& net_;
  int rank_;
  double clock_s_ = 0, nic_free_s_ = 0, sends_done_s_ = 0;
  std::vector<Receive> receives_;
};

}  // namespace bws::testing_support
