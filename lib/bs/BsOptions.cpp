#include "bs/BsOptions.hpp"

#include <algorithm>
#include <cctype>

#include "core/BackendList.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"

namespace bws::bs {
namespace {

constexpr std::uint64_t kLargestBytes = UINT64_C(1) << 50;

// "1..7", "1-7", "1,4,7" or a mix ("1..3,7"): BS's own grammar; ascending, no repeats.
std::vector<int> read_degrees(const OptionValue& v) {
  const std::string allowed = "; allowed: degrees " + std::to_string(kMinDegree) + ".." +
                              std::to_string(kMaxDegree) + " as a list (1,4,7) or a range (1..7)";
  std::vector<int> degrees;
  auto number = [&](const std::string& t) {
    const std::string s = trim_text(t);
    if (s.empty() || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
      throw UsageError(v.flag + ": " + quoted_input(v.text) + " is not a list of degrees" + allowed);
    std::uint64_t degree = 0;
    if (read_whole_number(s, degree) != NumberRead::Ok || degree < kMinDegree || degree > kMaxDegree)
      throw UsageError(v.flag + ": degree " + quoted_input(s) + " is out of range" + allowed);
    return static_cast<int>(degree);
  };
  for (const std::string& item : split_comma_list(v.text)) {
    const std::string t = trim_text(item);
    if (const auto range = split_range_item(t)) {
      const int lo = number(range->first), hi = number(range->second);
      if (lo > hi) throw UsageError(v.flag + ": range " + quoted_input(t) + " is empty" + allowed);
      for (int d = lo; d <= hi; ++d) degrees.push_back(d);
    } else {
      degrees.push_back(number(t));
    }
  }
  std::sort(degrees.begin(), degrees.end());
  degrees.erase(std::unique(degrees.begin(), degrees.end()), degrees.end());
  return degrees;
}

// auto, 0 (fit every point) or a size: 0 is no size to parse_size.
std::optional<std::uint64_t> read_fit_min_bytes(const OptionValue& v) {
  if (lower_text(v.text) == "auto") return std::nullopt;
  if (v.text == "0") return 0;
  try {
    return parse_size(v.text, v.flag);
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + "; allowed: auto, 0, or a size up to --bs.max-bytes");
  }
}

// The tests in test order, each once (bs_spec's order is BsTest's).
std::vector<BsTest> read_tests(const OptionValue& v) {
  std::vector<BsTest> tests;
  for (std::size_t c : v.choices) tests.push_back(kBsTests[c].test);
  std::sort(tests.begin(), tests.end());
  tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
  return tests;
}

}  // namespace

const OptionSchema<BsOptions>& bs_schema() {
  static const std::vector<std::string> kTestChoices = [] {
    std::vector<std::string> names;
    for (const BsTestSpec& s : kBsTests) names.push_back(s.option_name);
    return names;
  }();
  static const std::string kTestsAll = [] {
    std::string text;
    for (const std::string& n : kTestChoices) text += (text.empty() ? "" : ",") + n;
    return text;
  }();
  static const OptionSchema<BsOptions> schema({
      bind_option(backend_list_option("bs.backend", "BS", "double precision; 'auto' sizes scale with its global memory cache"),
                  &BsOptions::backends),
      bind_option(list_option("bs.tests", kTestsAll, kTestChoices,
                              "BS: the streaming tests to run: bs1 (copy), bs2 (axpy), bs3 (norm), bs4 (dot), bs5 "
                              "(fused CG update), bs6 (gather), bs7 (scatter)")
                      .all("all")
                      .called("test"),
                  &BsOptions::tests, read_tests),
      bind_option(bytes_option("bs.min-bytes", "32K", 1, kLargestBytes,
                               "BS: smallest total bytes of the sweep (a size: 32K, 1M; K/M/G = x1024)")
                      .note("(up to --bs.max-bytes)"),
                  &BsOptions::min_bytes),
      bind_option(bytes_option("bs.max-bytes", "auto", 1, kLargestBytes,
                               "BS: largest total bytes of the sweep; 'auto' = max(16x the rank's last-level cache, 64 "
                               "MiB), lowered until all ranks of a node need at most 40% of its memory (--quick: max(8x "
                               "LLC, 16 MiB))")
                      .or_auto()
                      .note("(from --bs.min-bytes up to what fits in the node's memory)"),
                  &BsOptions::max_bytes),
      bind_option(text_option("bs.fit-min-bytes", "auto",
                              "BS: the T0/Wmax fit uses the sizes of at least this many bytes; 'auto' = the plateau "
                              "above the rank's last-level cache, where the bandwidth has stopped changing with size "
                              "(a line through the cache and DRAM regimes at once describes none of them)")
                      .note("auto, 0 (fit every point), or a size up to --bs.max-bytes"),
                  &BsOptions::fit_min_bytes, read_fit_min_bytes),
      bind_option(whole_option("bs.points", "24", kMinPoints, kMaxPoints, "",
                               "BS: sizes in the geometric sweep")
                      .quick(std::to_string(kQuickPoints)),
                  &BsOptions::points),
      bind_option(whole_option("bs.reps", "20", kMinReps, kMaxReps, "",
                               "BS: timed runs per size after one warm-up run")
                      .quick(std::to_string(kQuickReps)),
                  &BsOptions::reps),
      bind_option(text_option("bs.degrees", "1..7",
                              "BS6/BS7: polynomial degrees N of the hexahedral mesh, a list (1,4,7) or a range (1..7)")
                      .note("degrees 1..15")
                      .quick("1,4,7"),
                  &BsOptions::degrees, read_degrees),
      bind_option(flag_option("bs.mask-boundary", false,
                              "BS6/BS7: mask the boundary nodes (all-Dirichlet: ids -1, skipped; Ng = (KN-1)^3)"),
                  &BsOptions::mask_boundary),
  });
  return schema;
}

}  // namespace bws::bs
