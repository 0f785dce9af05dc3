#include "roofline/KernelRoofline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/Report.hpp"

namespace bws::roofline {
namespace {

// 51 -> "51", 0.5 -> "0.5", 3.9 -> "3.9": counts and ratios as written.
std::string number(double x) { return significant(x, 4); }

std::string plural(double count, const char* noun) {
  return number(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace

double KernelDescription::imbalance() const {
  if (!adds || !muls) return 1;
  return model::imbalance_factor(*adds, *muls);
}

KernelDescription kernel_from_counts(const model::KernelCounts& c) {
  KernelDescription k;
  k.counts = c;
  k.ai = model::arithmetic_intensity(c);
  k.adds = c.adds;
  k.muls = c.muls;
  return k;
}

std::vector<std::string> kernel_lines(const KernelDescription& k) {
  std::vector<std::string> lines;
  if (k.counts) {
    const model::KernelCounts& c = *k.counts;
    lines.push_back("Kernel: " + plural(c.adds, "add") + ", " + plural(c.muls, "mul") + ", " +
                    plural(c.loads, "load") + ", " + plural(c.stores, "store") + ", " + number(c.word_bytes) +
                    "-byte words");
    lines.push_back("  AI = (#ADD + #MUL) / ((#LOAD + #STORE) x word bytes) = " + number(c.adds + c.muls) + " / " +
                    number((c.loads + c.stores) * c.word_bytes) + " = " + number(k.ai) + " FLOP/byte");
  } else {
    lines.push_back("Kernel: AI " + number(k.ai) + " FLOP/byte (given)");
  }
  if (k.adds && k.muls) {
    lines.push_back("  imbalance factor (#ADD + #MUL) / (2 max(#ADD, #MUL)) = " + number(*k.adds + *k.muls) + " / " +
                    number(2 * std::max(*k.adds, *k.muls)) + " = " + fixed(k.imbalance(), 4, "n/a"));
  } else {
    lines.push_back("  imbalance factor: 1 (no --adds/--muls given: adds and muls assumed to pair)");
  }
  return lines;
}

std::vector<std::string> ceiling_lines(const KernelDescription& k, const std::vector<CeilingPair>& ceilings) {
  std::vector<std::vector<std::string>> rows;
  for (const CeilingPair& c : ceilings) {
    const model::RooflineBound b = model::roofline_bound(k.ai, k.imbalance(), c.peak_flops, c.bandwidth_Bps);
    const bool known = std::isfinite(b.attainable);
    rows.push_back({c.ceiling, c.host, fixed(c.peak_flops / 1e9, 1, "n/a"), fixed(c.bandwidth_Bps / 1e9, 1, "n/a"),
                    fixed(b.balance, 2, "n/a"), known ? (b.memory_bound ? "memory" : "compute") : "-",
                    fixed(b.attainable / 1e9, 1, "n/a"), fixed(b.attainable_imbalanced / 1e9, 1, "n/a")});
  }
  return format_text_table({"ceiling", "host", "compute GFLOP/s", "bandwidth GB/s", "balance FLOP/B", "bound",
                            "attainable GFLOP/s", "with imbalance GFLOP/s"},
                           rows);
}

}  // namespace bws::roofline
