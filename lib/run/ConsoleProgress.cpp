#include "run/ConsoleProgress.hpp"

#include <cstdio>
#include <ostream>

namespace bws::run {

ConsoleProgress::ConsoleProgress(std::ostream& err, std::string phase, double interval_seconds)
    : err_(err),
      phase_(std::move(phase)),
      interval_(interval_seconds),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void ConsoleProgress::report(std::string_view stage, double fraction) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < interval_) return;
  last_ = now;
  char percent[16];
  std::snprintf(percent, sizeof percent, "%3.0f%%", 100.0 * fraction);
  err_ << "bwsurvey: " << phase_ << ": " << percent << " " << stage << std::endl;
}

void ConsoleProgress::done() {
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", took.count());
  err_ << "bwsurvey: " << phase_ << ": done in " << seconds << std::endl;
}

}  // namespace bws::run
