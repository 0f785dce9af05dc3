#include "report/CampaignJudgement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <span>

#include "catalog/Registry.hpp"
#include "core/PrintableText.hpp"
#include "model/FlagRule.hpp"
#include "model/NodeMetrics.hpp"
#include "report/FlagReport.hpp"

namespace bws::report {
namespace {

Table make_batch_effects_table() {
  return Table(kBatchEffectsPath,
               {text_column("metric", 64), text_column("cohort", 160), text_column("batch", 64), int_column("batch_nodes"),
                real_column("batch_median"), int_column("other_nodes"), real_column("others_median"),
                real_column("percent_of_others"), real_column("limit"), text_column("unit", 16), int_column("affected"),
                text_column("reason", 200)});
}

std::string metric_name(const std::string& metric) { return metric.substr(0, metric.find('[')); }

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The value as a rate: the rule compares rates (times as reciprocals).
double as_rate(double value, bool higher_is_better) { return higher_is_better ? value : 1 / value; }

// The retest rounds a batch ran, as values of its flagged nodes' metrics.
std::vector<model::NodeMetricValue> batch_retests(const CampaignBatch& batch) {
  std::vector<model::NodeMetricValue> retests;
  const Table& flags = batch.flags;
  if (!flags.has_column("retest_values")) return retests;
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    const std::string& host = flags.get_string(r, "host");
    if (!contains(batch.hosts, host)) continue;
    const std::string& list = flags.get_string(r, "retest_values");
    std::size_t start = 0;
    while (start < list.size()) {
      const std::size_t end = std::min(list.find(',', start), list.size());
      char* stop = nullptr;
      const std::string item = list.substr(start, end - start);
      const double value = std::strtod(item.c_str(), &stop);
      if (stop != item.c_str() && *stop == '\0' && std::isfinite(value) && value > 0)
        retests.push_back({.metric = flags.get_string(r, "metric"), .name = metric_name(flags.get_string(r, "metric")),
                           .host = host, .value = value, .unit = flags.get_string(r, "unit"),
                           .higher_is_better = flags.get_string(r, "unit") != "s", .cohort_detail = {}});
      start = end + 1;
    }
  }
  return retests;
}

struct GroupValues {
  std::string unit;
  bool higher_is_better = true;
  std::vector<std::vector<double>> rates;  // per batch
};

// A batch whose median node fell short in one metric group and cohort.
struct BatchGroup {
  std::size_t batch;
  std::string metric, cohort;
};

// Batch effects: per metric group and cohort, each batch's median node
// judged against the other batches' nodes by the same rule. Adds a row to
// out.batch_effects per batch judged and a line per batch effect.
std::vector<BatchGroup> find_batch_effects(const std::vector<CampaignBatch>& batches, const model::FlagSettings& settings,
                                           const model::NodeCohorts& cohorts,
                                           const std::vector<model::NodeMetric>& metrics, CampaignJudgement& out) {
  std::map<std::pair<std::string, std::string>, GroupValues> groups;
  for (std::size_t b = 0; b < batches.size(); ++b)
    for (const model::NodeMetricValue& v : model::node_metric_values(metrics, batches[b].tables)) {
      if (!(v.value > 0) || !std::isfinite(v.value)) continue;
      GroupValues& g = groups[{v.metric, model::cohort_of(cohorts, v)}];
      g.unit = v.unit;
      g.higher_is_better = v.higher_is_better;
      g.rates.resize(batches.size());
      g.rates[b].push_back(as_rate(v.value, v.higher_is_better));
    }
  const auto from_rate = [](double rate, bool higher) { return higher ? rate : 1 / rate; };
  std::vector<BatchGroup> affected;
  for (const auto& [key, g] : groups) {
    for (std::size_t b = 0; b < g.rates.size(); ++b) {
      if (g.rates[b].size() < static_cast<std::size_t>(model::kMinCohortForDeficitRule)) continue;
      std::vector<double> others;
      for (std::size_t o = 0; o < g.rates.size(); ++o)
        if (o != b) others.insert(others.end(), g.rates[o].begin(), g.rates[o].end());
      if (others.size() < static_cast<std::size_t>(model::kMinCohortForDeficitRule)) continue;
      std::vector<double> mine = g.rates[b];
      std::sort(mine.begin(), mine.end());
      const double batch_rate = mine[mine.size() / 2];  // the upper median: half of the batch at least as fast
      std::vector<double> judged = others;
      judged.push_back(batch_rate);
      const model::CohortVerdict verdict = model::judge_cohort(judged, true, settings.rule()).back();
      const double others_rate = verdict.peer_median;
      const bool hit = verdict.flagged();
      const double batch_value = from_rate(batch_rate, g.higher_is_better);
      const double others_value = from_rate(others_rate, g.higher_is_better);
      const double percent = 100 * batch_rate / others_rate;  // of the others' rate
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.0f %%", percent);
      const std::string reason =
          hit ? "batch " + batches[b].label + ": " + key.first + " median " + value_with_unit(batch_value, g.unit) + " = " +
                    pct + " of the other batches' " + value_with_unit(others_value, g.unit) + " (" +
                    std::to_string(mine.size()) + " nodes of cohort " + key.second +
                    "): its nodes keep the verdicts of their own survey"
              : std::string();
      out.batch_effects.add_row({{"metric", key.first},
                                 {"cohort", key.second},
                                 {"batch", batches[b].label},
                                 {"batch_nodes", static_cast<std::int64_t>(mine.size())},
                                 {"batch_median", batch_value},
                                 {"other_nodes", static_cast<std::int64_t>(others.size())},
                                 {"others_median", others_value},
                                 {"percent_of_others", percent},
                                 {"limit", from_rate(verdict.limit, g.higher_is_better)},
                                 {"unit", g.unit},
                                 {"affected", static_cast<std::int64_t>(hit ? 1 : 0)},
                                 {"reason", reason}});
      if (hit) {
        affected.push_back({b, key.first, key.second});
        out.lines.push_back(printable_text(reason, 400));
      }
    }
  }

  return affected;
}

}  // namespace

