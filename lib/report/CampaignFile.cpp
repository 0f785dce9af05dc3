#include "report/CampaignFile.hpp"

namespace bws::report {

bool is_campaign_file(const h5::ResultReader& file) {
  return file.has_attribute("/", "file_kind") && file.attribute_text("/", "file_kind") == kCampaignFileKind;
}

CampaignNode campaign_node(const h5::ResultReader& file, const std::string& host) {
  CampaignNode node;
  if (!file.exists(std::string("/") + kCampaignNodesPath)) return node;
  const Table nodes = file.read_table(kCampaignNodesPath);
  for (std::size_t r = 0; r < nodes.rows(); ++r) {
    if (nodes.get_string(r, "host") != host) continue;
    node.listed = true;
    node.covered = nodes.get_int(r, "covered") != 0;
    node.job = nodes.get_string(r, "job");
    node.created_utc = nodes.get_string(r, "created_utc");
    break;
  }
  return node;
}

}  // namespace bws::report
