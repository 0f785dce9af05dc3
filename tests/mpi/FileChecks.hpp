#pragma once
// What every check_*_file program uses: a failed expectation is one line on
// stderr and counted (the program exits 1 when any failed), so one run
// names every problem of the file rather than the first.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

namespace bws::file_checks {

inline int failures = 0;

inline void check(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAILED: " << what << "\n";
    ++failures;
  }
}

// a and b agree to the relative tolerance rel.
inline bool close(double a, double b, double rel = 1e-9) {
  return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

}  // namespace bws::file_checks
