#include "core/OptionSchema.hpp"

#include <cstdio>
#include <stdexcept>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/value_semantic.hpp>

#include "core/Errors.hpp"
#include "core/OptionAliases.hpp"
#include "core/OptionText.hpp"

namespace bws {
namespace {

// "1 KiB", "1 PiB": exact binary multiples by their unit; the rest in digits ("4104"), as typed.
std::string bytes_text(std::uint64_t bytes) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = -1;
  std::uint64_t n = bytes;
  while (n >= 1024 && n % 1024 == 0 && unit < 5) {
    n /= 1024;
    ++unit;
  }
  return unit < 0 ? std::to_string(bytes) : std::to_string(n) + " " + units[unit];
}

std::string real_text(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", value);  // 31536000, not 3.1536e+07
  return buf;
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : ", ") + w;
  return text;
}

std::string with_unit(std::string range, const std::string& unit) { return unit.empty() ? range : range + " " + unit; }

OptionSpec spec_of(std::string name, OptionType type, std::string default_text, std::string unit, std::string help) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = type;
  s.default_text = std::move(default_text);
  s.unit = std::move(unit);
  s.help = std::move(help);
  return s;
}

// Equal values, however written ("1K" and "1024", "on" and "true").
bool same_value(const OptionSpec& spec, const OptionValue& a, const OptionValue& b) {
  if (spec.type == OptionType::Text) return a.text == b.text;
  if (spec.type == OptionType::TextList) return a.texts == b.texts;
  return a.is_auto == b.is_auto && a.whole == b.whole && a.real == b.real && a.on == b.on && a.choice == b.choice &&
         a.choices == b.choices && a.wholes == b.wholes;
}

}  // namespace

std::string OptionSpec::allowed() const {
  std::string range;
  switch (type) {
    case OptionType::Whole: range = with_unit(std::to_string(whole_min) + ".." + std::to_string(whole_max), unit); break;
    case OptionType::Bytes:
    case OptionType::BytesList: range = bytes_text(whole_min) + ".." + bytes_text(whole_max); break;
    case OptionType::Real:
      range = with_unit(real_min_open || real_max_open
                            ? (real_min_open ? "> " : ">= ") + real_text(real_min) + (real_max_open ? " and < " : " and <= ") +
                                  real_text(real_max)
                            : real_text(real_min) + ".." + real_text(real_max),
                        unit);
      break;
    case OptionType::OneOf: range = joined(choices); break;
    case OptionType::ListOf:
      range = (all_word.empty() ? "" : all_word + ", or ") + "a comma list of " + joined(choices);
      break;
    case OptionType::Flag: range = "on, off"; break;
    case OptionType::Text: break;
    case OptionType::TextList: range = "a comma list of " + noun + "s"; break;
  }
  if (accepts_auto) range += range.empty() ? "auto" : " or auto";
  if (type == OptionType::BytesList) range = "a comma list of sizes, each " + range;
  if (!range_note.empty()) range += (range.empty() ? "" : " ") + range_note;
  return range;
}

std::string OptionSpec::help_line() const {
  std::string line = help;
  const std::string range = allowed();
  if (!range.empty()) line += "; allowed: " + range;
  if (type == OptionType::Flag) line += " (also true/false, yes/no, 1/0; --" + name + " alone: on)";
  if (!quick_text.empty()) line += " (--quick with the default: " + quick_text + ")";
  for (const std::string& old : aliases) line += "; old name: --" + old;
  return line;
}

OptionSpec whole_option(std::string name, std::string default_text, std::uint64_t min, std::uint64_t max,
                        std::string unit, std::string help) {
  OptionSpec s = spec_of(std::move(name), OptionType::Whole, std::move(default_text), std::move(unit), std::move(help));
  s.whole_min = min;
  s.whole_max = max;
  return s;
}

OptionSpec bytes_option(std::string name, std::string default_text, std::uint64_t min, std::uint64_t max,
                        std::string help) {
  OptionSpec s = whole_option(std::move(name), std::move(default_text), min, max, "bytes", std::move(help));
  s.type = OptionType::Bytes;
  return s;
}

OptionSpec bytes_list_option(std::string name, std::string default_text, std::uint64_t min, std::uint64_t max,
                             std::string help) {
  OptionSpec s = bytes_option(std::move(name), std::move(default_text), min, max, std::move(help));
  s.type = OptionType::BytesList;
  s.noun = "size";
  return s;
}

OptionSpec real_option(std::string name, std::string default_text, double min, double max, std::string unit,
                       std::string help) {
  OptionSpec s = spec_of(std::move(name), OptionType::Real, std::move(default_text), std::move(unit), std::move(help));
  s.real_min = min;
  s.real_max = max;
  return s;
}

