// Reading one option's text as its spec says: the checks and the messages
// of every typed option ("--name: 'x' is out of range; allowed: 1..1000").
#include <algorithm>

#include "core/Errors.hpp"
#include "core/OptionSchema.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"

namespace bws {
namespace {

constexpr std::uint64_t kSizeCap = UINT64_C(1) << 50;  // parse_size's own limit: above it is a typo

[[noreturn]] void refuse(const OptionSpec& spec, const std::string& flag, const std::string& text,
                         const std::string& why) {
  throw UsageError(flag + ": " + quoted_input(text) + " " + why + "; allowed: " + spec.allowed());
}

std::uint64_t whole_in_range(const OptionSpec& spec, const std::string& flag, const std::string& text) {
  std::uint64_t value = 0;
  const NumberRead read = read_whole_number(text, value);
  if (read == NumberRead::NotANumber) refuse(spec, flag, text, "is not a whole number");
  if (read == NumberRead::OutOfRange || value < spec.whole_min || value > spec.whole_max)
    refuse(spec, flag, text, "is out of range");
  return value;
}

std::uint64_t bytes_in_range(const OptionSpec& spec, const std::string& flag, const std::string& text) {
  std::uint64_t value = 0;
  try {
    value = parse_size(text, flag, kSizeCap);
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + "; allowed: " + spec.allowed());
  }
  if (value < spec.whole_min || value > spec.whole_max) refuse(spec, flag, text, "is out of range");
  return value;
}

double real_in_range(const OptionSpec& spec, const std::string& flag, const std::string& text) {
  double value = 0;
  const NumberRead read = read_real_number(text, value);
  if (read == NumberRead::NotANumber) refuse(spec, flag, text, "is not a number");
  const bool above_min = spec.real_min_open ? value > spec.real_min : value >= spec.real_min;
  const bool below_max = spec.real_max_open ? value < spec.real_max : value <= spec.real_max;
  if (read == NumberRead::OutOfRange || !above_min || !below_max)
    refuse(spec, flag, text, "is out of range");
  return value;
}

std::optional<std::size_t> choice_of(const OptionSpec& spec, const std::string& word) {
  const std::string w = lower_text(trim_text(word));
  for (std::size_t i = 0; i < spec.choices.size(); ++i)
    if (lower_text(spec.choices[i]) == w) return i;
  return std::nullopt;
}

std::size_t known_choice(const OptionSpec& spec, const std::string& flag, const std::string& word) {
  const auto choice = choice_of(spec, word);
  if (!choice) throw UsageError(flag + ": unknown " + spec.noun + " " + quoted_input(word) + "; allowed: " + spec.allowed());
  return *choice;
}

// The items of a comma list; an empty one is refused.
std::vector<std::string> list_items(const OptionSpec& spec, const std::string& flag, const std::string& text) {
  const std::vector<std::string> items = split_comma_list(text);
  if (std::all_of(items.begin(), items.end(), [](const std::string& s) { return s.empty(); }) && items.size() > 1)
    refuse(spec, flag, text, "is an empty " + spec.noun + " list");
  for (const std::string& item : items)
    if (item.empty()) refuse(spec, flag, text, "has an empty entry");
  return items;
}

void read_bytes_list(const OptionSpec& spec, const std::string& flag, const std::string& text, OptionValue& v) {
  if (text.empty()) return;  // no list: the option's default meaning
  for (const std::string& item : list_items(spec, flag, text)) {
    const std::uint64_t bytes = bytes_in_range(spec, flag, item);
    if (std::find(v.wholes.begin(), v.wholes.end(), bytes) != v.wholes.end())
      refuse(spec, flag, item, "is given twice (" + std::to_string(bytes) + " bytes)");
    v.wholes.push_back(bytes);
  }
}

void read_choice_list(const OptionSpec& spec, const std::string& flag, const std::string& text, OptionValue& v) {
  for (const std::string& item : list_items(spec, flag, text)) {
    std::vector<std::size_t> chosen;
    if (!spec.all_word.empty() && lower_text(item) == lower_text(spec.all_word)) {
      for (std::size_t i = 0; i < spec.choices.size(); ++i) chosen.push_back(i);
    } else {
      chosen.push_back(known_choice(spec, flag, item));
    }
    for (std::size_t c : chosen)
      if (std::find(v.choices.begin(), v.choices.end(), c) == v.choices.end()) v.choices.push_back(c);
  }
}

void read_text_list(const OptionSpec& spec, const std::string& flag, const std::string& text, OptionValue& v) {
  if (text.empty()) return;  // no list: the option's default meaning
  v.texts = list_items(spec, flag, text);
}

bool truth_of(const OptionSpec& spec, const std::string& flag, const std::string& text) {
  if (const std::optional<bool> truth = read_truth(text)) return *truth;
  refuse(spec, flag, text, "is not on or off");
}

}  // namespace

OptionValue parse_option_value(const OptionSpec& spec, const std::string& raw, const std::string& flag) {
  OptionValue v;
  v.flag = flag;
  v.text = trim_text(raw);
  if (spec.accepts_auto && lower_text(v.text) == "auto") {
    v.is_auto = true;
    return v;
  }
  switch (spec.type) {
    case OptionType::Whole: v.whole = whole_in_range(spec, flag, v.text); break;
    case OptionType::Bytes: v.whole = bytes_in_range(spec, flag, v.text); break;
    case OptionType::BytesList: read_bytes_list(spec, flag, v.text, v); break;
    case OptionType::Real: v.real = real_in_range(spec, flag, v.text); break;
    case OptionType::OneOf: v.choice = known_choice(spec, flag, v.text); break;
    case OptionType::ListOf: read_choice_list(spec, flag, v.text, v); break;
    case OptionType::Flag: v.on = truth_of(spec, flag, v.text); break;
    case OptionType::Text: break;
    case OptionType::TextList: read_text_list(spec, flag, v.text, v); break;
  }
  return v;
}

}  // namespace bws
