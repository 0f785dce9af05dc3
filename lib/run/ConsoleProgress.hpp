#pragma once
// Progress of a long phase on rank 0's terminal: at most one line every few
// seconds, so a batch log stays readable.
#include <chrono>
#include <iosfwd>
#include <string>

#include "core/RunContext.hpp"

namespace bws::run {

class ConsoleProgress final : public Progress {
 public:
  ConsoleProgress(std::ostream& err, std::string phase, double interval_seconds = 5.0);
  void report(std::string_view stage, double fraction) override;
  // Prints the phase's duration.
  void done();

 private:
  std::ostream& err_;
  std::string phase_;
  std::chrono::duration<double> interval_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace bws::run
