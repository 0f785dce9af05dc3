#pragma once
// The link probe's measurement, before the plan is final: the members (one
// rank per node, the link map's) time a window of messages to the next
// member while receiving one from the previous, as a step of the link map
// does with every link busy, at doubling sizes until the rule of
// links/LinksProbe.hpp stops it; then 8-byte shifts. Every decision is
// taken on figures the members agreed (the slowest member's times, the
// most buffered fraction), so all members probe the same sizes, and the
// result reaches every rank of `world`: every rank re-fits the same plan.
// Collective over `world`; all MPI through core/Communicator.
#include <vector>

#include "core/Communicator.hpp"
#include "links/LinksProbe.hpp"

namespace bws::links {

// member_ranks: the world ranks that measure (sorted); window: messages per
// window. A size some member cannot allocate ends the probe at the memory
// bound (agreed before any message of that size); no size at all, or fewer
// than 2 members: an empty probe (the plan keeps its assumed links).
LinkProbe probe_links(Communicator& world, const std::vector<int>& member_ranks, int window,
                      const ProbeBounds& bounds);

}  // namespace bws::links
