#pragma once
// A word that threads wait on to change: they spin for a bounded time (cheap
// when every thread has a core), then block in the kernel (std::atomic::wait,
// a futex in libstdc++) so that an oversubscribed node, e.g. 3 ranks x 2
// threads on 2 cores, does not burn the time slices of the threads being
// waited for.
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace bws::topo {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#else
  std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

// Waiting has three phases. Pausing in place for ~2 us catches a peer that
// runs on its own core (a barrier among running threads takes well under
// 1 us). Yielding until ~20 us hands the core to a runnable thread queued
// behind us, which under oversubscription is often the very thread we wait
// for (or the Team's caller about to publish the next job), and costs little
// when nothing else is runnable. Then the waiter blocks, long before a
// scheduler time slice (~3 ms) is gone. The phases are measured in time, not
// iterations, because a pause costs ten times more on some CPUs than others.
inline constexpr std::chrono::nanoseconds kPauseBeforeYielding{2'000};
inline constexpr std::chrono::nanoseconds kSpinBeforeBlocking{20'000};

// An atomic word with its own count of blocked waiters. libstdc++ 12's
// notify_all decides whether to make the futex system call from a waiter
// count shared by every address in one of 16 hash buckets, and all
// 64-byte-aligned words fall into the same bucket: with the caller blocked
// on one word, every barrier would pay a system call for another. Counting
// our own sleepers keeps the wake-up free when nobody sleeps on this word.
template <class T>
class alignas(64) WaitableWord {
 public:
  T load() const { return value_.load(std::memory_order_acquire); }
  // Only while no thread can be waiting on the word.
  void reset(T value) { value_.store(value, std::memory_order_relaxed); }

  // Adds `delta` and returns the previous value; wakes no one.
  T add(T delta) { return value_.fetch_add(delta, std::memory_order_seq_cst); }

  // Wakes the threads blocked in the wait functions; call after a change.
  void wake() {
    if (sleepers_.load(std::memory_order_seq_cst) > 0) value_.notify_all();
  }

  T add_and_wake(T delta) {
    const T previous = add(delta);
    wake();
    return previous;
  }

  // The first value different from `old`: pauses, yields, then blocks.
  T wait_for_change(T old) const {
    constexpr int kChecksPerClockRead = 32;
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = std::chrono::nanoseconds::zero();
    while (elapsed < kSpinBeforeBlocking) {
      const bool pausing = elapsed < kPauseBeforeYielding;
      for (int i = 0; i < kChecksPerClockRead; ++i) {
        const T now = load();
        if (now != old) return now;
        if (pausing) {
          cpu_relax();
        } else {
          sched_yield();
        }
      }
      elapsed = std::chrono::steady_clock::now() - start;
    }
    return block_until_change(old);
  }

  // The first value different from `old`, blocking at once: for a thread
  // that would take a core from the threads it waits for.
  T block_until_change(T old) const {
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    T now;
    // seq_cst pairs with add() then wake(): either the waker sees the
    // sleeper, or the sleeper sees the new value.
    while ((now = value_.load(std::memory_order_seq_cst)) == old) value_.wait(old, std::memory_order_acquire);
    sleepers_.fetch_sub(1, std::memory_order_release);
    return now;
  }

 private:
  std::atomic<T> value_{0};
  // In the same cache line: read by the waker right after it changed value_.
  mutable std::atomic<int> sleepers_{0};
};

}  // namespace bws::topo
