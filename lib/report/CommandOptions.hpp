#pragma once
// bwreport's command options are declared like every bwsurvey option, once,
// through an OptionSchema (core/OptionSchema.hpp): a typed struct, range,
// unit and help; --help shows each with its default and allowed range, and a
// bad value is one UsageError naming the option and the range, after
// "bwreport <command>: ".
#include <optional>
#include <string>

#include "core/ProgramOptionsFwd.hpp"
#include <boost/program_options/variables_map.hpp>

#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/OptionSchema.hpp"
#include "report/ReportCommand.hpp"

namespace bws::report {

// An option with no default (bwreport roofline's --ai, used instead of
// the counts): left out, the std::optional member stays empty; a value
// given, empty text included, is read and checked as `spec` says (its range
// shows in --help).
template <class Options, class Field>
OptionField<Options> bind_optional(OptionSpec spec, std::optional<Field> Options::*member) {
  OptionSpec shown = spec;
  shown.type = OptionType::Text;
  shown.default_text.clear();
  shown.range_note = spec.allowed();
  return {std::move(shown),
          [member, spec](Options& o, const OptionValue& v) {
            if (!v.given) {
              o.*member = std::nullopt;
              return;
            }
            Field value{};
            store_option(value, parse_option_value(spec, v.text, v.flag));
            o.*member = value;
          },
          [member](const Options& o) -> const void* { return &(o.*member); }};
}

// Registers the options of a command as OptionList::add_to does, except
// that an on/off option is a switch with no value (in `export --csv FILE`,
// FILE is the survey, not a value of --csv), and an option whose default is
// empty text shows none.
void add_command_options(boost::program_options::options_description& desc, const OptionList& options);

// The text values of a parsed command line as a Config, those not given
// marked as defaults; switches as "on"/"off".
Config command_config(const boost::program_options::variables_map& given);

template <class Options>
Options read_command_options(const std::string& command, const OptionSchema<Options>& schema,
                             const ParsedCommand& parsed) {
  try {
    return schema.read(command_config(parsed.options), false);
  } catch (const UsageError& e) {
    throw UsageError("bwreport " + command + ": " + e.what());
  }
}

}  // namespace bws::report
