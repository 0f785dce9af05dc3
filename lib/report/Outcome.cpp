#include "report/Outcome.hpp"

#include <cstdio>

#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"

namespace bws::report {
namespace {
constexpr std::size_t kMaxProblemLines = 40;  // a 10,000-node survey must not flood the terminal
}

void Outcome::account(const Table& table) {
  if (table.has_column("valid"))
    for (std::size_t r = 0; r < table.rows(); ++r)
      if (table.get_int(r, "valid") == 0) ++invalid_rows_;
  if (table.path() != kChecksPath) return;
  for (std::size_t r = 0; r < table.rows(); ++r) {
    const std::string& kind = table.get_string(r, "kind");
    if (table.get_int(r, "passed")) {
      ++checks_passed_;
      continue;
    }
    if (kind == "warning")
      ++warnings_;
    else if (kind == "model")
      ++failed_models_;
    else
      ++failed_validations_;
    if (problems_.size() < kMaxProblemLines) {
      char numbers[160];
      std::snprintf(numbers, sizeof numbers, "measured %.6g, allowed %.6g..%.6g %s", table.get_double(r, "measured"),
                    table.get_double(r, "lower"), table.get_double(r, "upper"), table.get_string(r, "unit").c_str());
      problems_.push_back((kind == "warning" ? "warning: " : "FAILED: ") + table.get_string(r, "check") + ": " +
                          table.get_string(r, "subject") + ": " + numbers);
    }
  }
}

void Outcome::runtime_failure(const std::string& message) { runtime_errors_.push_back(message); }

int Outcome::exit_code() const {
  if (!ok()) return kExitFailure;
  if (failed_models_ > 0) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace bws::report
