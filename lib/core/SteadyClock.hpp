#pragma once
// The one clock of run times that are compared with each other: seconds on
// std::chrono::steady_clock from its fixed (unspecified) start. Only
// differences of two readings mean anything; it never jumps with the wall
// clock (NTP, a leap second), which would make a deadline or a timing wrong.
#include <chrono>

namespace bws {

inline double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace bws
