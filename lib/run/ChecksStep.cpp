#include "run/ChecksStep.hpp"

#include "catalog/CrossChecks.hpp"
#include "core/ResultColumns.hpp"
#include "model/NodeFlags.hpp"
#include "model/References.hpp"

namespace bws::run {

std::optional<Table> run_checks_step(ResultSink& sink, const RunPlan& plan,
                                     const std::vector<model::NodeMetricValue>& retest_values) {
  if (!sink.is_open() || sink.write_failed()) return std::nullopt;
  const std::vector<Table> tables = sink.kept().all();
  const std::vector<model::NodeMetric> metrics = catalog::all_node_metrics();
  Table flags;
  Table checks = make_checks_table();
  try {
    flags = sink.kept().flags(plan.settings.flags);
    model::apply_retests(flags, retest_values);
    for (const CheckRow& row : model::check_references(plan.references, metrics, tables)) add_check(checks, row);
    for (const CheckRow& row : catalog::cross_checks(tables)) add_check(checks, row);
  } catch (const std::exception& e) {
    sink.outcome().runtime_failure(std::string("node checks: ") + e.what());
    return std::nullopt;
  }
  if (!sink.step_unfinished()) sink.start_step("checks");
  const model::FlagSettings& rule = plan.settings.flags;
  sink.write([&](h5::ResultFile& file) {
    file.remove("/flags");
    file.append(flags);
    file.set_attribute("/flags", "k", rule.k);
    file.set_attribute("/flags", "fraction", rule.fraction);
    file.set_attribute("/flags", "min_nodes", static_cast<std::int64_t>(model::kMinNodesForStatistics));
    file.set_attribute("/flags", "min_nodes_spread_rule", static_cast<std::int64_t>(model::kMinCohortForSpreadRule));
    file.set_attribute("/flags", "retest_rounds", static_cast<std::int64_t>(plan.settings.retest_rounds));
  });
  if (checks.rows() > 0) sink.store(checks, nullptr);
  bool checked = false;
  sink.write([&](h5::ResultFile& file) {
    file.flush();
    checked = true;
  });
  if (!checked) return std::nullopt;
  return flags;
}

}  // namespace bws::run
