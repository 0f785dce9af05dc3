#pragma once
// What the gathered records say about the run: did every result validate,
// did every check pass. Rank 0 feeds it every table it appends; the exit
// code follows docs/design-notes.md, "Errors and exit codes" (1 before 3
// before 0).
#include <string>
#include <vector>

#include "core/Table.hpp"

namespace bws::report {

class Outcome {
 public:
  // Counts rows with valid=0 and failed checks (by kind).
  void account(const Table& table);
  void runtime_failure(const std::string& message);

  bool ok() const { return invalid_rows_ == 0 && failed_validations_ == 0 && runtime_errors_.empty(); }
  int exit_code() const;
  int invalid_rows() const { return invalid_rows_; }
  int checks_passed() const { return checks_passed_; }
  int checks_failed() const { return failed_validations_ + failed_models_; }
  int warnings() const { return warnings_; }
  // One line per failed check or warning (the first `limit` of each).
  const std::vector<std::string>& problem_lines() const { return problems_; }
  const std::vector<std::string>& runtime_errors() const { return runtime_errors_; }

 private:
  int invalid_rows_ = 0, checks_passed_ = 0, failed_validations_ = 0, failed_models_ = 0, warnings_ = 0;
  std::vector<std::string> problems_;
  std::vector<std::string> runtime_errors_;
};

}  // namespace bws::report
