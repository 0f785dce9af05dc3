#include "bs/BsEstimate.hpp"

#include <cstdio>

namespace bws::bs {
namespace {

constexpr double kCacheOverMemory = 4;          // a point within the LLC streams ~4x as fast
constexpr double kCheckShareOfThreadRate = 0.5; // the compensated sum: half a thread's memory rate
constexpr double kEmptyCalls = 1000;            // BsCpuDevice.cpp: T0 from 1000 empty calls
constexpr double kSyncsPerRun = 3;              // Team::run and its two barriers
constexpr double kMeshBuildSecondsPerNode = 60e-9;  // HexMesh + CSR built on the host, per local node

double rate(double bytes, std::uint64_t llc_bytes, const MachineSpeed& s) {
  return bytes <= static_cast<double>(llc_bytes) ? kCacheOverMemory * s.memory_Bps : s.memory_Bps;
}

// One timed point of `bytes`: warm-up, reps, initialisation, the check.
double point_seconds(double bytes, int reps, std::uint64_t llc_bytes, const MachineSpeed& s) {
  const double r = rate(bytes, llc_bytes, s);
  return (reps + 1) * (bytes / r + kSyncsPerRun * s.thread_sync_seconds) + 3 * bytes / r +
         bytes / (kCheckShareOfThreadRate * s.thread_memory_Bps) + s.rank_barrier_seconds;
}

}  // namespace

TimeEstimate estimate_bs(const BsParams& p, std::uint64_t llc_bytes, const MachineSpeed& s) {
  double vector_seconds = 0, mesh_seconds = 0;
  std::size_t vector_points = 0, mesh_points = 0;
  for (const auto& points : p.vector_points)
    for (const BsVectorPoint& point : points) {
      vector_seconds += point_seconds(static_cast<double>(point.bytes), p.reps, llc_bytes, s);
      ++vector_points;
    }
  for (const BsDegreeSweep& sweep : p.mesh_sweeps)
    for (const BsMeshPoint& m : sweep.points) {
      mesh_seconds += static_cast<double>(m.local_nodes) * kMeshBuildSecondsPerNode;
      if (p.runs(BsTest::Gather)) mesh_seconds += point_seconds(static_cast<double>(m.gather_bytes), p.reps, llc_bytes, s);
      if (p.runs(BsTest::Scatter)) mesh_seconds += point_seconds(static_cast<double>(m.scatter_bytes), p.reps, llc_bytes, s);
      ++mesh_points;
    }
  const double fixed = kEmptyCalls * kSyncsPerRun * s.thread_sync_seconds +
                       static_cast<double>(p.vector_buffer_bytes + p.mesh_buffer_bytes) / s.first_touch_Bps;
  TimeEstimate e;
  e.seconds = vector_seconds + mesh_seconds + fixed;
  char terms[256];
  std::snprintf(terms, sizeof terms, "BS1-BS5 %zu points x %d reps: %s; BS6/BS7 %zu meshes: %s; T0 and first touch %s",
                vector_points, p.reps, duration_text(vector_seconds).c_str(), mesh_points,
                duration_text(mesh_seconds).c_str(), duration_text(fixed).c_str());
  e.terms = terms;
  return e;
}

}  // namespace bws::bs
