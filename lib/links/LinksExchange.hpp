#pragma once
// One member's side of the link map: for every step of the shift pattern a
// verification exchange (stamped payload, every word checked), then the
// timed windows, then the 8-byte latency shifts; the member's rows of the
// three matrices come out. Collective over the members' communicator; all
// MPI through core/Communicator.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/Communicator.hpp"
#include "links/LinksPlan.hpp"

namespace bws::links {

struct MemberRows {
  // Column j: the pair with member j (NaN on the diagonal, and latency NaN
  // when it is off). send_Bps[j]: this member -> j as this member timed it;
  // recv_Bps[j]: j -> this member as this member timed it.
  std::vector<float> send_Bps, recv_Bps, latency_s;
  std::uint64_t payload_problems = 0;  // words that differed from their stamp
  std::uint64_t bad_messages = 0;      // messages with at least one such word
  int first_bad_peer = -1;             // the member the first bad message came from
};

// on_step(k) after step k (1..N-1) of this member.
MemberRows measure_links(Communicator& members, const LinksPlan& plan, const std::function<void(int)>& on_step);

}  // namespace bws::links
