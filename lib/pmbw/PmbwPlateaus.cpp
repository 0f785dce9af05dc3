#include "pmbw/PmbwPlateaus.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "model/RobustStats.hpp"
#include "pmbw/PmbwRoutines.hpp"

namespace bws::pmbw {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double median(const std::vector<double>& v) { return model::median_of(v); }  // NaN for none

bool has_rows(const Table& t, int rank, const std::string& routine) {
  for (std::size_t r = 0; r < t.rows(); ++r)
    if (t.get_int(r, "rank") == rank && t.get_string(r, "routine") == routine) return true;
  return false;
}

}  // namespace

PmbwPlateaus find_plateaus(const Table& t, int rank, const PmbwCacheSizes& caches) {
  PmbwPlateaus p;
  p.l1_Bps = p.l2_Bps = p.ram_Bps = p.perm_ram_access_seconds = kNaN;
  // The routine: table order is widest first, so the first ScanRead
  // PtrUnrollLoop present is the widest one run.
  for (const PmbwRoutine& r : pmbw_routines()) {
    const std::string name = r.name;
    if (r.access != PmbwAccess::Scan || r.op != PmbwOp::Read || !has_rows(t, rank, name)) continue;
    if (p.scan_routine.empty()) p.scan_routine = name;
    if (r.unroll > 1 && !r.indexed) {
      p.scan_routine = name;
      break;
    }
  }
  for (const char* name : {"PermRead64UnrollLoop", "PermRead64SimpleLoop"})
    if (p.perm_routine.empty() && has_rows(t, rank, name)) p.perm_routine = name;

  if (!p.scan_routine.empty()) {
    for (std::size_t r = 0; r < t.rows(); ++r)
      if (t.get_int(r, "rank") == rank && t.get_string(r, "routine") == p.scan_routine)
        p.threads = std::max(p.threads, static_cast<int>(t.get_int(r, "threads")));
    struct Pt { std::uint64_t thread_bytes, test_bytes; double Bps; };
    std::vector<Pt> pts;
    for (std::size_t r = 0; r < t.rows(); ++r)
      if (t.get_int(r, "rank") == rank && t.get_string(r, "routine") == p.scan_routine &&
          t.get_int(r, "threads") == p.threads && t.get_int(r, "valid"))
        pts.push_back({static_cast<std::uint64_t>(t.get_int(r, "thread_bytes")),
                       static_cast<std::uint64_t>(t.get_int(r, "test_bytes")), t.get_double(r, "bandwidth")});
    auto median_where = [&](auto in) {
      std::vector<double> v;
      for (const Pt& x : pts)
        if (in(x)) v.push_back(x.Bps);
      return median(v);
    };
    const std::uint64_t l1 = caches.l1_bytes, l2 = caches.l2_bytes, llc = caches.llc_bytes;
    if (l1 > 0) {
      p.l1_Bps = median_where([&](const Pt& x) { return x.thread_bytes <= l1 / 2; });
      if (std::isnan(p.l1_Bps)) p.l1_Bps = median_where([&](const Pt& x) { return x.thread_bytes <= l1; });
    }
    if (l1 > 0 && l2 > l1) {
      p.l2_Bps = median_where([&](const Pt& x) { return x.thread_bytes >= 2 * l1 && x.thread_bytes <= l2 / 2; });
      if (std::isnan(p.l2_Bps)) p.l2_Bps = median_where([&](const Pt& x) { return x.thread_bytes > l1 && x.thread_bytes <= l2; });
    }
    if (llc > 0) {
      std::uint64_t smallest = 0;
      std::vector<double> v;
      for (const Pt& x : pts)
        if (x.test_bytes >= 4 * llc) {
          v.push_back(x.Bps);
          smallest = smallest == 0 ? x.test_bytes : std::min(smallest, x.test_bytes);
        }
      if (v.empty() && !pts.empty()) {
        const auto largest = std::max_element(pts.begin(), pts.end(),
                                              [](const Pt& a, const Pt& b) { return a.test_bytes < b.test_bytes; });
        if (largest->test_bytes > llc) {
          v.push_back(largest->Bps);
          smallest = largest->test_bytes;
        }
      }
      p.ram_Bps = median(v);
      p.ram_test_bytes = smallest;
    }
  }
  if (!p.perm_routine.empty()) {
    int fewest = std::numeric_limits<int>::max();
    for (std::size_t r = 0; r < t.rows(); ++r)
      if (t.get_int(r, "rank") == rank && t.get_string(r, "routine") == p.perm_routine)
        fewest = std::min(fewest, static_cast<int>(t.get_int(r, "threads")));
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (t.get_int(r, "rank") != rank || t.get_string(r, "routine") != p.perm_routine ||
          t.get_int(r, "threads") != fewest || !t.get_int(r, "valid"))
        continue;
      const auto area = static_cast<std::uint64_t>(t.get_int(r, "area_bytes"));
      if (area >= p.perm_area_bytes) {
        p.perm_area_bytes = area;
        p.perm_ram_access_seconds = t.get_double(r, "thread_access_seconds");
      }
    }
  }
  return p;
}

}  // namespace bws::pmbw
