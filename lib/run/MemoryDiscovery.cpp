#include "run/MemoryDiscovery.hpp"

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/IniFile.hpp"
#include "core/OptionText.hpp"
#include "core/PrintableText.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace bws::run {
namespace {

constexpr const char* kDmiTablePath = "/sys/firmware/dmi/tables/DMI";

// Root or not, in words for the reasons.
const char* privilege_hint() { return ::geteuid() == 0 ? "" : " (not root?)"; }
// A type 17 listing is a few kB per slot; more than this is not dmidecode.
constexpr std::size_t kMaxDmidecodeOutputBytes = 4u << 20;

std::string dmidecode_path() {
  for (const char* path : {"/usr/sbin/dmidecode", "/sbin/dmidecode", "/usr/bin/dmidecode"})
    if (::access(path, X_OK) == 0) return path;
  return "";
}

// Its output, or "" with `why` set. `timeout` keeps a firmware that makes
// dmidecode hang (a slow /dev/mem scan) from holding up the survey.
std::string run_dmidecode(const std::string& path, std::string& why) {
  const std::string command = "timeout 5 " + path + " -t 17 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    why = "dmidecode could not be started";
    return "";
  }
  std::string text;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0 && text.size() < kMaxDmidecodeOutputBytes)
    text.append(buffer, got);
  const int status = ::pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    why = std::string("dmidecode failed") + privilege_hint();
    return "";
  }
  return text;
}

std::vector<std::uint8_t> read_dmi_table(std::string& why) {
  std::ifstream in(kDmiTablePath, std::ios::binary);
  if (!in) {
    why = std::string(kDmiTablePath) + " not readable" + privilege_hint();
    return {};
  }
  std::vector<std::uint8_t> raw{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (raw.empty()) why = "DMI table empty";
  return raw;
}

// The kernel's copy of the table first: a plain file read, no child process
// in an MPI job (dmidecode reads that very file on current kernels); then
// dmidecode, which also finds the table on kernels without it.
model::MemoryPopulation discover() {
  std::string dmidecode_why, table_why;
  const std::vector<std::uint8_t> raw = read_dmi_table(table_why);
  if (table_why.empty()) {
    model::MemoryPopulation population = model::parse_smbios_table(raw);
    if (!population.slots.empty()) return population;
    table_why = "DMI table has no type 17 structures";
  }
  const std::string dmidecode = dmidecode_path();
  if (dmidecode.empty()) {
    dmidecode_why = "dmidecode absent";
  } else {
    const std::string text = run_dmidecode(dmidecode, dmidecode_why);
    if (dmidecode_why.empty()) {
      model::MemoryPopulation population = model::parse_dmidecode_memory(text);
      if (!population.slots.empty()) return population;
      dmidecode_why = "dmidecode found no type 17 records";
    }
  }
  model::MemoryPopulation none;
  none.unknown_reason = "no SMBIOS memory records (" + table_why + ", " + dmidecode_why + ")";
  return none;
}

}  // namespace

model::MemoryPopulation read_memory_population() {
  try {
    return discover();
  } catch (...) {
    // Nothing above should throw (bad_alloc at most); the population is optional.
    model::MemoryPopulation none;
    none.unknown_reason = "reading the SMBIOS memory records failed";
    return none;
  }
}

model::MemoryPopulation read_memory_population_file(const std::string& path_pattern, const std::string& host) {
  std::string path = path_pattern;
  for (std::size_t at = path.find("%h"); at != std::string::npos; at = path.find("%h", at + host.size()))
    path.replace(at, 2, host);
  // Through FileGuard: never a FIFO or /dev/zero (it would block or never end).
  const std::string where = "(node " + printable_text(host, 256) + ")";
  const PathKind kind = path_kind(path);
  if (kind != PathKind::Regular)
    throw UsageError("--memory.dmidecode: cannot read " + quoted_input(path, kMaxQuotedPathChars) + " " + where + ": " +
                     (kind == PathKind::Missing ? std::string("no such file") : std::string("it is ") + path_kind_noun(kind)) +
                     "; allowed: a regular file of `dmidecode -t memory` output, %h for the hostname");
  const std::string text = read_input_file("--memory.dmidecode " + where, path, kMaxConfigFileBytes);
  model::MemoryPopulation population = model::parse_dmidecode_memory(text);
  if (population.slots.empty())
    throw UsageError("--memory.dmidecode: " + quoted_input(path, kMaxQuotedPathChars) + " " + where +
                     " holds no Memory Device (DMI type 17) record; allowed: `dmidecode -t memory` output");
  population.source = "dmidecode file " + path;
  return population;
}

}  // namespace bws::run
