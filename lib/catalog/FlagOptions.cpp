#include "catalog/FlagOptions.hpp"

#include <boost/program_options/value_semantic.hpp>

#include <boost/program_options/options_description.hpp>

#include "catalog/Registry.hpp"
#include "core/Report.hpp"

namespace bws::catalog {

OptionSchema<FlagOptions> flag_option_schema(const std::vector<NodeMetric>& metrics) {
  const model::FlagRule defaults;
  return OptionSchema<FlagOptions>({
      bind_option(real_option("flags.k", significant(defaults.k, 4), 0, 100, "",
                              "in a cohort of 8 nodes or more, flag a node more than k robust standard deviations "
                              "(1.4826 x MAD) below the median of its cohort peers (and below 95 % of it); k is used "
                              "as given at 10,000 nodes and lowered by 3.2/sqrt(n) in smaller cohorts (the retest "
                              "confirms); above 100 a robust z never reaches it")
                      .above_min(),
                  &FlagOptions::k),
      bind_option(real_option("flags.fraction", significant(defaults.fraction, 4), 0, 1, "",
                              "in a cohort of 3 nodes or more, flag a node below this fraction of the median of its "
                              "cohort peers, however noisy they are")
                      .above_min(),
                  &FlagOptions::fraction),
      bind_option(text_option("flags.floor", "",
                              "absolute limits, METRIC=VALUE[,METRIC=VALUE...] in the metric's unit (B/s; s for "
                              "times, then a ceiling): a node below it is flagged whatever the others measured; "
                              "default: none; metrics: " +
                                  model::known_metrics(metrics)),
                  &FlagOptions::floors,
                  [metrics](const OptionValue& v) { return model::parse_flag_floors(v.text, metrics); }),
  });
}

model::FlagSettings read_flag_settings(const Config& config, const std::vector<NodeMetric>& metrics) {
  return flag_option_schema(metrics).read(config, false).settings();
}

void add_flag_override_options(boost::program_options::options_description& desc) {
  namespace po = boost::program_options;
  const OptionSchema<FlagOptions> schema = flag_option_schema(all_node_metrics());
  for (const OptionSpec& s : schema.list().specs()) {
    const std::string help = s.help_line() + " (default: the survey's --" + s.name +
                             (s.default_text.empty() ? std::string()  : ", " + s.default_text + " when it has none") +
                             ")";
    desc.add_options()(s.name.c_str(), po::value<std::string>(), help.c_str());
  }
}

}  // namespace bws::catalog
