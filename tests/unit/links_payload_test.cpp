// The link map's payload check and its per-node tables: a corrupt word,
// a stale message and a message from the wrong peer are counted; a member
// with bad messages fails the links.payload check; the per-node summary is
// the row's medians and lowest peer.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "links/LinksPayload.hpp"
#include "links/LinksTables.hpp"

namespace bws::links {
namespace {

TEST(LinksPayload, AnIntactMessageHasNoProblemsAndEveryChangeShows) {
  std::vector<std::byte> message(4096);
  const PayloadStamp stamp{2, 5, 3};
  stamp_payload(message, stamp);
  EXPECT_EQ(payload_problems(message, stamp), 0u);
  message[1000] ^= std::byte{0x10};
  EXPECT_EQ(payload_problems(message, stamp), 1u);
  message[1001] ^= std::byte{0x01};  // the same word
  message[4095] ^= std::byte{0x80};  // the last word
  EXPECT_EQ(payload_problems(message, stamp), 2u);
  stamp_payload(message, stamp);
  EXPECT_EQ(payload_problems(message, PayloadStamp{2, 5, 2}), 512u);  // stale: the last round's message
  EXPECT_EQ(payload_problems(message, PayloadStamp{1, 5, 3}), 512u);  // from another sender
  EXPECT_EQ(payload_problems(message, PayloadStamp{2, 4, 3}), 512u);  // meant for another receiver
}

TEST(LinksPayload, APartialLastWordIsCheckedToo) {
  std::vector<std::byte> message(13);
  const PayloadStamp stamp{0, 1, 1};
  stamp_payload(message, stamp);
  EXPECT_EQ(payload_problems(message, stamp), 0u);
  message[12] ^= std::byte{1};
  EXPECT_EQ(payload_problems(message, stamp), 1u);
  std::vector<std::byte> zeros(13);
  EXPECT_EQ(payload_problems(zeros, stamp), 2u);  // a receive that never arrived
}

MemberRows rows_of(std::vector<float> send, std::vector<float> recv) {
  MemberRows rows;
  rows.send_Bps = std::move(send);
  rows.recv_Bps = std::move(recv);
  rows.latency_s = {std::numeric_limits<float>::quiet_NaN(), 2e-6f, 4e-6f, 3e-6f};
  return rows;
}

TEST(LinksTables, ARowReducesToItsMediansAndLowestPeer) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // member 1 of 4: out to 0, 2, 3 = 10, 30, 20 GB/s; in from them = 5, 8, 6 GB/s
  MemberRows rows = rows_of({10e9f, nan, 30e9f, 20e9f}, {5e9f, nan, 8e9f, 6e9f});
  rows.latency_s = {2e-6f, nan, 4e-6f, 3e-6f};
  const NodeRecord r = summarize_member(rows, 1, 7, "node-b.example");
  EXPECT_NEAR(r.out_Bps, 20e9, 1e3);
  EXPECT_NEAR(r.in_Bps, 6e9, 1e3);
  EXPECT_EQ(r.worst_out_peer, 0);
  EXPECT_NEAR(r.worst_out_Bps, 10e9, 1e3);
  EXPECT_EQ(r.worst_in_peer, 0);
  EXPECT_NEAR(r.latency_s, 3e-6, 1e-12);
  EXPECT_EQ(r.world_rank, 7);

  const std::vector<Table> tables = links_tables({r, r}, "plan");
  ASSERT_EQ(tables.size(), 4u);  // no tree: no /links/switches, /links/leaf_medians
  EXPECT_EQ(tables[0].path(), kNodesPath);
  EXPECT_EQ(tables[0].rows(), 2u);
  EXPECT_EQ(tables[0].get_string(1, "host"), "node-b.example");  // '-' and '.' kept
  EXPECT_EQ(tables[0].get_int(1, "node"), 1);
  EXPECT_EQ(tables[1].path(), kHostsPath);
  EXPECT_EQ(tables[1].get_int(0, "rank"), 7);
  ASSERT_EQ(tables[2].rows(), 1u);
  EXPECT_EQ(tables[2].get_string(0, "check"), kPayloadCheck);
  EXPECT_EQ(tables[2].get_int(0, "passed"), 1);
  // Peers below 0.75 x the median: out 10e9 < 15e9 (peer 0), in 5e9 < 4.5e9 none.
  EXPECT_EQ(tables[3].path(), kLowPeersPath);
  ASSERT_EQ(tables[3].rows(), 2u);  // one out peer per record, two records
  EXPECT_EQ(tables[3].get_string(0, "direction"), "out");
  EXPECT_EQ(tables[3].get_int(0, "peer"), 0);
  EXPECT_EQ(tables[3].get_string(0, "peer_host"), "node-b.example");
  EXPECT_NEAR(tables[3].get_double(0, "Bps"), 10e9, 1e3);
  EXPECT_EQ(tables[1].get_string(0, "leaf"), "");
}

TEST(LinksTables, BadMessagesFailThePayloadCheckNamingNodeAndPeer) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  MemberRows good = rows_of({nan, 1e9f, 1e9f, 1e9f}, {nan, 1e9f, 1e9f, 1e9f});
  MemberRows bad = good;
  bad.payload_problems = 9;
  bad.bad_messages = 3;
  bad.first_bad_peer = 2;
  const std::vector<Table> tables =
      links_tables({summarize_member(good, 0, 0, "a"), summarize_member(bad, 0, 1, "b")}, "plan");
  const Table& checks = tables[2];
  ASSERT_EQ(checks.rows(), 1u);
  EXPECT_EQ(checks.get_int(0, "passed"), 0);
  EXPECT_EQ(checks.get_string(0, "kind"), "validation");
  EXPECT_DOUBLE_EQ(checks.get_double(0, "measured"), 3);
  const std::string subject = checks.get_string(0, "subject");
  EXPECT_NE(subject.find("node 1 (b): 3 messages with 9 wrong words, the first from node 2"), std::string::npos)
      << subject;
  EXPECT_EQ(tables[0].get_int(1, "payload_problems"), 9);
}

}  // namespace
}  // namespace bws::links
