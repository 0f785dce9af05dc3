#include "run/RankTurns.hpp"

#include <algorithm>
#include <set>

namespace bws::run {
namespace {

std::vector<int> shared(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> x = a, y = b, out;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<int> assign_turns(const std::vector<std::vector<int>>& cpus) {
  std::vector<int> turns(cpus.size(), 0);
  for (std::size_t r = 0; r < cpus.size(); ++r) {
    for (int t = 0;; ++t) {
      bool clash = false;
      for (std::size_t q = 0; q < r && !clash; ++q) clash = turns[q] == t && !shared(cpus[q], cpus[r]).empty();
      if (!clash) {
        turns[r] = t;
        break;
      }
    }
  }
  return turns;
}

int widest_turn(const std::vector<std::vector<int>>& cpus, const std::vector<int>& turns) {
  int best = 0;
  std::size_t best_width = 0;
  const int n_turns = turns.empty() ? 0 : *std::max_element(turns.begin(), turns.end()) + 1;
  for (int t = 0; t < n_turns; ++t) {
    std::set<int> used;
    for (std::size_t r = 0; r < cpus.size(); ++r)
      if (turns[r] == t) used.insert(cpus[r].begin(), cpus[r].end());
    if (used.size() > best_width) {
      best_width = used.size();
      best = t;
    }
  }
  return best;
}

std::string cpu_list_text(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string text;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    (text += text.empty() ? "" : ",") += std::to_string(cpus[i]);
    if (j > i) (text += "-") += std::to_string(cpus[j]);
    i = j + 1;
  }
  return text;
}

std::vector<std::string> describe_overlaps(const std::vector<std::vector<int>>& cpus,
                                           const std::vector<int>& world_rank, std::size_t max_lines) {
  std::vector<std::string> lines;
  for (std::size_t a = 0; a < cpus.size(); ++a)
    for (std::size_t b = a + 1; b < cpus.size(); ++b) {
      const std::vector<int> both = shared(cpus[a], cpus[b]);
      if (both.empty()) continue;
      if (lines.size() == max_lines) {
        lines.push_back("...");
        return lines;
      }
      lines.push_back("ranks " + std::to_string(world_rank[a]) + " and " + std::to_string(world_rank[b]) +
                      " share CPU " + cpu_list_text(both));
    }
  return lines;
}

}  // namespace bws::run
