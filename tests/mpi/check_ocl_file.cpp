// Reads a quick --tests ocl file back (check_ocl_file FILE RANKS): every
// rank's device STREAM in /stream/results with backend "ocl" (PCI write,
// Copy, Scale, Add, Triad, PCI read, each valid, bandwidth = bytes / t_min,
// a sample per repetition), its device in /ocl/devices (a row per rank and
// benchmark), the BS fits with backend "ocl", and the b_eff rows of the
// device path with every payload check passed.
#include <cmath>
#include <iostream>
#include <set>
#include <string>

#include "h5/ResultFile.hpp"

#include "FileChecks.hpp"

using namespace bws::file_checks;

namespace {
constexpr int kQuickReps = 5;  // --stream.reps under --quick, every backend
constexpr int kQuickDegrees = 3;  // BS6/BS7 under --quick: 1, 4, 7
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: check_ocl_file FILE RANKS\n";
    return 2;
  }
  const int ranks = std::stoi(argv[2]);
  const auto file = bws::h5::ResultReader::open(argv[1]);
  check(file.attribute_text("/", "status") == "complete", "status is complete");
  check(file.attribute_text("/", "completed_phases") == "stream,bs,beff",
        "completed_phases: " + file.attribute_text("/", "completed_phases"));

  const auto stream = file.read_table("stream/results");
  check(static_cast<int>(stream.rows()) == 6 * ranks, "/stream/results: 6 rows per rank");
  std::set<std::string> kernels;
  for (std::size_t r = 0; r < stream.rows(); ++r) {
    const std::string k = stream.get_string(r, "kernel");
    kernels.insert(k);
    check(stream.get_int(r, "valid") == 1, "STREAM " + k + " valid");
    check(stream.get_string(r, "backend") == "ocl", "backend ocl");
    check(!stream.get_string(r, "device").empty(), "the device is named");
    check(stream.samples(r).size() == kQuickReps, k + ": a sample per repetition");
    check(close(stream.get_double(r, "bandwidth"), stream.get_double(r, "bytes") / stream.get_double(r, "t_min")),
          k + ": bandwidth = bytes / t_min");
    const long multiplier = (k == "Copy" || k == "Scale") ? 2 : 3;
    check(stream.get_int(r, "bytes") == multiplier * stream.get_int(r, "elements") * 8, k + ": HPCC_FPGA's byte multiplier");
    check(stream.get_double(r, "bandwidth") <= stream.get_double(r, "ceiling"), k + ": below the ceiling");
  }
  check(kernels == std::set<std::string>{"PCI_write", "Copy", "Scale", "Add", "Triad", "PCI_read"}, "the six rows");
  const auto nodes = file.read_table("stream/nodes");
  check(nodes.rows() == 6, "/stream/nodes: the node's six rows");
  for (std::size_t r = 0; r < nodes.rows(); ++r)
    check(nodes.get_string(r, "backend") == "ocl" && !nodes.get_string(r, "device").empty(), "node rows: ocl, named");
  check(static_cast<int>(file.read_table("ocl/devices").rows()) == 2 * ranks,
        "/ocl/devices: a row per rank for stream and for bs");

  const auto fits = file.read_table("bs/fits");
  check(static_cast<int>(fits.rows()) == ranks * (5 + 2 * kQuickDegrees), "/bs/fits: a row per rank, test, degree");
  for (std::size_t r = 0; r < fits.rows(); ++r) {
    const std::string row = "fit rank " + std::to_string(fits.get_int(r, "rank")) + " " + fits.get_string(r, "test");
    check(fits.get_string(r, "backend") == "ocl", row + ": backend ocl");
    check(fits.get_int(r, "valid") == 1, row + " valid");
  }
  const auto results = file.read_table("bs/results");
  for (std::size_t r = 0; r < results.rows(); ++r)
    check(results.get_int(r, "valid") == 1 && results.get_string(r, "backend") == "ocl", "bs result valid, ocl");

  const auto summary = file.read_table("beff/summary");
  check(summary.rows() >= 1, "/beff/summary has rows");
  for (std::size_t r = 0; r < summary.rows(); ++r) {
    check(summary.get_string(r, "path") == "device", "b_eff ring on the device path");
    check(!summary.get_string(r, "device").empty(), "the device is named");
    check(summary.get_int(r, "valid") == 1, "b_eff ring valid");
    check(summary.get_double(r, "b_eff_Bps") > 0, "b_eff > 0");
  }
  const auto beff = file.read_table("beff/results");
  for (std::size_t r = 0; r < beff.rows(); ++r)
    check(beff.get_string(r, "path") == "device" && beff.get_string(r, "backend") == "mpi+ocl", "b_eff sample tags");

  const auto checks = file.read_table("checks");
  int payload = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r) {
    const std::string name = checks.get_string(r, "check");
    if (checks.get_string(r, "kind") == "validation")
      check(checks.get_int(r, "passed") == 1, name + " passed: " + checks.get_string(r, "subject"));
    if (name == "beff.payload") {
      ++payload;
      check(checks.get_string(r, "subject").rfind("device path: ", 0) == 0, "payload check on the device path");
    }
  }
  check(payload >= 1, "b_eff's payload was checked");

  if (failures) return 1;
  std::cout << "OpenCL file OK: " << ranks << " ranks, " << stream.rows() << " STREAM rows, " << fits.rows()
            << " BS fits, " << summary.rows() << " device b_eff rings\n";
  return 0;
}
