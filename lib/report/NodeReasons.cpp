#include "report/NodeReasons.hpp"

#include <sstream>
#include <stdexcept>

#include "core/Errors.hpp"
#include "core/Hostlist.hpp"
#include "core/PrintableText.hpp"
#include "report/SchedulerLines.hpp"

namespace bws::report {
namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

void add_hosts(std::vector<NodeReason>& out, const std::string& list, const std::string& reason, std::size_t line_no) {
  try {
    for (const std::string& host : expand_hostlist(list)) out.push_back({host, reason});
  } catch (const std::invalid_argument& e) {
    throw UsageError("--reasons: line " + std::to_string(line_no) + ": '" + printable_text(list, 80) +
                     "' is not a host list: " + e.what());
  }
}

// "Reason=bwsurvey: x [root@2026-11-27T10:00:00]" -> "bwsurvey: x".
std::string scontrol_reason(const std::string& line, std::size_t at) {
  std::string reason = line.substr(at + 7);
  const auto stamp = reason.rfind(" [");
  if (stamp != std::string::npos && reason.find('@', stamp) != std::string::npos) reason.erase(stamp);
  return trimmed(reason);
}

std::vector<NodeReason> from_scontrol(const std::vector<std::string>& lines) {
  std::vector<NodeReason> out;
  std::string host;
  for (const std::string& raw : lines) {
    const std::string line = trimmed(raw);
    if (line.rfind("NodeName=", 0) == 0) host = words_of(line)[0].substr(9);
    std::size_t at = line.rfind("Reason=", 0) == 0 ? 0 : line.find(" Reason=");
    if (at == std::string::npos || host.empty()) continue;
    if (at > 0) ++at;
    const std::string reason = scontrol_reason(line, at);
    if (!reason.empty() && reason != "(null)") out.push_back({host, reason});
  }
  return out;
}

// Where each word of a line begins.
std::vector<std::size_t> word_starts(const std::string& line) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] != ' ' && line[i] != '\t' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) starts.push_back(i);
  return starts;
}

// REASON USER TIMESTAMP NODELIST: the reason is what stands before the last three words.
std::vector<NodeReason> from_sinfo(const std::vector<std::string>& lines) {
  std::vector<NodeReason> out;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string line = trimmed(lines[i]);
    const std::vector<std::size_t> starts = word_starts(line);
    if (starts.size() < 4) continue;
    const std::string reason = trimmed(line.substr(0, starts[starts.size() - 3]));
    add_hosts(out, words_of(line).back(), reason, i + 1);
  }
  return out;
}

std::vector<NodeReason> from_plain(const std::vector<std::string>& lines) {
  std::vector<NodeReason> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trimmed(lines[i]);
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find_first_of(" \t");
    if (space == std::string::npos) continue;  // a host without a reason: not drained by anyone we can tell
    add_hosts(out, line.substr(0, space), trimmed(line.substr(space)), i + 1);
  }
  return out;
}

}  // namespace

std::vector<NodeReason> parse_node_reasons(const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  for (const std::string& line : lines)
    if (trimmed(line).rfind("NodeName=", 0) == 0) return from_scontrol(lines);
  for (const std::string& line : lines) {
    if (trimmed(line).empty()) continue;
    const std::vector<std::string> words = words_of(line);
    if (words.size() >= 4 && words[0] == "REASON" && words.back() == "NODELIST") return from_sinfo(lines);
    break;
  }
  return from_plain(lines);
}

bool is_bwsurvey_reason(const std::string& reason) { return reason.rfind(kDrainReasonPrefix, 0) == 0; }

}  // namespace bws::report
