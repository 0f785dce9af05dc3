#pragma once
// Typed options, each declared once as data (OptionSpec): name, type,
// default, allowed range, --quick value, help with unit, old names. From
// that one declaration an OptionSchema registers the option with
// Boost.Program_options (--help shows default, unit, range, --quick value
// and old names), reads it from the Config (parsed and range-checked with
// the one usage-error style: "--name: 'x' is out of range; allowed: 1..1000"),
// and stores it into a typed struct that the benchmark's plan() receives.
// The INI text of a run is Config::to_ini's (set options as lines, defaults
// as "# default:" lines); the schema only decides how a value reads back.
//
// What the schema cannot know stays with plan(): limits that depend on the
// node (memory, cores, the CPU's instruction sets). Text options whose
// grammar is the benchmark's own (pmbw's routine filters) are Text here and
// read by the benchmark's own function.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Config.hpp"

namespace bws {

enum class OptionType {
  Whole,      // a whole number in [whole_min, whole_max]
  Bytes,      // a byte size with suffixes (core/Sizes.hpp: 64K, 1GiB, 1e7) in [whole_min, whole_max]
  BytesList,  // a comma list of byte sizes, each in range, none twice; empty text: no list
  Real,       // a finite real number in [real_min, real_max] (or (real_min, real_max])
  OneOf,      // one of `choices` (any case)
  ListOf,     // a comma list of `choices` (any case), no repeats; `all_word` stands for all
  Flag,       // on|off, also true/false, yes/no, 1/0; the option alone means on
  Text,       // free text (a path, or a grammar the benchmark reads itself)
  TextList,   // a comma list of free text values (host names), none empty; empty text: no list. A
              // bwreport command takes the option again for each further value (report/CommandOptions.hpp)
};

// One option, as data. Build it with the *_option functions below and the
// chained modifiers; the fields are public so tests and docs can read them.
struct OptionSpec {
  std::string name;          // "pmbw.reps": the long option and the INI key ([pmbw] reps)
  OptionType type = OptionType::Text;
  std::string default_text;  // as --help and the INI show it: "3", "auto", "1K", "off", ""
  std::string unit;          // "seconds", "bytes", "samples": in --help and in the allowed range
  std::string help;          // what the option does (range, default, --quick and old names are appended)
  std::uint64_t whole_min = 0, whole_max = UINT64_MAX;  // Whole, Bytes, BytesList
  double real_min = 0, real_max = 0;                    // Real
  bool real_min_open = false;                           // Real: "> min" instead of ">= min"
  bool real_max_open = false;                           // Real: "< max" instead of "<= max"
  bool accepts_auto = false;  // the word 'auto' stands for a value plan() resolves against the node
  std::vector<std::string> choices;  // OneOf, ListOf, in the order of the enum they map to
  std::string all_word;              // ListOf: the word for every choice ("all", "both")
  std::string noun = "value";        // OneOf, ListOf: "unknown <noun> 'x'"; TextList: "a comma list of <noun>s"
  std::string quick_text;            // the value under --quick when the option is left at its default
  std::vector<std::string> aliases;  // old names that keep working ("pmbw.samples")
  std::string range_note;            // appended to the allowed range: "(within the node's memory)"

  OptionSpec& quick(std::string text) { quick_text = std::move(text); return *this; }
  OptionSpec& alias(std::string old_name) { aliases.push_back(std::move(old_name)); return *this; }
  OptionSpec& or_auto() { accepts_auto = true; return *this; }
  OptionSpec& above_min() { real_min_open = true; return *this; }
  OptionSpec& below_max() { real_max_open = true; return *this; }
  OptionSpec& called(std::string what) { noun = std::move(what); return *this; }
  OptionSpec& all(std::string word) { all_word = std::move(word); return *this; }
  OptionSpec& note(std::string text) { range_note = std::move(text); return *this; }

