// Reads a b_eff survey file back and checks what every run must hold:
// /beff/rings (every rank once per full ring), /beff/results (every sample,
// bandwidth = bytes / t_max), /beff/sizes (b(L) = n * 2L * looplength /
// t_best), /beff/summary (b_eff = mean of b(L), per rank = b_eff / n,
// Hockney alpha/beta and its quality verdict, E(n) and the verdict) and the checks. --corrupt: the
// run with the payload test hook left invalid rows and failed checks.
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include "h5/ResultFile.hpp"

#include "FileChecks.hpp"

using namespace bws::file_checks;

namespace {
constexpr int kSizes = 21;
constexpr int kRandomRings = 3;  // the default
constexpr int kReps = 10;        // the default
constexpr int kMethods = 2;      // the default

// Rings in the file: natural, random ones (none with 1 rank), the reference ring (3 ranks and more).
int full_rings(int ranks) { return 1 + (ranks > 1 ? kRandomRings : 0); }
int all_rings(int ranks) { return full_rings(ranks) + (ranks >= 3 ? 1 : 0); }

int check_corrupt(const bws::h5::ResultReader& file, int ranks, int corrupt_rank) {
  check(file.attribute_text("/", "status") == "complete", "status is complete");
  const auto results = file.read_table("beff/results");
  std::size_t invalid_natural = 0, invalid_other = 0;
  for (std::size_t r = 0; r < results.rows(); ++r) {
    if (results.get_int(r, "valid") != 0) continue;
    (results.get_string(r, "ring_kind") == "natural" ? invalid_natural : invalid_other)++;
  }
  check(invalid_natural == static_cast<std::size_t>(kSizes * kMethods * kReps), "every natural-ring sample valid=0");
  check(invalid_other == 0, "the other rings stay valid");
  const auto summary = file.read_table("beff/summary");
  check(summary.get_string(0, "ring_kind") == "natural" && summary.get_int(0, "valid") == 0, "natural summary valid=0");
  const auto checks = file.read_table("checks");
  std::size_t failed = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r) {
    if (checks.get_string(r, "check") != "beff.payload" || checks.get_int(r, "passed")) continue;
    ++failed;
    const std::string subject = checks.get_string(r, "subject");
    check(checks.get_string(r, "kind") == "validation", "payload checks are validations");
    check(subject.find("natural ring") == 0 && subject.find("rank " + std::to_string(corrupt_rank)) != std::string::npos &&
              subject.find("stale") != std::string::npos,
          "subject names ring, rank and problem: " + subject);
    check(checks.get_double(r, "measured") > 0, "measured counts the bad messages");
  }
  check(failed == static_cast<std::size_t>(kSizes * kMethods), "a failed beff.payload row per size and method");
  (void)ranks;
  if (failures) return 1;
  std::cout << "corrupted b_eff file OK: " << failed << " failed payload checks\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "--corrupt")
    return check_corrupt(bws::h5::ResultReader::open(argv[2]), std::stoi(argv[3]), std::stoi(argv[4]));
  if (argc != 3) {
    std::cerr << "usage: check_beff_file FILE RANKS | check_beff_file --corrupt FILE RANKS RANK\n";
    return 2;
  }
  const int ranks = std::stoi(argv[2]);
  const auto file = bws::h5::ResultReader::open(argv[1]);
  check(file.attribute_text("/", "status") == "complete", "status is complete");
  check(file.attribute_text("/", "completed_phases") == "beff", "completed_phases");

  // Rings: each full ring holds every rank once; the reference ring rank 0 and another.
  const auto rings = file.read_table("beff/rings");
  const int expected_ring_rows = full_rings(ranks) * ranks + (ranks >= 3 ? 2 : 0);
  check(static_cast<int>(rings.rows()) == expected_ring_rows, "/beff/rings rows: " + std::to_string(rings.rows()));
  std::map<long, std::set<long>> members;
  std::map<long, std::string> kind_of;
  for (std::size_t r = 0; r < rings.rows(); ++r) {
    members[rings.get_int(r, "ring")].insert(rings.get_int(r, "rank"));
    kind_of[rings.get_int(r, "ring")] = rings.get_string(r, "ring_kind");
    check(rings.get_int(r, "seed") == 12345, "the default seed is stored");
  }
  check(static_cast<int>(members.size()) == all_rings(ranks), "ring count");
  for (const auto& [ring, set] : members) {
    if (kind_of[ring] == "reference") {
      check(set.size() == 2 && set.count(0), "reference ring: rank 0 and one other");
    } else {
      check(static_cast<int>(set.size()) == ranks && *set.begin() == 0 && *set.rbegin() == ranks - 1,
            "ring " + std::to_string(ring) + " holds every rank once");
    }
  }

  const auto results = file.read_table("beff/results");
  check(static_cast<int>(results.rows()) == all_rings(ranks) * kSizes * kMethods * kReps,
        "/beff/results: a row per ring, size, method and repetition (" + std::to_string(results.rows()) + ")");
  for (std::size_t r = 0; r < results.rows(); ++r) {
    const std::string row = "results row " + std::to_string(r);
    check(results.get_int(r, "valid") == 1, row + " valid");
    check(results.get_int(r, "rank") == -1, row + " rank -1 (all ranks)");
    const double n = results.get_double(r, "ranks"), L = results.get_double(r, "message_bytes");
    check(close(results.get_double(r, "bytes"), n * 2 * L * results.get_double(r, "looplength")), row + " bytes = n*2L*loop");
    check(close(results.get_double(r, "bandwidth"), results.get_double(r, "bytes") / results.get_double(r, "t_max")),
          row + " bandwidth = bytes / t_max");
    check(results.get_double(r, "t_min") <= results.get_double(r, "t_avg") * (1 + 1e-12) &&
              results.get_double(r, "t_avg") <= results.get_double(r, "t_max") * (1 + 1e-12),
          row + " t_min <= t_avg <= t_max");
  }

