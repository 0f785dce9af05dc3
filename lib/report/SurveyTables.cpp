#include "report/SurveyTables.hpp"
#include "report/CampaignFile.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <boost/program_options/variables_map.hpp>

#include "catalog/FlagOptions.hpp"
#include "catalog/Registry.hpp"
#include "catalog/SurveyFlags.hpp"
#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/IniFile.hpp"
#include "core/PrintableText.hpp"
#include "core/ResultColumns.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {
// The names of --flags.*, as their one declaration (catalog/FlagOptions.hpp) has them.
std::vector<std::string> flag_keys() {
  std::vector<std::string> keys;
  const OptionSchema<catalog::FlagOptions> schema = catalog::flag_option_schema(catalog::all_node_metrics());
  for (const OptionSpec& s : schema.list().specs())
    keys.push_back(s.name);
  return keys;
}
}  // namespace

bool is_merged_file(const h5::ResultReader& file) {
  return file.has_attribute("/", "file_kind") && file.attribute_text("/", "file_kind") == kMergedFileKind;
}

void require_survey_file(const h5::ResultReader& file, const std::string& path, const std::string& command) {
  if (is_merged_file(file))
    throw UsageError("bwreport " + command + ": '" + printable_text(path, 200) +
                     "' is a merged scaling study; give one run's survey file (bwreport scaling reads merged files)");
}

void require_one_survey(const h5::ResultReader& file, const std::string& path, const std::string& command) {
  require_survey_file(file, path, command);
  if (is_campaign_file(file))
    throw UsageError("bwreport " + command + ": '" + printable_text(path, 200) +
                     "' is a campaign file; give the survey files of its batches (kept under /batches)");
}

std::vector<Table> read_metric_tables(const h5::ResultReader& file) {
  std::vector<Table> tables;
  for (const std::string& path : model::metric_tables(catalog::all_node_metrics()))
    if (file.exists("/" + path)) tables.push_back(file.read_table(path));
  return tables;
}

model::NodeCohorts read_node_cohorts(const h5::ResultReader& file) {
  return file.exists("/nodes/table") ? model::node_cohorts(file.read_table("nodes/table")) : model::NodeCohorts{};
}

void add_flag_override_options(po::options_description& desc) { catalog::add_flag_override_options(desc); }

Table survey_flags(const h5::ResultReader& file, const po::variables_map& given, bool& stored) {
  const std::vector<std::string> keys = flag_keys();
  stored = file.exists("/flags") &&
           std::none_of(keys.begin(), keys.end(), [&](const std::string& key) { return given.count(key) > 0; });
  if (stored) return file.read_table("flags");
  std::vector<Table> tables;
  for (const std::string& path : catalog::flag_input_tables())
    if (file.exists("/" + path)) tables.push_back(file.read_table(path));
  return catalog::survey_flags(tables, flag_settings_for(file, given), read_node_cohorts(file));
}

model::FlagSettings flag_settings_for(const h5::ResultReader& file, const po::variables_map& given) {
  const std::vector<std::string> keys = flag_keys();
  std::map<std::string, std::string, std::less<>> values;
  if (file.exists("/config")) {
    for (const IniEntry& e : parse_ini(file.read_text("/config"), "the survey's /config"))
      for (const std::string& key : keys)
        if (e.key == key) values[key] = e.value;
  }
  for (const std::string& key : keys)
    if (given.count(key)) values[key] = given[key].as<std::string>();
  return catalog::read_flag_settings(Config(std::move(values), {}), catalog::all_node_metrics());
}

Table node_verdicts(const h5::ResultReader& file) {
  Table out(kNodeVerdictsPath,
            {text_column("host", kHostWidth), text_column("cohort", 160), int_column("cohort_nodes"),
             text_column("metric", 64), text_column("name", 64), real_column("value"), text_column("unit", 16),
             int_column("higher_is_better"), real_column("median"), real_column("mad"), real_column("robust_z"),
             real_column("percent_of_median"), real_column("limit"), real_column("fraction_limit"), real_column("spread_limit"), text_column("rule", 16),
             real_column("floor")});
  const std::vector<model::NodeMetricValue> values =
      model::node_metric_values(catalog::all_node_metrics(), read_metric_tables(file));
  for (const model::JudgedValue& j :
       model::judge_node_values(values, flag_settings_for(file, po::variables_map{}), read_node_cohorts(file))) {
    const bool judged = j.cohort_nodes >= static_cast<std::size_t>(model::kMinNodesForStatistics);
    std::string rule = j.verdict.flagged() ? model::to_string(j.verdict.hit) : "";
    if (rule.empty() && j.below_floor()) rule = "floor";
    out.add_row({{"host", j.value.host},
                 {"cohort", j.cohort},
                 {"cohort_nodes", static_cast<std::int64_t>(j.cohort_nodes)},
                 {"metric", j.value.metric},
                 {"name", j.value.name},
                 {"value", j.value.value},
                 {"unit", j.value.unit},
                 {"higher_is_better", static_cast<std::int64_t>(j.value.higher_is_better ? 1 : 0)},
                 {"median", j.median},
                 {"mad", j.mad},
                 {"robust_z", j.robust_z},
                 {"percent_of_median", j.percent_of_median},
                 {"limit", judged ? j.verdict.limit : std::nan("")},
                 {"fraction_limit", j.verdict.fraction_limit},
                 {"spread_limit", j.verdict.spread_limit},
                 {"rule", rule},
                 {"floor", j.floor}});
  }
  return out;
}

Table node_cohort_table(const h5::ResultReader& file) {
  Table out(kNodeCohortsPath, {text_column("host", kHostWidth), text_column("hardware_class", 160)});
  for (const auto& [host, label] : read_node_cohorts(file)) out.add_row({{"host", host}, {"hardware_class", label}});
  return out;
}

}  // namespace bws::report
