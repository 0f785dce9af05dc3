#pragma once
// Cross-checks between two tests of one run: where two benchmarks measure
// the same memory traffic, their node figures must agree, and when they do
// not, the check names the likely cause. Each pair is a row of data
// (CrossChecks.cpp): Chalmers & Warburton's BS1 copy against McCalpin's
// STREAM Copy, BS2's axpy against STREAM Triad (the same three streams).
// Rows go to /checks with kind "warning": a disagreement is a finding
// about the run, not a failed measurement, so it does not change the exit
// code. A node where either figure is missing, or the BS fit was withheld
// (model/FitQuality.hpp), is not checked: there is no figure to compare.
#include <string>
#include <vector>

#include "core/ResultColumns.hpp"
#include "core/Table.hpp"

namespace bws::catalog {

// One pair: the BS test's summed Wmax of a node against the STREAM
// kernel's node bandwidth (the same ranks and threads ran both).
struct CrossCheckPair {
  const char* check;          // "cross.bs1_copy": the /checks name
  const char* bs_test;        // "BS1"
  const char* stream_kernel;  // "Copy"
  // BS / STREAM expected when STREAM used normal stores, and when it used
  // non-temporal ones. The BS loops store normally; a normal store to an
  // array that is not also read first loads the line (write-allocate): one
  // more stream of real traffic than the bytes both tools count.
  double expected_normal;
  double expected_nontemporal;
  double tolerance;  // relative: passes within expected x (1 +- tolerance)
};

const std::vector<CrossCheckPair>& cross_check_pairs();

// The cross-checks of every node that ran both tests of a pair (CPU, double).
std::vector<CheckRow> cross_checks(const std::vector<Table>& tables);

}  // namespace bws::catalog
