// Reads a quick BS1-BS7 survey file back (check_bs_file --bs FILE RANKS):
// /bs/fits holds a row per rank and test (and degree for BS6/BS7; --quick
// runs degrees 1, 4, 7) with T0, Wmax, R^2, B0.8 finite and Wmax > 0, or,
// where the sweep found no plateau, no fit and no number;
// /bs/results rows are valid with bandwidth = bytes / t_min and a sample per
// timed run; every bs.validation check passed.
#include <cmath>
#include <iterator>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "bs/BsPlan.hpp"
#include "bs/BsPlateau.hpp"
#include "h5/ResultFile.hpp"

#include "FileChecks.hpp"

using namespace bws::file_checks;

namespace {
// What --quick runs, from the plan itself.
constexpr int kQuickDegrees = static_cast<int>(std::size(bws::bs::kQuickDegrees));
constexpr int kQuickReps = bws::bs::kQuickReps;
constexpr int kQuickPoints = bws::bs::kQuickPoints;
}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[1]) != "--bs") {
    std::cerr << "usage: check_bs_file --bs FILE RANKS\n";
    return 2;
  }
  const int ranks = std::stoi(argv[3]);
  const auto file = bws::h5::ResultReader::open(argv[2]);
  check(file.attribute_text("/", "status") == "complete", "status is complete");

  const auto fits = file.read_table("bs/fits");
  check(static_cast<int>(fits.rows()) == ranks * (5 + 2 * kQuickDegrees),
        "/bs/fits: a row per rank and test, and degree for BS6/BS7 (" + std::to_string(fits.rows()) + ")");
  std::set<std::tuple<long, std::string, long>> keys;
  for (std::size_t r = 0; r < fits.rows(); ++r) {
    const std::string test = fits.get_string(r, "test");
    const long degree = fits.get_int(r, "degree");
    const std::string row = "fit rank " + std::to_string(fits.get_int(r, "rank")) + " " + test + " N=" + std::to_string(degree);
    keys.insert({fits.get_int(r, "rank"), test, degree});
    check((test == "BS6" || test == "BS7") == (degree > 0), row + ": degree only for BS6/BS7");
    const double T0 = fits.get_double(r, "T0_seconds"), W = fits.get_double(r, "Wmax_Bps");
    check(fits.get_int(r, "valid") == 1, row + " valid");
    if (fits.get_int(r, "fitted") == 0) {
      // A loaded machine's bandwidth may not settle within the quick sweep:
      // then no plateau, and no number printed.
      check(fits.get_int(r, "plateau_found") == 0, row + " unfitted only for want of a plateau");
      check(std::isnan(T0) && std::isnan(W), row + " no T0 or Wmax without a fit");
      continue;
    }
    check(fits.get_int(r, "plateau_found") == 1, row + " fitted on a plateau");
    check(std::isfinite(T0) && T0 >= 0, row + " T0 finite, >= 0");
    check(std::isfinite(W) && W > 0, row + " Wmax > 0");
    check(std::isfinite(fits.get_double(r, "r2")), row + " R^2 finite");
    check(std::isfinite(fits.get_double(r, "B08_bytes")), row + " B0.8 finite");
    check(close(fits.get_double(r, "B08_bytes"), 4 * T0 * W), row + " B0.8 = 4 T0 Wmax");
    check(close(fits.get_double(r, "B05_bytes"), T0 * W), row + " B0.5 = T0 Wmax");
    check(fits.get_int(r, "points_used") >= bws::bs::kPlateauMinPoints, row + " at least a plateau's points fitted");
  }
  check(static_cast<int>(keys.size()) == static_cast<int>(fits.rows()), "no fit row twice");

  const auto results = file.read_table("bs/results");
  std::map<std::tuple<long, std::string, long>, int> points;
  for (std::size_t r = 0; r < results.rows(); ++r) {
    const std::string row = "results row " + std::to_string(r);
    check(results.get_int(r, "valid") == 1, row + " valid");
    check(results.samples(r).size() == kQuickReps && results.get_int(r, "reps") == kQuickReps, row + " 5 samples");
    check(close(results.get_double(r, "bandwidth"), results.get_double(r, "bytes") / results.get_double(r, "t_min")),
          row + " bandwidth = bytes / t_min");
    ++points[{results.get_int(r, "rank"), results.get_string(r, "test"), results.get_int(r, "degree")}];
  }
  for (const auto& [key, count] : points) {
    check(keys.count(key) == 1, "results series has a fit");
    if (std::get<2>(key) == 0) check(count == kQuickPoints, std::get<1>(key) + ": " + std::to_string(kQuickPoints) + " points");
  }

  const auto checks = file.read_table("checks");
  int validations = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r)
    if (checks.get_string(r, "check") == "bs.validation") {
      ++validations;
      check(checks.get_int(r, "passed") == 1, "validation " + checks.get_string(r, "subject"));
    }
  check(validations == static_cast<int>(results.rows()), "a bs.validation check per results row");

  if (failures) return 1;
  std::cout << "BS file OK: " << ranks << " ranks, " << fits.rows() << " fits, " << results.rows() << " sizes\n";
  return 0;
}
