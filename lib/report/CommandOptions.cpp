#include "report/CommandOptions.hpp"

#include <map>
#include <set>
#include <vector>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/value_semantic.hpp>

namespace po = boost::program_options;

namespace bws::report {
namespace {

// A repeated option's values as one comma list, as a TextList reads it (an
// empty one is refused there, naming the option: "--node ''" is no silent
// "every node").
std::string comma_list(const std::vector<std::string>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + values[i];
  return text;
}

}  // namespace

void add_command_options(po::options_description& desc, const OptionList& options) {
  for (const OptionSpec& s : options.specs()) {
    if (s.type == OptionType::Flag) {
      desc.add_options()(s.name.c_str(), po::bool_switch()->default_value(s.default_text == "on"), s.help.c_str());
      continue;
    }
    if (s.type == OptionType::TextList) {  // --node a --node b: each occurrence adds to the list
      desc.add_options()(s.name.c_str(), po::value<std::vector<std::string>>()->composing(),
                         (s.help_line() + "; given again, adds to the list").c_str());
      continue;
    }
    po::typed_value<std::string>* value = po::value<std::string>();
    if (!s.default_text.empty()) value->default_value(s.default_text);
    desc.add_options()(s.name.c_str(), value, s.help_line().c_str());
    for (const std::string& old : s.aliases)
      desc.add_options()(old.c_str(), po::value<std::string>(), ("old name of --" + s.name + " (the same values)").c_str());
  }
}

Config command_config(const po::variables_map& given) {
  std::map<std::string, std::string, std::less<>> values;
  std::set<std::string, std::less<>> defaulted;
  for (const auto& [key, v] : given) {
    if (v.value().type() == typeid(bool))
      values[key] = v.as<bool>() ? "on" : "off";
    else if (v.value().type() == typeid(std::string))
      values[key] = v.as<std::string>();
    else if (v.value().type() == typeid(std::vector<std::string>))
      values[key] = comma_list(v.as<std::vector<std::string>>());
    else
      continue;
    if (v.defaulted()) defaulted.insert(key);
  }
  return Config(std::move(values), std::move(defaulted));
}

}  // namespace bws::report
