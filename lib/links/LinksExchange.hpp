#pragma once
// One member's side of the link map (the schedule: links/LinksSchedule.hpp):
// round by round, with its partner of the round, the 8-byte ping-pongs,
// then each direction in turn (a verification exchange whose every word
// is checked, then the timed windows); the member's rows of the three
// matrices come out. Collective over the members' communicator; all MPI
// through core/Communicator.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/Communicator.hpp"
#include "core/SteadyClock.hpp"
#include "links/LinksPlan.hpp"

namespace bws::links {

struct MemberRows {
  // Column j: the pair with member j (NaN on the diagonal, and latency NaN
  // when it is off). send_Bps[j]: this member -> j as this member timed it
  // (from the start of the window to its sends' completion); recv_Bps[j]:
  // j -> this member as this member timed it (from its "ready" to its
  // receives' completion, less the pair's best 8-byte round trip);
  // latency_s[j]: half the best 8-byte round trip with j this member
  // timed (of the ping-pongs it started, and from its answers to j's next
  // pings).
  std::vector<float> send_Bps, recv_Bps, latency_s;
  std::uint64_t payload_problems = 0;  // words that differed from their stamp
  std::uint64_t bad_messages = 0;      // messages with at least one such word
  int first_bad_peer = -1;             // the member the first bad message came from
};

// Seconds on a steady clock from any fixed start. The link map reads
// core's steady_seconds; a test passes a simulated network's clock.
using SecondsClock = std::function<double()>;

// on_round(done, rounds) after each round of this member (sat out or not).
using RoundProgress = std::function<void(int done, int rounds)>;

MemberRows measure_links(Communicator& members, const LinksPlan& plan, const RoundProgress& on_round,
                         const SecondsClock& now = steady_seconds);

}  // namespace bws::links