  // "1..1000 samples", "> 0 and <= 60 seconds", "host, device", "on, off";
  // "... or auto" where auto is accepted; then the note.
  std::string allowed() const;
  // The --help line: help, "allowed: ...", the --quick value, the old names.
  std::string help_line() const;
};

OptionSpec whole_option(std::string name, std::string default_text, std::uint64_t min, std::uint64_t max,
                        std::string unit, std::string help);
OptionSpec bytes_option(std::string name, std::string default_text, std::uint64_t min, std::uint64_t max,
                        std::string help);
OptionSpec bytes_list_option(std::string name, std::string default_text, std::uint64_t min, std::uint64_t max,
                             std::string help);
OptionSpec real_option(std::string name, std::string default_text, double min, double max, std::string unit,
                       std::string help);
OptionSpec one_of_option(std::string name, std::string default_text, std::vector<std::string> choices,
                         std::string help);
OptionSpec list_option(std::string name, std::string default_text, std::vector<std::string> choices,
                       std::string help);
OptionSpec flag_option(std::string name, bool default_on, std::string help);
OptionSpec text_option(std::string name, std::string default_text, std::string help);
// A list of text values, empty by default; `noun` names one ("host"), as
// the allowed range and the messages say it.
OptionSpec text_list_option(std::string name, std::string noun, std::string help);

// One option's value, read and checked.
struct OptionValue {
  std::string flag;    // "--pmbw.max-size" when given by that old name; else "--" + the name
  bool given = false;  // set (command line, --config, the resumed file), not left at the default
  bool is_auto = false;
  std::uint64_t whole = 0;             // Whole, Bytes
  double real = 0;                     // Real
  bool on = false;                     // Flag
  std::size_t choice = 0;              // OneOf: index into choices
  std::vector<std::size_t> choices;    // ListOf: indices, in the order given
  std::vector<std::uint64_t> wholes;   // BytesList, in the order given
  std::vector<std::string> texts;      // TextList, trimmed, in the order given (repeats kept)
  std::string text;                    // the text read (trimmed); Text's value
};

// Parses one text as `spec` describes; UsageError naming `flag`.
OptionValue parse_option_value(const OptionSpec& spec, const std::string& text, const std::string& flag);

// Declares a text option with a default; the help line shows the default.
void add_text_option(boost::program_options::options_description& desc, const char* name,
                     const char* default_value, const char* help);

// The values of a list of specs: registration, reading, and the checks
// that hold for every option (aliases that disagree, stray values).
class OptionList {
 public:
  explicit OptionList(std::vector<OptionSpec> specs);
  const std::vector<OptionSpec>& specs() const { return specs_; }
  const OptionSpec& spec(std::string_view name) const;  // std::out_of_range for an unknown name

  // Registers every option with its default (a Flag also alone, meaning on)
  // and every old name (core/OptionAliases: no default; its help names the
  // new one; given, it is a deprecation the parser reports).
  void add_to(boost::program_options::options_description& desc) const;
  // Every option's value in the order of specs(): the one given (by its name
  // or an old one; both given with different values is a UsageError naming
  // both), else the --quick value under quick, else the Config's default
  // (a resumed file's stored default), else the declared default.
  std::vector<OptionValue> read(const Config& config, bool quick) const;

 private:
  std::vector<OptionSpec> specs_;
};

// Options a plan reads, with how each was spelled, for the messages that
// plan() writes itself (a size that does not fit the node's memory). A
// message names the field, not a retyped name: o.flag(&StreamOptions::reps)
// gives "--stream.reps", or "--stream.ntimes" when the old name was typed.
struct TypedOptions {
  // Where a bound field lies in the struct (bytes from this base) -> its flag.
  std::map<std::ptrdiff_t, std::string> field_flags;
  // ... -> whether it was given (by its name or an old one), not left at its default.
  std::map<std::ptrdiff_t, bool> field_given;

