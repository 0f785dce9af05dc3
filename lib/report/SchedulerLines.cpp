#include "report/SchedulerLines.hpp"

#include <algorithm>
#include <string_view>

#include "core/Errors.hpp"
#include "core/OptionSchema.hpp"
#include "core/PrintableText.hpp"

namespace bws::report {
namespace {

bool is_plain(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("._-/:,+%@=").find(c) != std::string_view::npos;
}

}  // namespace

Scheduler scheduler_named(const std::string& text, const std::string& option) {
  if (text == "slurm") return Scheduler::Slurm;
  if (text == "flux") return Scheduler::Flux;
  if (text == "pbs") return Scheduler::Pbs;
  throw UsageError(option + ": '" + printable_text(text, 40) + "' is not a scheduler; allowed: " + kSchedulerChoices);
}

OptionSpec scheduler_format_option(const std::string& what) {
  return one_of_option("format", "slurm", {"slurm", "flux", "pbs"},
                       "the scheduler whose " + what +
                           " commands are printed: slurm (scontrol), flux (flux resource) or pbs (pbsnodes)");
}

std::string shell_word(const std::string& word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), is_plain)) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string drain_command_line(Scheduler scheduler, const std::string& host, const std::string& reason) {
  switch (scheduler) {
    case Scheduler::Slurm:
      return "scontrol update " + shell_word("NodeName=" + host) + " State=DRAIN " + shell_word("Reason=" + reason);
    case Scheduler::Flux:
      return "flux resource drain " + shell_word(host) + " " + shell_word(reason);
    case Scheduler::Pbs:
      return "pbsnodes -o -N " + shell_word(reason) + " " + shell_word(host);
  }
  return "";
}

std::string resume_command_line(Scheduler scheduler, const std::string& host) {
  switch (scheduler) {
    case Scheduler::Slurm:
      return "scontrol update " + shell_word("NodeName=" + host) + " State=RESUME";
    case Scheduler::Flux:
      return "flux resource undrain " + shell_word(host);
    case Scheduler::Pbs:
      return "pbsnodes -c -N '' " + shell_word(host);
  }
  return "";
}

}  // namespace bws::report
