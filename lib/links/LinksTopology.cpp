#include "links/LinksTopology.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "core/OptionText.hpp"

namespace bws::links {
namespace {

constexpr std::size_t kMaxTopologyBytes = std::size_t{64} << 20;
constexpr const char* kScontrolSource = "scontrol show topology";
constexpr const char* kNoTree = "no switch tree";

// Switches no other switch hangs from.
std::size_t leaf_switches(const model::SwitchTopology& t) {
  return static_cast<std::size_t>(std::count_if(t.switches().begin(), t.switches().end(), [&](const std::string& s) {
    return std::none_of(t.switches().begin(), t.switches().end(),
                        [&](const std::string& child) { return t.parent_of(child) == s; });
  }));
}

LinksTopology described(model::SwitchTopology tree, const std::string& name) {
  if (tree.empty()) return {nullptr, kNoTree};
  const std::size_t leaves = leaf_switches(tree);
  return {std::make_shared<const model::SwitchTopology>(std::move(tree)),
          "topology: " + name + " (" + std::to_string(leaves) + (leaves == 1 ? " leaf)" : " leaves)")};
}

bool scontrol_on_path() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  const std::string dirs(path);
  for (std::size_t at = 0; at <= dirs.size();) {
    std::size_t end = dirs.find(':', at);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = (end == at ? std::string(".") : dirs.substr(at, end - at)) + "/scontrol";
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0) return true;
    at = end + 1;
  }
  return false;
}

}  // namespace

// Through FileGuard: a FIFO is never opened (it would block forever), a
// device (/dev/zero) never read, and a file above 64 MiB is refused.
LinksTopology topology_from_file(const std::string& flag, const std::string& path) {
  const std::string text = read_input_file(flag, path, kMaxTopologyBytes);
  return described(model::SwitchTopology::parse(text, flag + " " + quoted_input(path)), printable_text(path, 200));
}

LinksTopology topology_from_scontrol_text(const std::string& text, bool succeeded) {
  if (!succeeded) return {nullptr, kNoTree};
  try {
    return described(model::SwitchTopology::parse(text, kScontrolSource), kScontrolSource);
  } catch (const UsageError&) {
    return {nullptr, kNoTree};  // "No switches found" and other text that is no tree
  }
}

LinksTopology topology_from_scontrol() {
  if (!std::getenv("SLURM_JOB_ID") || !scontrol_on_path()) return {nullptr, kNoTree};
  FILE* pipe = popen("scontrol show topology 2>/dev/null", "r");
  if (!pipe) return {nullptr, kNoTree};
  std::string text;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0 && text.size() < kMaxTopologyBytes) text.append(buffer, got);
  const int status = pclose(pipe);
  return topology_from_scontrol_text(text, status == 0 && text.size() < kMaxTopologyBytes);
}

}  // namespace bws::links