  template <class Options, class Field>
  std::string flag(Field Options::*member) const {
    return flag_at(offset_of(&(static_cast<const Options&>(*this).*member)));
  }
  std::ptrdiff_t offset_of(const void* field) const {
    return static_cast<const char*>(field) - reinterpret_cast<const char*>(this);
  }
  // Whether the option of a field was left at its default (by every one of
  // its names): what --time-budget may lower. o.defaulted(&StreamOptions::reps).
  template <class Options, class Field>
  bool defaulted(Field Options::*member) const {
    return !given_at(offset_of(&(static_cast<const Options&>(*this).*member)));
  }
  // std::logic_error for a field no option is bound to (a programming error).
  std::string flag_at(std::ptrdiff_t offset) const;
  bool given_at(std::ptrdiff_t offset) const;
};

// Stores a value into a field of the typed struct, by the field's type.
template <class Field>
void store_option(Field& field, const OptionValue& v) {
  if constexpr (std::is_same_v<Field, bool>) {
    field = v.on;
  } else if constexpr (std::is_enum_v<Field>) {
    field = static_cast<Field>(v.choice);
  } else if constexpr (std::is_integral_v<Field>) {
    field = static_cast<Field>(v.whole);
  } else if constexpr (std::is_floating_point_v<Field>) {
    field = v.real;
  } else if constexpr (std::is_same_v<Field, std::optional<std::uint64_t>>) {
    field = v.is_auto ? std::nullopt : std::optional<std::uint64_t>(v.whole);
  } else if constexpr (std::is_same_v<Field, std::optional<double>>) {
    field = v.is_auto ? std::nullopt : std::optional<double>(v.real);
  } else if constexpr (std::is_same_v<Field, std::vector<std::uint64_t>>) {
    field = v.wholes;
  } else if constexpr (std::is_same_v<Field, std::string>) {
    field = v.text;
  } else if constexpr (std::is_same_v<Field, std::vector<std::string>>) {
    field = v.texts;
  } else {  // a vector of an enum: ListOf
    field.clear();
    for (std::size_t c : v.choices) field.push_back(static_cast<typename Field::value_type>(c));
  }
}

// A spec and where its value goes in the typed struct `Options`.
template <class Options>
struct OptionField {
  OptionSpec spec;
  std::function<void(Options&, const OptionValue&)> store;
  std::function<const void*(const Options&)> field;  // the member it fills, for TypedOptions::flag
};

// The usual binding: the value goes to one member, by the member's type.
template <class Options, class Field>
OptionField<Options> bind_option(OptionSpec spec, Field Options::*member) {
  return {std::move(spec), [member](Options& o, const OptionValue& v) { store_option(o.*member, v); },
          [member](const Options& o) -> const void* { return &(o.*member); }};
}

// A value in the benchmark's own grammar (a type list, an error rule):
// `read(const OptionValue&)` turns it into the member's value, throwing
// UsageError for text it does not accept.
template <class Options, class Field, class Read>
OptionField<Options> bind_option(OptionSpec spec, Field Options::*member, Read read) {
  return {std::move(spec), [member, read](Options& o, const OptionValue& v) { o.*member = read(v); },
          [member](const Options& o) -> const void* { return &(o.*member); }};
}

// A benchmark's options: declared once, read into `Options` (a struct
// deriving from TypedOptions).
template <class Options>
class OptionSchema {
 public:
  explicit OptionSchema(std::vector<OptionField<Options>> fields) : list_(specs_of(fields)) {
    for (auto& f : fields) {
      stores_.push_back(std::move(f.store));
      fields_.push_back(std::move(f.field));
    }
  }
  const OptionList& list() const { return list_; }
  // The declared name of the option that fills `member` ("stream.backend"),
  // for code that names an option it does not read (the old --tests ocl).
  template <class Field>
  const std::string& name_of(Field Options::*member) const {
    const Options probe{};
    for (std::size_t i = 0; i < fields_.size(); ++i)
      if (fields_[i](probe) == &(probe.*member)) return list_.specs()[i].name;
    throw std::logic_error("OptionSchema::name_of: no option is bound to this field");
  }
  void add_to(boost::program_options::options_description& desc) const { list_.add_to(desc); }
  Options read(const Config& config, bool quick) const {
    const std::vector<OptionValue> values = list_.read(config, quick);
    Options options{};
    for (std::size_t i = 0; i < values.size(); ++i) {
      stores_[i](options, values[i]);
      options.field_flags[options.offset_of(fields_[i](options))] = values[i].flag;
      options.field_given[options.offset_of(fields_[i](options))] = values[i].given;
    }
    return options;
  }

 private:
  static std::vector<OptionSpec> specs_of(const std::vector<OptionField<Options>>& fields) {
    std::vector<OptionSpec> specs;
    for (const auto& f : fields) specs.push_back(f.spec);
    return specs;
  }
  OptionList list_;
  std::vector<std::function<void(Options&, const OptionValue&)>> stores_;
  std::vector<std::function<const void*(const Options&)>> fields_;
};

}  // namespace bws
