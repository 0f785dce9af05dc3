#pragma once
// The effective configuration: every option's value as text, keyed by its
// long name ("tests", "stream.elements"). Options are declared by whoever
// owns them (the survey, each benchmark) into Boost.Program_options as
// strings with a default (core/OptionSchema.hpp); parsing into numbers
// happens in plan(), so every message can name the option and its allowed
// range. Plain text keys and values: no Boost header, so the numerics
// (lib/model) that read text through core/OptionText.hpp never see one.
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace bws {

class Config {
 public:
  Config() = default;
  Config(std::map<std::string, std::string, std::less<>> values, std::set<std::string, std::less<>> defaulted);

  bool has(std::string_view key) const;
  // Throws std::out_of_range for a key no one declared (a programming error).
  const std::string& get(std::string_view key) const;
  // "true"/"false"/"1"/"0"/"yes"/"no"/"on"/"off"; UsageError otherwise.
  bool flag(std::string_view key) const;
  bool is_default(std::string_view key) const;
  void set(std::string key, std::string value);  // for tests and resolved values
  const std::map<std::string, std::string, std::less<>>& values() const { return values_; }

  // The configuration as an INI file that --config accepts back: top-level
  // keys first, then one [section] per dotted prefix. Keys in `skip` are left
  // out. A key at its default is written as a comment, "# default: key =
  // value": read back, it is at its default again, so whatever a default
  // depends on (--quick's repetitions and sizes) comes out the same.
  std::string to_ini(const std::set<std::string, std::less<>>& skip = {}) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::set<std::string, std::less<>> defaulted_;
};

// The first line of to_ini()'s text, and how its default lines begin.
inline constexpr const char* kConfigHeader =
    "# bwsurvey configuration: \"key = value\" was set; \"# default: key = value\" was left at its default\n";
inline constexpr const char* kDefaultLineMark = "# default: ";

// The default lines of to_ini()'s text as INI text ("key = value" under
// their sections; every other line blank, so line numbers stay): what
// --resume restores as defaults.
std::string default_lines_of(const std::string& ini_text);

}  // namespace bws
