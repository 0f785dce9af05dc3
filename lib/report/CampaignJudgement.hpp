#pragma once
// A campaign's judgment: the surveys of its batches (jobs of a few nodes
// each, run as nodes of a busy partition became free) judged as one. Each
// node's values come from one batch (its latest); every node of a hardware
// cohort is judged against the whole cohort across batches with the flag
// rule of one survey (model/NodeFlags.hpp). Two things a batch keeps:
// - its in-job retest: a flag the campaign raises is confirmed or dismissed
//   by the retest rounds the batch ran for that node and metric (against the
//   campaign's threshold); a flag the batch did not retest stays "not
//   retested";
// - its own judgment where the batch as a whole measured differently (a
//   batch effect: a noisy hour, a busy file system): when the batch's
//   median node would itself be flagged against the other batches' nodes,
//   the batch is named and its nodes of that metric and cohort keep the
//   verdicts of their own survey (judged among the batch's peers).
// A batch effect needs 3 nodes of the cohort in the batch (fewer cannot
// tell a slow batch from one slow node) and 3 in the other batches.
// Flags that are not node metrics (the link map's, the DIMM population's)
// are kept as their batch judged them. Pure functions over Tables.
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "model/NodeFlags.hpp"

namespace bws::report {

inline constexpr const char* kBatchEffectsPath = "campaign/batch_effects";

struct CampaignBatch {
  std::string label;            // "job 1234" (what a line names)
  std::vector<Table> tables;    // the node metric tables, rows of the hosts this batch stands for
  Table flags;                  // the batch survey's own /flags (empty: it judged nothing)
  std::vector<std::string> hosts;  // the hosts this batch stands for (each host in one batch)
};

struct CampaignJudgement {
  Table flags;          // /flags of the campaign (model::make_flags_table's columns)
  Table batch_effects;  // kBatchEffectsPath: one row per batch, metric group and cohort judged
  std::vector<std::string> lines;  // one line per batch effect found
};

CampaignJudgement judge_campaign(const std::vector<CampaignBatch>& batches, const model::FlagSettings& settings,
                                 const model::NodeCohorts& cohorts);

}  // namespace bws::report
