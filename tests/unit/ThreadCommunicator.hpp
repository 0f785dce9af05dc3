#pragma once
// A Communicator for N threads of one test: each post_send copies the
// message into the receiver's mailbox at once (a buffered send), a receive
// takes the first message from its source with its tag, in order, as MPI
// matches them. Enough for the link map and the row gather without MPI:
// point to point, barriers, send_receive, reductions, gather_to_root and a
// split in which every rank stays a member.
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/Communicator.hpp"

namespace bws::testing_support {

class ThreadFabric {
 public:
  explicit ThreadFabric(int ranks) : mailboxes_(static_cast<std::size_t>(ranks)), ranks_(ranks) {}
  int ranks() const { return ranks_; }
  // A fault for tests: every message of at least `min_bytes` from `rank`
  // arrives with its first byte flipped.
  void corrupt_messages_from(int rank, std::uint64_t min_bytes) {
    corrupt_from_ = rank;
    corrupt_min_bytes_ = min_bytes;
  }

  void deliver(int context, int from, int to, int tag, const std::byte* data, std::uint64_t bytes) {
    std::lock_guard lock(mutex_);
    Message message{context, from, tag, std::vector<std::byte>(data, data + bytes)};
    if (from == corrupt_from_ && bytes >= corrupt_min_bytes_ && bytes > 0) message.data[0] ^= std::byte{0xff};
    mailboxes_[static_cast<std::size_t>(to)].push_back(std::move(message));
    changed_.notify_all();
  }
  // Takes the first matching message into `data`; false when none is there (wait: blocks until one is).
  bool take(int context, int to, int from, int tag, std::byte* data, std::uint64_t bytes, bool wait) {
    std::unique_lock lock(mutex_);
    auto& box = mailboxes_[static_cast<std::size_t>(to)];
    for (;;) {
      auto it = std::find_if(box.begin(), box.end(),
                             [&](const Message& m) { return m.context == context && m.from == from && m.tag == tag; });
      if (it != box.end()) {
        if (it->data.size() != bytes) throw std::logic_error("ThreadCommunicator: message size differs from receive");
        std::memcpy(data, it->data.data(), bytes);
        box.erase(it);
        return true;
      }
      if (!wait) return false;
      changed_.wait(lock);
    }
  }
  void barrier() {
    std::unique_lock lock(mutex_);
    const std::uint64_t generation = generation_;
    if (++arrived_ == ranks_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  struct Message {
    int context, from, tag;
    std::vector<std::byte> data;
  };
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::deque<Message>> mailboxes_;
  int ranks_;
  int arrived_ = 0;
  int corrupt_from_ = -1;
  std::uint64_t corrupt_min_bytes_ = 0;
  std::uint64_t generation_ = 0;
};

class ThreadCommunicator final : public Communicator {
 public:
  ThreadCommunicator(std::shared_ptr<ThreadFabric> fabric, int rank, int context = 0)
      : fabric_(std::move(fabric)), rank_(rank), context_(context) {}
  int rank() const override { return rank_; }
  int size() const override { return fabric_->ranks(); }
  void barrier() override { fabric_->barrier(); }
  void post_send(const std::byte* data, std::uint64_t bytes, int to, int tag) override {
    fabric_->deliver(context_, rank_, to, tag, data, bytes);
  }
  void post_receive(std::byte* data, std::uint64_t bytes, int from, int tag) override {
    receives_.push_back({data, bytes, from, tag});
  }
  void post_barrier() override { fabric_->barrier(); }
  void wait_all() override {
    for (const Receive& r : receives_) fabric_->take(context_, rank_, r.from, r.tag, r.data, r.bytes, true);
    receives_.clear();
  }
  void wait_sends() override {}  // post_send delivered (copied) already
  bool test_all() override {
    while (!receives_.empty()) {
      const Receive& r = receives_.front();
      if (!fabric_->take(context_, rank_, r.from, r.tag, r.data, r.bytes, false)) return false;
      receives_.erase(receives_.begin());
    }
    return true;
  }
  // Apart from the posted receives, as MPI_Sendrecv: it completes with its own two messages only.
  void send_receive(const std::byte* send, int to, std::byte* receive, int from, std::uint64_t bytes,
                    int tag) override {
    post_send(send, bytes, to, tag);
    fabric_->take(context_, rank_, from, tag, receive, bytes, true);
  }
  void all_reduce(std::span<int> values, Reduction op) override { all_reduce_of(values, op); }
  void all_reduce(std::span<double> values, Reduction op) override { all_reduce_of(values, op); }
  void reduce_to_root(std::span<const int> mine, std::span<int> on_root, Reduction op) override {
    reduce_of(mine, on_root, op);
  }
  void reduce_to_root(std::span<const double> mine, std::span<double> on_root, Reduction op) override {
    reduce_of(mine, on_root, op);
  }
  void reduce_to_root(std::span<const std::uint64_t> mine, std::span<std::uint64_t> on_root, Reduction op) override {
    reduce_of(mine, on_root, op);
  }
  void broadcast_from_root(std::span<int> values) override {
    constexpr int kBroadcastTag = -103;
    const std::uint64_t bytes = values.size() * sizeof(int);
    if (rank_ == 0) {
      for (int r = 1; r < size(); ++r) post_send(reinterpret_cast<const std::byte*>(values.data()), bytes, r, kBroadcastTag);
      return;
    }
    post_receive(reinterpret_cast<std::byte*>(values.data()), bytes, 0, kBroadcastTag);
    wait_all();
  }
  void gather_to_root(std::span<const std::byte> mine, std::span<std::byte> on_root) override {
    constexpr int kGatherTag = -100;
    post_send(mine.data(), mine.size(), 0, kGatherTag);
    if (rank_ == 0)
      for (int r = 0; r < size(); ++r) post_receive(on_root.data() + r * mine.size(), mine.size(), r, kGatherTag);
    wait_all();
  }
  // Every rank must stay a member: the split is the same ranks in a new context.
  std::unique_ptr<Communicator> split_members(bool member) override {
    if (!member) throw std::logic_error("ThreadCommunicator: every rank must stay a member");
    barrier();
    return std::make_unique<ThreadCommunicator>(fabric_, rank_, context_ + 1);
  }

 private:
  // Every rank's values to rank 0, combined there in rank order.
  template <class T>
  void reduce_of(std::span<const T> mine, std::span<T> on_root, Reduction op) {
    constexpr int kReduceTag = -101;
    const std::uint64_t bytes = mine.size() * sizeof(T);
    post_send(reinterpret_cast<const std::byte*>(mine.data()), bytes, 0, kReduceTag);
    if (rank_ != 0) return;
    std::vector<T> other(mine.size());
    for (int r = 0; r < size(); ++r) {
      post_receive(reinterpret_cast<std::byte*>(other.data()), bytes, r, kReduceTag);
      wait_all();
      for (std::size_t i = 0; i < other.size(); ++i) {
        if (r == 0) on_root[i] = other[i];
        else if (op == Reduction::Sum) on_root[i] += other[i];
        else if (op == Reduction::Min) on_root[i] = std::min(on_root[i], other[i]);
        else on_root[i] = std::max(on_root[i], other[i]);
      }
    }
  }
  // reduce_of, then rank 0's result to every rank.
  template <class T>
  void all_reduce_of(std::span<T> values, Reduction op) {
    constexpr int kResultTag = -102;
    const std::vector<T> mine(values.begin(), values.end());
    reduce_of(std::span<const T>(mine), values, op);
    const std::uint64_t bytes = values.size() * sizeof(T);
    if (rank_ == 0) {
      for (int r = 1; r < size(); ++r) post_send(reinterpret_cast<const std::byte*>(values.data()), bytes, r, kResultTag);
      return;
    }
    post_receive(reinterpret_cast<std::byte*>(values.data()), bytes, 0, kResultTag);
    wait_all();
  }
  struct Receive {
    std::byte* data;
    std::uint64_t bytes;
    int from, tag;
  };
  std::shared_ptr<ThreadFabric> fabric_;
  int rank_, context_;
  std::vector<Receive> receives_;
};

}  // namespace bws::testing_support