OptionSpec one_of_option(std::string name, std::string default_text, std::vector<std::string> choices,
                         std::string help) {
  OptionSpec s = spec_of(std::move(name), OptionType::OneOf, std::move(default_text), "", std::move(help));
  s.choices = std::move(choices);
  return s;
}

OptionSpec list_option(std::string name, std::string default_text, std::vector<std::string> choices,
                       std::string help) {
  OptionSpec s = one_of_option(std::move(name), std::move(default_text), std::move(choices), std::move(help));
  s.type = OptionType::ListOf;
  return s;
}

OptionSpec flag_option(std::string name, bool default_on, std::string help) {
  return spec_of(std::move(name), OptionType::Flag, default_on ? "on" : "off", "", std::move(help));
}

OptionSpec text_option(std::string name, std::string default_text, std::string help) {
  return spec_of(std::move(name), OptionType::Text, std::move(default_text), "", std::move(help));
}

OptionSpec text_list_option(std::string name, std::string noun, std::string help) {
  OptionSpec s = spec_of(std::move(name), OptionType::TextList, "", "", std::move(help));
  s.noun = std::move(noun);
  return s;
}

OptionList::OptionList(std::vector<OptionSpec> specs) : specs_(std::move(specs)) {}

const OptionSpec& OptionList::spec(std::string_view name) const {
  for (const OptionSpec& s : specs_)
    if (s.name == name) return s;
  throw std::out_of_range("no option '" + std::string(name) + "' in this schema");
}

void add_text_option(boost::program_options::options_description& desc, const char* name, const char* default_value,
                     const char* help) {
  desc.add_options()(name, boost::program_options::value<std::string>()->default_value(default_value), help);
}

void OptionList::add_to(boost::program_options::options_description& desc) const {
  namespace po = boost::program_options;
  for (const OptionSpec& s : specs_) {
    po::typed_value<std::string>* value = po::value<std::string>()->default_value(s.default_text);
    if (s.type == OptionType::Flag) value->implicit_value("on");
    desc.add_options()(s.name.c_str(), value, s.help_line().c_str());
    for (const std::string& old : s.aliases)
      add_alias_option(desc, old, s.name, "old name of --" + s.name + " (the same values)", nullptr,
                       s.type == OptionType::Flag);
  }
}

std::vector<OptionValue> OptionList::read(const Config& config, bool quick) const {
  std::vector<OptionValue> values;
  for (const OptionSpec& s : specs_) {
    std::vector<std::string> names = {s.name};
    names.insert(names.end(), s.aliases.begin(), s.aliases.end());
    std::vector<OptionValue> given;
    for (const std::string& name : names) {
      if (!config.has(name) || config.is_default(name)) continue;
      given.push_back(parse_option_value(s, config.get(name), "--" + name));
      given.back().given = true;
      // Empty text is the list left out; given so, it names nothing.
      if (s.type == OptionType::TextList && given.back().texts.empty())
        throw UsageError("--" + name + ": '' is an empty " + s.noun + " list; allowed: " + s.allowed());
    }
    for (std::size_t i = 1; i < given.size(); ++i)
      if (!same_value(s, given[0], given[i]))
        throw UsageError(given[0].flag + " " + quoted_input(given[0].text) + " and " + given[i].flag + " " +
                         quoted_input(given[i].text) + " are one option (--" + s.name +
                         " and its old name) with two values; allowed: one value");
    if (!given.empty()) {
      values.push_back(given[0]);
      continue;
    }
    // An old name present here was not given: a resumed file's stored
    // default, written before the rename, which counts as the option's.
    std::string stored = config.has(s.name) ? config.get(s.name) : s.default_text;
    for (const std::string& old : s.aliases)
      if (config.has(old)) stored = config.get(old);
    const std::string text = quick && !s.quick_text.empty() ? s.quick_text : stored;
    values.push_back(parse_option_value(s, text, "--" + s.name));
  }
  return values;
}

std::string TypedOptions::flag_at(std::ptrdiff_t offset) const {
  const auto it = field_flags.find(offset);
  if (it == field_flags.end()) throw std::logic_error("TypedOptions::flag: no option is bound to this field");
  return it->second;
}

bool TypedOptions::given_at(std::ptrdiff_t offset) const {
  const auto it = field_given.find(offset);
  if (it == field_given.end()) throw std::logic_error("TypedOptions::defaulted: no option is bound to this field");
  return it->second;
}

}  // namespace bws