  const auto sizes = file.read_table("beff/sizes");
  check(static_cast<int>(sizes.rows()) == all_rings(ranks) * kSizes,
        "/beff/sizes: 21 rows per ring (" + std::to_string(sizes.rows()) + ")");
  std::map<long, double> sum_b;
  std::map<long, int> count_b;
  for (std::size_t r = 0; r < sizes.rows(); ++r) {
    const std::string row = "sizes row " + std::to_string(r);
    check(sizes.get_int(r, "valid") == 1, row + " valid");
    const double n = sizes.get_double(r, "ranks"), L = sizes.get_double(r, "message_bytes");
    const double b = sizes.get_double(r, "b_Bps");
    check(b > 0 && std::isfinite(b), row + " b(L) > 0");
    check(close(b, n * 2 * L * sizes.get_double(r, "looplength") / sizes.get_double(r, "t_best_seconds")),
          row + " b(L) = n*2L*looplength/t_best");
    check(close(sizes.get_double(r, "b_per_rank_Bps"), b / n), row + " per rank = b / n");
    const std::string method = sizes.get_string(r, "method");
    check(method == "sendrecv" || method == "nonblocking", row + " best method recorded");
    sum_b[sizes.get_int(r, "ring")] += b;
    ++count_b[sizes.get_int(r, "ring")];
  }

  const auto summary = file.read_table("beff/summary");
  check(static_cast<int>(summary.rows()) == all_rings(ranks), "/beff/summary: a row per ring");
  int natural_rows = 0;
  for (std::size_t r = 0; r < summary.rows(); ++r) {
    const long ring = summary.get_int(r, "ring");
    const std::string row = "summary ring " + std::to_string(ring);
    const double b_eff = summary.get_double(r, "b_eff_Bps");
    check(summary.get_int(r, "sizes") == kSizes && count_b[ring] == kSizes, row + " 21 sizes");
    check(close(b_eff, sum_b[ring] / kSizes), row + " b_eff = mean of b(L) in /beff/sizes");
    check(close(summary.get_double(r, "b_eff_per_rank_Bps"), b_eff / summary.get_double(r, "ranks")),
          row + " per-rank b_eff = b_eff / n");
    check(summary.get_double(r, "latency_8B_seconds") > 0, row + " latency at 8 B");
    check(std::isfinite(summary.get_double(r, "hockney_alpha_seconds")), row + " Hockney alpha");
    check(summary.get_double(r, "hockney_beta_Bps") > 0, row + " Hockney beta");
    check(std::isfinite(summary.get_double(r, "hockney_r2")), row + " Hockney R^2");
    // The quality gate: a verdict on every row, and a fit with R^2 under 0.9 withheld with a reason.
    const std::string verdict = summary.get_string(r, "hockney_verdict");
    check(verdict == "result" || verdict == "warning" || verdict == "withheld", row + " Hockney verdict");
    check(summary.get_double(r, "hockney_r2") >= 0.9 || verdict == "withheld", row + " R^2 < 0.9 withheld");
    check((verdict == "result") == summary.get_string(r, "hockney_quality").empty(), row + " a reason unless result");
    check(summary.get_string(r, "model_verdict").empty(), row + " no channel-model verdict with --beff.model off");
    check(summary.get_double(r, "efficiency") > 0, row + " E(n)");
    check(summary.get_double(r, "reference_per_rank_Bps") > 0, row + " reference per rank");
    check(summary.get_int(r, "seed") == 12345, row + " seed");
    check(summary.get_int(r, "valid") == 1, row + " valid");
    if (summary.get_string(r, "ring_kind") == "natural") {
      ++natural_rows;
      check(summary.get_int(r, "ranks") == ranks, "natural ring has every rank");
      check(summary.get_int(r, "scaling_passed") == 0 || summary.get_int(r, "scaling_passed") == 1,
            "the scaling verdict on the natural ring");
      if (ranks <= 2) check(summary.get_double(r, "efficiency") == 1.0, "E = 1 when the natural ring is the reference");
    } else {
      check(summary.get_int(r, "scaling_passed") == -1, row + " not checked");
    }
  }
  check(natural_rows == 1, "one natural ring");

  const auto checks = file.read_table("checks");
  int payload = 0, scaling = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r) {
    const std::string name = checks.get_string(r, "check");
    if (name == "beff.payload") {
      ++payload;
      check(checks.get_int(r, "passed") == 1, "payload check " + checks.get_string(r, "subject"));
    }
    if (name == "beff.linear_scaling") {
      ++scaling;
      const std::string kind = checks.get_string(r, "kind");
      check(kind == "model" || kind == "warning", "scaling check kind");
      check(kind == "warning" || checks.get_int(r, "passed") == 1, "an enforced scaling check passed (exit 0)");
    }
  }
  check(payload == all_rings(ranks), "a passed beff.payload row per ring");
  check(scaling == 1, "one beff.linear_scaling row");

  if (failures) return 1;
  std::cout << "b_eff file OK: " << ranks << " ranks, " << summary.rows() << " rings, " << results.rows()
            << " samples\n";
  return 0;
}
