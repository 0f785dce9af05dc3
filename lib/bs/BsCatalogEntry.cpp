#include "bs/BsCatalogEntry.hpp"

#include <string>
#include <vector>

#include "bs/BsBenchmark.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsResults.hpp"
#include "bs/BsTypes.hpp"

namespace bws::bs {
namespace {

// The group texts of bs.wmax: the test labels, and the degrees (0 for BS1-BS5).
std::vector<std::string> test_labels() {
  std::vector<std::string> labels;
  for (const BsTestSpec& spec : kBsTests) labels.emplace_back(spec.label);
  return labels;
}

std::vector<std::string> degree_labels() {
  std::vector<std::string> labels = {"0"};
  for (int d = kMinDegree; d <= kMaxDegree; ++d) labels.push_back(std::to_string(d));
  return labels;
}

}  // namespace

CatalogEntry catalog_entry(BsBackends backends) {
  return {
      .name = "bs",
      .in_default_set = false,  // it is long
      .make_benchmark = [backends] { return make_bs_benchmark(backends); },
      .make_report = make_bs_report,
      .report_tables = {kFitsPath},
      .node_metrics = {{.name = "bs.wmax", .table = kFitsPath, .column = "Wmax_Bps", .unit = "B/s",
                        .where = {{"fitted", "1"}, {"backend", kBackendCpu}}, .group_by = {"test", "degree"},
                        .group_values = {test_labels(), degree_labels()}}},
  };
}

}  // namespace bws::bs
