#include "model/UplinkVerdicts.hpp"

#include <cmath>

#include "model/RobustStats.hpp"

namespace bws::model {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : "->") + n;
  return out;
}

// Block medians: per leaf pair (a, b), the upper median over a's hosts of
// their (upper) median send to b's hosts. Upper, as per_leaf_medians: a
// slow uplink slows every host of the leaf, a slow NIC only its own, and
// in a leaf of two the plain median (the mean) of one slow and one normal
// host read as a slow uplink.
std::vector<std::vector<double>> block_medians(const LinkMapSummary& map, const std::vector<bool>& excluded) {
  const std::size_t S = map.leaves.leaves.size();
  std::vector<std::vector<std::vector<double>>> values(S, std::vector<std::vector<double>>(S));
  for (std::size_t i = 0; i < map.hosts.size() && i < map.leaf_medians.size(); ++i) {
    const int a = i < map.leaves.leaf_of_host.size() ? map.leaves.leaf_of_host[i] : -1;
    if (a < 0 || (i < excluded.size() && excluded[i]) || map.leaf_medians[i].size() != S) continue;
    for (std::size_t b = 0; b < S; ++b)
      if (std::isfinite(map.leaf_medians[i][b]))
        values[static_cast<std::size_t>(a)][b].push_back(map.leaf_medians[i][b]);
  }
  std::vector<std::vector<double>> blocks(S, std::vector<double>(S));
  for (std::size_t a = 0; a < S; ++a)
    for (std::size_t b = 0; b < S; ++b) blocks[a][b] = upper_median_of(values[a][b]);
  return blocks;
}

}  // namespace

std::string verdict_percent(double fraction) { return std::to_string(std::lround(100 * fraction)) + " %"; }

UplinkJudgement judge_uplinks(const LinkMapSummary& map, const std::vector<bool>& excluded_hosts,
                              const FlagRule& rule) {
  const std::size_t S = map.leaves.leaves.size();
  UplinkJudgement j;
  j.blocks = block_medians(map, excluded_hosts);
  j.explained.assign(S, std::vector<bool>(S, false));
  j.leaf_blamed.assign(S, false);
  if (!map.topology || S < 2) return j;

  // Every measured block, the within-leaf ones included, is the cohort.
  std::vector<double> values;
  std::vector<std::pair<std::size_t, std::size_t>> where;
  for (std::size_t a = 0; a < S; ++a)
    for (std::size_t b = 0; b < S; ++b)
      if (std::isfinite(j.blocks[a][b]) && j.blocks[a][b] > 0) {
        values.push_back(j.blocks[a][b]);
        where.emplace_back(a, b);
      }
  const std::vector<CohortVerdict> judged = judge_cohort(values, true, rule);
  std::vector<std::vector<bool>> low(S, std::vector<bool>(S, false));
  std::vector<std::vector<double>> reference(S, std::vector<double>(S, std::nan("")));
  for (std::size_t k = 0; k < judged.size(); ++k) {
    const auto [a, b] = where[k];
    low[a][b] = a != b && judged[k].flagged();  // a slow leaf switch itself is not an uplink
    reference[a][b] = judged[k].peer_median;
  }

  const std::vector<std::string>& names = map.leaves.leaves;
  // A leaf whose every block out of it (into it) is low: its uplink.
  for (std::size_t x = 0; x < S; ++x) {
    int out_blocks = 0, out_low = 0, in_blocks = 0, in_low = 0;
    for (std::size_t y = 0; y < S; ++y) {
      if (y == x) continue;
      if (std::isfinite(j.blocks[x][y])) ++out_blocks, out_low += low[x][y];
      if (std::isfinite(j.blocks[y][x])) ++in_blocks, in_low += low[y][x];
    }
    const bool out = out_blocks >= kMinBlocksForLeafUplink && out_low == out_blocks;
    const bool in = in_blocks >= kMinBlocksForLeafUplink && in_low == in_blocks;
    if (!out && !in) continue;
    std::vector<double> measured, expected, out_fractions, in_fractions;
    for (std::size_t y = 0; y < S; ++y) {
      if (y == x) continue;
      if (out && low[x][y]) {
        measured.push_back(j.blocks[x][y]), expected.push_back(reference[x][y]);
        out_fractions.push_back(j.blocks[x][y] / reference[x][y]);
        j.explained[x][y] = true;
      }
      if (in && low[y][x]) {
        measured.push_back(j.blocks[y][x]), expected.push_back(reference[y][x]);
        in_fractions.push_back(j.blocks[y][x] / reference[y][x]);
        j.explained[y][x] = true;
      }
    }
    j.leaf_blamed[x] = true;
    const std::string uplink = map.topology->uplink_of(names[x]);
    LinkVerdict v{kLinksUplink, uplink.empty() ? names[x] : uplink, median_of(measured), median_of(expected), 0, ""};
    v.fraction = v.measured_Bps / v.expected_Bps;
    v.text = "uplink of leaf " + names[x] + (uplink.empty() ? "" : " (" + uplink + ")") + ":";
    if (out) v.text += " " + names[x] + "->other leaves at " + verdict_percent(median_of(out_fractions));
    if (out && in) v.text += ",";
    if (in) v.text += " other leaves->" + names[x] + " at " + verdict_percent(median_of(in_fractions));
    v.text += " of the median block";
    j.verdicts.push_back(std::move(v));
  }
  // The other low blocks: the path between two leaves.
  for (std::size_t a = 0; a < S; ++a)
    for (std::size_t b = 0; b < S; ++b) {
      if (!low[a][b] || j.explained[a][b]) continue;
      j.explained[a][b] = true;
      j.leaf_blamed[a] = j.leaf_blamed[b] = true;
      LinkVerdict v{kLinksUplink, names[a] + "->" + names[b], j.blocks[a][b], reference[a][b], 0, ""};
      v.fraction = v.measured_Bps / v.expected_Bps;
      const std::string path = joined(map.topology->path_between(names[a], names[b]));
      v.text = "uplinks between leaf " + names[a] + " and leaf " + names[b] + (path.empty() ? "" : " (" + path + ")") +
               ": " + names[a] + "->" + names[b] + " pairs at " + verdict_percent(v.fraction) + " of the median block";
      j.verdicts.push_back(std::move(v));
    }
  return j;
}

}  // namespace bws::model
