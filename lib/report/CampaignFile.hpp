#pragma once
// The file `bwreport campaign` writes: a survey file in shape (/nodes/table,
// the node metric tables, /flags, /config), with root attribute file_kind =
// "campaign" and the campaign's own tables. What a reader needs to know of
// it beyond a survey's: where and when each node was measured.
#include <string>

#include "h5/ResultFile.hpp"

namespace bws::report {

inline constexpr const char* kCampaignFileKind = "campaign";
inline constexpr const char* kCampaignBatchesPath = "campaign/batches";
inline constexpr const char* kCampaignNodesPath = "campaign/nodes";
// bwreport campaign's exit code when a target was not covered (as verdict's "not surveyed").
inline constexpr int kCampaignNotCovered = 4;

bool is_campaign_file(const h5::ResultReader& file);

// A host's row of /campaign/nodes: covered by which batch (its Slurm job)
// and when that batch began; `listed` false: the campaign never named it.
struct CampaignNode {
  bool listed = false;
  bool covered = false;
  std::string job;
  std::string created_utc;
};
CampaignNode campaign_node(const h5::ResultReader& file, const std::string& host);

}  // namespace bws::report
