#pragma once
// The command lines bwreport prints (never runs) to take a node out of
// service and to put it back, for the three schedulers sites use. Every
// argument that is not plainly one safe word is single-quoted for the POSIX
// shell, so a host name or reason read from a file cannot run anything when
// the lines are piped to sh.
//   slurm  scontrol update NodeName=HOST State=DRAIN Reason='REASON'
//          scontrol update NodeName=HOST State=RESUME
//   flux   flux resource drain HOST 'REASON'
//          flux resource undrain HOST
//   pbs    pbsnodes -o -N 'REASON' HOST      (OFFLINE with a note)
//          pbsnodes -c -N '' HOST            (OFFLINE cleared, note emptied)
#include <string>

namespace bws {
struct OptionSpec;  // core/OptionSchema.hpp: only Drain.cpp and Undrain.cpp build the option
}

namespace bws::report {

// Every drain reason bwsurvey prints begins with this, and undrain resumes
// only nodes whose current reason does: an operator's drain is never undone.
inline constexpr const char* kDrainReasonPrefix = "bwsurvey:";

enum class Scheduler { Slurm, Flux, Pbs };

inline constexpr const char* kSchedulerChoices = "slurm, flux or pbs";
// "slurm" -> Slurm; UsageError naming `option` and the allowed values.
Scheduler scheduler_named(const std::string& text, const std::string& option);
// --format slurm|flux|pbs (default slurm), for a command that prints
// `what` ("drain", "resume") commands; read with scheduler_named.
OptionSpec scheduler_format_option(const std::string& what);

// The word itself when it is made of letters, digits and . _ - / : , + % @ =
// only; else in single quotes, each ' written as '\'' (the shell expands
// nothing inside single quotes).
std::string shell_word(const std::string& word);

std::string drain_command_line(Scheduler scheduler, const std::string& host, const std::string& reason);
std::string resume_command_line(Scheduler scheduler, const std::string& host);

}  // namespace bws::report
