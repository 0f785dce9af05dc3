#pragma once
// Binding the calling thread to its planned PU and checking where it runs.
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::topo {

// Binds the calling thread to slot.pu_os_index (nothing when it is -1) and
// reports the CPU it then runs on. Never throws for a failed binding: the
// failure is the binding's warning. `topology` must be this system's when
// the slot is bound.
ThreadBinding bind_calling_thread(const Topology& topology, const ThreadSlot& slot, int thread);

}  // namespace bws::topo
