#include "model/SwitchTopology.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "core/Errors.hpp"
#include "core/Hostlist.hpp"
#include "core/OptionText.hpp"

namespace bws::model {
namespace {

// One switch line: its name and the lists it gives, with their line.
struct SwitchLine {
  std::string name;
  int line = 0;
  std::vector<std::string> nodes, children;
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string where(const std::string& source, int line) { return source + ", line " + std::to_string(line) + ": "; }

// scontrol writes "(null)" for a field without a value.
bool absent(const std::string& value) { return value.empty() || value == "(null)"; }

std::vector<std::string> expand(const std::string& list, const std::string& source, int line) {
  try {
    return expand_hostlist(list);
  } catch (const HostlistTooLong& e) {  // says what is allowed itself
    throw UsageError(where(source, line) + e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(where(source, line) + e.what() + "; allowed: a Slurm host list such as n[1-4,7]");
  }
}

SwitchLine parse_line(std::string_view text, const std::string& source, int line) {
  SwitchLine out;
  out.line = line;
  bool named = false;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    std::size_t end = at;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    if (end == at) break;
    const std::string_view token = text.substr(at, end - at);
    at = end;
    const auto eq = token.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw UsageError(where(source, line) + quoted_input(token) +
                       " is not KEY=VALUE; allowed: SwitchName=NAME "
                       "[Switches=LIST] [Nodes=LIST] and other KEY=VALUE fields");
    const std::string key = lower(token.substr(0, eq));
    const std::string value(token.substr(eq + 1));
    if (key == "switchname") {
      if (absent(value)) throw UsageError(where(source, line) + "SwitchName= has no value; allowed: a switch name");
      out.name = value;
      named = true;
    } else if (key == "nodes" && !absent(value)) {
      out.nodes = expand(value, source, line);
    } else if (key == "switches" && !absent(value)) {
      out.children = expand(value, source, line);
    }
  }
  if (!named)
    throw UsageError(where(source, line) +
                     "no SwitchName=; allowed: one switch a line, SwitchName=NAME "
                     "[Switches=LIST] [Nodes=LIST]");
  return out;
}

std::vector<SwitchLine> parse_lines(std::string_view text, const std::string& source) {
  std::vector<SwitchLine> lines;
  std::uint64_t names = 0;
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    ++number;
    start = end + 1;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (trim_text(line).empty()) continue;
    lines.push_back(parse_line(line, source, number));
    // One limit for the whole file, as for one list: many lines of a
    // million names each would exhaust memory as one list of 10^12 would.
    names += lines.back().nodes.size() + lines.back().children.size();
    if (names > kMaxHostlistNames)
      throw UsageError(where(source, number) + "the file names more than " + std::to_string(kMaxHostlistNames) +
                       " hosts and switches by here; allowed: at most " + std::to_string(kMaxHostlistNames) + " in all");
  }
  return lines;
}

}  // namespace

SwitchTopology SwitchTopology::parse(std::string_view text, const std::string& source) {
  SwitchTopology topology;
  const std::vector<SwitchLine> lines = parse_lines(text, source);
  std::map<std::string, int> defined_on;
  for (const SwitchLine& s : lines) {
    const auto [it, fresh] = defined_on.emplace(s.name, s.line);
    if (!fresh)
      throw UsageError(where(source, s.line) + "switch " + quoted_input(s.name) + " is defined twice (first on line " +
                       std::to_string(it->second) + "); allowed: one line per switch");
    topology.switches_.push_back(s.name);
  }
  std::map<std::string, int> parent_line;
  for (const SwitchLine& s : lines)
    for (const std::string& child : s.children) {
      if (!defined_on.count(child))
        throw UsageError(where(source, s.line) + "Switches= names " + quoted_input(child) +
                         ", which no line defines; allowed: switches defined with SwitchName=");
      const auto [it, fresh] = topology.parent_.emplace(child, s.name);
      if (!fresh && it->second != s.name)
        throw UsageError(where(source, s.line) + "switch " + quoted_input(child) + " is under two parents, " +
                         quoted_input(it->second) + " (line " + std::to_string(parent_line[child]) + ") and " +
                         quoted_input(s.name) + "; allowed: a tree, one parent per switch");
      parent_line.emplace(child, s.line);
    }
  // A cycle: walking up from a switch meets it again (or any switch twice).
  if (const std::string name = topology.switch_in_cycle(); !name.empty())
    throw UsageError(where(source, parent_line[name]) + "switch " + quoted_input(name) +
                     " is its own ancestor (a cycle in Switches=); allowed: a tree");
  // Every switch that lists a host; the host's leaf is the deepest of them,
  // and the others must be its ancestors (scontrol's upper switches).
  std::map<std::string, std::vector<const SwitchLine*>> listed_by;
  for (const SwitchLine& s : lines)
    for (const std::string& host : s.nodes) listed_by[host].push_back(&s);
  for (const auto& [host, listers] : listed_by) {
    const SwitchLine* deepest = listers.front();
    for (const SwitchLine* s : listers)
      if (topology.ancestry(s->name).size() > topology.ancestry(deepest->name).size()) deepest = s;
    const std::vector<std::string> above = topology.ancestry(deepest->name);
    for (const SwitchLine* s : listers)
      if (std::find(above.begin(), above.end(), s->name) == above.end()) {
        const SwitchLine* later = s->line > deepest->line ? s : deepest;
        const SwitchLine* earlier = later == s ? deepest : s;
        throw UsageError(where(source, later->line) + "host " + quoted_input(host) + " is under two leaf switches, " +
                         quoted_input(earlier->name) + " (line " + std::to_string(earlier->line) + ") and " +
                         quoted_input(later->name) + "; allowed: one leaf per host");
      }
    topology.host_leaf_[host] = deepest->name;
  }
  return topology;
}

SwitchTopology SwitchTopology::from_parts(const std::vector<std::pair<std::string, std::string>>& switch_parents,
                                          const std::map<std::string, std::string>& leaf_of_host,
                                          const std::string& source) {
  SwitchTopology topology;
  for (const auto& [name, parent] : switch_parents) {
    if (name.empty() || std::find(topology.switches_.begin(), topology.switches_.end(), name) != topology.switches_.end())
      throw UsageError(source + ": switch " + quoted_input(name) + " is empty or listed twice; allowed: one row per switch");
    topology.switches_.push_back(name);
  }
  const auto known = [&](const std::string& name) {
    return std::find(topology.switches_.begin(), topology.switches_.end(), name) != topology.switches_.end();
  };
  for (const auto& [name, parent] : switch_parents) {
    if (parent.empty()) continue;
    if (!known(parent))
      throw UsageError(source + ": the parent " + quoted_input(parent) + " of switch " + quoted_input(name) +
                       " is not among the switches; allowed: a listed switch or \"\"");
    topology.parent_[name] = parent;
  }
  if (const std::string name = topology.switch_in_cycle(); !name.empty())
    throw UsageError(source + ": switch " + quoted_input(name) + " is its own ancestor; allowed: a tree");
  for (const auto& [host, leaf] : leaf_of_host) {
    if (leaf.empty()) continue;
    if (!known(leaf))
      throw UsageError(source + ": the leaf " + quoted_input(leaf) + " of host " + quoted_input(host) +
                       " is not among the switches; allowed: a listed switch or \"\"");
    topology.host_leaf_[host] = leaf;
  }
  return topology;
}

std::string SwitchTopology::switch_in_cycle() const {
  for (const std::string& name : switches_) {
    std::string at = name;
    for (std::size_t steps = 0; parent_.count(at); ++steps) {
      at = parent_.at(at);
      if (at == name || steps > switches_.size()) return name;
    }
  }
  return {};
}

std::vector<std::string> SwitchTopology::ancestry(const std::string& name) const {
  std::vector<std::string> chain{name};
  for (auto it = parent_.find(name); it != parent_.end(); it = parent_.find(it->second)) chain.push_back(it->second);
  return chain;
}

std::string SwitchTopology::leaf_of(const std::string& host) const {
  const auto it = host_leaf_.find(host);
  return it == host_leaf_.end() ? std::string() : it->second;
}

std::string SwitchTopology::parent_of(const std::string& name) const {
  const auto it = parent_.find(name);
  return it == parent_.end() ? std::string() : it->second;
}

std::string SwitchTopology::uplink_of(const std::string& leaf) const {
  const std::string parent = parent_of(leaf);
  return parent.empty() ? std::string() : leaf + "->" + parent;
}

std::vector<std::string> SwitchTopology::path_between(const std::string& from, const std::string& to) const {
  const bool known_from = std::find(switches_.begin(), switches_.end(), from) != switches_.end();
  const bool known_to = std::find(switches_.begin(), switches_.end(), to) != switches_.end();
  if (!known_from || !known_to) return {};
  const std::vector<std::string> up = ancestry(from), down = ancestry(to);
  for (std::size_t i = 0; i < up.size(); ++i) {
    const auto meet = std::find(down.begin(), down.end(), up[i]);
    if (meet == down.end()) continue;
    std::vector<std::string> path(up.begin(), up.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    for (auto it = std::make_reverse_iterator(meet); it != down.rend(); ++it) path.push_back(*it);
    return path;
  }
  return {};
}

}  // namespace bws::model
