#pragma once
// What rank 0 stores of a link map, made from the members' rows as a run
// makes it: each member's record (links::summarize_member) and, with a
// switch tree, the tree and every member's per-leaf medians. For the unit
// tests of the link verdicts, which inject the rows.
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "links/LinksExchange.hpp"
#include "links/LinksTables.hpp"
#include "model/LinkRows.hpp"
#include "model/SwitchTopology.hpp"

namespace bws::test_support {

inline std::vector<Table> stored_link_tables(const std::vector<links::MemberRows>& rows,
                                             const model::SwitchTopology* topology,
                                             const std::vector<std::string>& hosts) {
  std::vector<links::NodeRecord> records;
  for (std::size_t i = 0; i < rows.size(); ++i)
    records.push_back(links::summarize_member(rows[i], static_cast<int>(i), static_cast<int>(i), hosts[i]));
  links::LinksTree tree;
  if (topology) {
    const model::HostLeaves leaves = model::host_leaves(*topology, hosts);
    tree.leaves = leaves.leaves;
    tree.leaf_of_host = leaves.leaf_of_host;
    for (const std::string& s : topology->switches()) tree.switch_parents.emplace_back(s, topology->parent_of(s));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::vector<double> send(rows[i].send_Bps.begin(), rows[i].send_Bps.end());
      for (double m : model::per_leaf_medians(send, static_cast<int>(i), leaves.leaf_of_host, leaves.leaves.size()))
        tree.leaf_medians_Bps.push_back(m);
    }
  }
  return links::links_tables(records, "test plan", tree);
}

}  // namespace bws::test_support
