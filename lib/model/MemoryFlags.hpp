#pragma once
// Absolute memory-configuration flags, rows of /flags with rule "memory"
// (they need no cohort statistics and no retest: the firmware's DIMM table
// does not change between two runs): a DIMM configured below its rated
// speed or channels populated unevenly (the node's own findings, from
// /nodes/memory_findings), and a node that populates a different number of
// memory channels than most of its hardware cohort.
#include "core/Table.hpp"
#include "model/Cohorts.hpp"

namespace bws::model {

// nodes: /nodes/table; findings: /nodes/memory_findings (may be empty).
Table memory_flags(const Table& nodes, const Table& findings, const NodeCohorts& cohorts);

}  // namespace bws::model