CampaignJudgement judge_campaign(const std::vector<CampaignBatch>& batches, const model::FlagSettings& settings,
                                 const model::NodeCohorts& cohorts) {
  const std::vector<model::NodeMetric> metrics = catalog::all_node_metrics();
  std::set<std::string> metric_names;
  for (const model::NodeMetric& m : metrics) metric_names.insert(m.name);

  // Every node of a cohort against the whole cohort, across batches.
  std::vector<Table> all_tables;
  for (const CampaignBatch& b : batches) all_tables.insert(all_tables.end(), b.tables.begin(), b.tables.end());
  CampaignJudgement out{model::node_flags(metrics, all_tables, settings, cohorts), make_batch_effects_table(), {}};
  for (const CampaignBatch& b : batches) model::apply_retests(out.flags, batch_retests(b));

  const std::vector<BatchGroup> affected = find_batch_effects(batches, settings, cohorts, metrics, out);
  // A batch effect's nodes keep their own survey's verdicts for that group.
  const auto in_affected = [&](std::size_t b, const std::string& host, const std::string& metric,
                               const std::string& cohort) {
    return std::any_of(affected.begin(), affected.end(), [&](const auto& a) {
      return a.batch == b && a.metric == metric && a.cohort == cohort &&
             contains(batches[b].hosts, host);
    });
  };
  Table flags = model::make_flags_table();
  for (std::size_t r = 0; r < out.flags.rows(); ++r) {
    const std::string& host = out.flags.get_string(r, "host");
    bool replaced = false;
    for (std::size_t b = 0; b < batches.size() && !replaced; ++b)
      replaced = in_affected(b, host, out.flags.get_string(r, "metric"), out.flags.get_string(r, "cohort"));
    if (!replaced) flags.add_row_values(out.flags.row(r));
  }
  for (std::size_t b = 0; b < batches.size(); ++b) {
    const Table& own = batches[b].flags;
    if (!own.same_schema(flags)) continue;  // an older survey's /flags: its node metrics are judged again only
    for (std::size_t r = 0; r < own.rows(); ++r) {
      const std::string& metric = own.get_string(r, "metric");
      const std::string& host = own.get_string(r, "host");
      if (metric_names.count(metric_name(metric))) {
        if (in_affected(b, host, metric, own.get_string(r, "cohort"))) {
          flags.add_row_values(own.row(r));
          const std::size_t last = flags.rows() - 1;
          flags.set(last, "reason", own.get_string(r, "reason") + "; within its batch (batch effect)");
        }
        continue;
      }
      // Not a node metric (a link verdict, the DIMM population): as the batch judged it.
      const std::vector<std::string> named = model::flag_row_hosts(metric, host);
      if (std::all_of(named.begin(), named.end(), [&](const std::string& h) { return contains(batches[b].hosts, h); }))
        flags.add_row_values(own.row(r));
    }
  }
  out.flags = std::move(flags);
  return out;
}

}  // namespace bws::report
