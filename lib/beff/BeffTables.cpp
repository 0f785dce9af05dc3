#include "beff/BeffTables.hpp"

#include <limits>

#include "core/ResultColumns.hpp"

namespace bws::beff {
namespace {

constexpr std::size_t kKindWidth = 16;
constexpr std::size_t kReferenceWidth = 64;
constexpr std::size_t kPathWidth = 8;
constexpr std::size_t kDeviceWidth = 128;

// rank -1: a row of the whole ring, not of one rank.
constexpr int kAllRanks = -1;

}  // namespace

Table make_beff_results_table() {
  std::vector<Column> columns = leading_result_columns("method");
  columns.push_back(int_column("ring"));
  columns.push_back(text_column("ring_kind", kKindWidth));
  columns.push_back(int_column("ranks"));
  columns.push_back(int_column("message_bytes", "B"));  // L, to each neighbour per exchange
  columns.push_back(int_column("looplength"));          // exchanges per sample
  columns.push_back(int_column("repetition"));
  for (Column& c : closing_result_columns()) columns.push_back(std::move(c));
  columns.push_back(text_column("path", kPathWidth));  // host or device: added in schema 1.1, at the end
  return Table(kResultsPath, std::move(columns));
}

Table make_beff_sizes_table() {
  return Table(kSizesPath, {int_column("ring"), text_column("ring_kind", kKindWidth), int_column("ranks"),
                            int_column("message_bytes", "B"), int_column("looplength"),
                            text_column("method", kNameWidth), real_column("t_best_seconds", "s"),
                            real_column("t_exchange_seconds", "s"), real_column("b_Bps", "B/s"),
                            real_column("b_per_rank_Bps", "B/s"), real_column("model_b_Bps", "B/s"),
                            real_column("residual"), int_column("valid"), text_column("path", kPathWidth)});
}

Table make_beff_summary_table() {
  return Table(kSummaryPath,
               {int_column("ring"), text_column("ring_kind", kKindWidth), int_column("ranks"), int_column("sizes"),
                real_column("b_eff_Bps", "B/s"), real_column("b_eff_per_rank_Bps", "B/s"),
                real_column("model_b_eff_Bps", "B/s"), real_column("model_ratio"),
                real_column("latency_8B_seconds", "s"), real_column("hockney_alpha_seconds", "s"),
                real_column("hockney_beta_Bps", "B/s"), real_column("hockney_r2"),
                real_column("hockney_b_eff_Bps", "B/s"), text_column("reference", kReferenceWidth),
                real_column("reference_per_rank_Bps", "B/s"), real_column("efficiency"),
                real_column("min_efficiency"), int_column("scaling_passed"), int_column("scaling_enforced"),
                int_column("seed"), int_column("huge_pages"),
                int_column("valid"), text_column("path", kPathWidth), text_column("device", kDeviceWidth),
                // The quality gate (model/FitQuality.hpp) of the Hockney fit
                // and of --beff.model's channel model: added at the end; the
                // Hockney verdict of files without them is recomputed.
                text_column("hockney_verdict", model::kFitVerdictWidth),
                text_column("hockney_quality", model::kFitReasonWidth),
                text_column("model_verdict", model::kFitVerdictWidth),
                text_column("model_quality", model::kFitReasonWidth)});
}

Table make_beff_rings_table() {
  return Table(kRingsPath, {int_column("ring"), text_column("ring_kind", kKindWidth), int_column("seed"),
                            int_column("position"), int_column("rank"), text_column("path", kPathWidth)});
}

Table make_beff_ranks_table() {
  return Table(kRanksPath, {int_column("rank"), text_column("host", kHostWidth), int_column("ranks"),
                            real_column("b_eff_Bps", "B/s")});
}

std::string ring_label(int ring_index, RingKind kind) {
  if (kind == RingKind::Random) return "random ring " + std::to_string(ring_index);
  return std::string(ring_kind_name(kind)) + " ring";
}

void add_result_rows(Table& results, const RingMeasurement& m, const std::string& host, const PathLabel& path) {
  const int ranks = m.ring.ranks();
  for (const SizeMeasurement& size : m.sizes)
    for (const MethodSamples& method : size.methods)
      for (std::size_t r = 0; r < method.reps.size(); ++r) {
        const SampleTimes& t = method.reps[r];
        results.add_row({{"rank", kAllRanks},
                         {"host", host},
                         {"backend", path.backend()},
                         {"method", method_name(method.method)},
                         {"threads", 1},
                         {"ring", m.ring.index},
                         {"ring_kind", ring_kind_name(m.ring.kind)},
                         {"ranks", ranks},
                         {"message_bytes", size.message_bytes},
                         {"looplength", size.looplength},
                         {"repetition", r},
                         {"bytes", sample_bytes(ranks, size.message_bytes, size.looplength)},
                         {"t_min", t.t_min_seconds},
                         {"t_avg", t.t_avg_seconds},
                         {"t_max", t.t_max_seconds},
                         {"bandwidth", sample_bandwidth_Bps(ranks, size.message_bytes, size.looplength,
                                                            t.t_max_seconds)},
                         {"valid", method.payload.ok()},
                         {"path", path.path}});
      }
}

void add_size_rows(Table& sizes, const RingResult& ring, const PathLabel& path) {
  for (const SizeResult& s : ring.sizes)
    sizes.add_row({{"ring", ring.ring_index},
                   {"ring_kind", ring_kind_name(ring.kind)},
                   {"ranks", ring.ranks},
                   {"message_bytes", s.message_bytes},
                   {"looplength", s.looplength},
                   {"method", method_name(s.best_method)},
                   {"t_best_seconds", s.t_best_seconds},
                   {"t_exchange_seconds", s.t_exchange_seconds},
                   {"b_Bps", s.b_Bps},
                   {"b_per_rank_Bps", s.b_per_rank_Bps},
                   {"model_b_Bps", s.model_b_Bps},
                   {"residual", s.residual},
                   {"valid", s.valid},
                   {"path", path.path}});
}

void add_summary_row(Table& summary, const RingResult& ring, const SummaryExtras& e, const PathLabel& path) {
  const model::HockneyFit& fit = ring.hockney;
  const model::FitQuality quality = model::hockney_quality(fit);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  summary.add_row({{"ring", ring.ring_index},
                   {"ring_kind", ring_kind_name(ring.kind)},
                   {"ranks", ring.ranks},
                   {"sizes", ring.sizes.size()},
                   {"b_eff_Bps", ring.b_eff_Bps},
                   {"b_eff_per_rank_Bps", ring.b_eff_per_rank_Bps},
                   {"model_b_eff_Bps", e.model_b_eff_Bps},
                   {"model_ratio", e.model_ratio},
                   {"latency_8B_seconds", ring.latency_8B_seconds},
                   {"hockney_alpha_seconds", fit.valid ? fit.alpha_seconds : nan},
                   {"hockney_beta_Bps", fit.valid ? fit.beta_Bps : nan},
                   {"hockney_r2", fit.valid ? fit.r_squared : nan},
                   {"hockney_b_eff_Bps", ring.hockney_b_eff_Bps},
                   {"reference", e.reference},
                   {"reference_per_rank_Bps", e.reference_per_rank_Bps},
                   {"efficiency", e.efficiency},
                   {"min_efficiency", e.min_efficiency},
                   {"scaling_passed", e.scaling_passed},
                   {"scaling_enforced", e.scaling_enforced},
                   {"seed", static_cast<std::int64_t>(e.seed)},
                   {"huge_pages", e.huge_pages},
                   {"valid", ring.valid},
                   {"path", path.path},
                   {"device", path.device},
                   {"hockney_verdict", model::verdict_name(quality.verdict)},
                   {"hockney_quality", quality.reason},
                   {"model_verdict", e.model_verdict},
                   {"model_quality", e.model_quality}});
}

void add_ring_rows(Table& rings, const Ring& ring, std::uint64_t seed, const PathLabel& path) {
  for (std::size_t p = 0; p < ring.order.size(); ++p)
    rings.add_row({{"ring", ring.index},
                   {"ring_kind", ring_kind_name(ring.kind)},
                   {"seed", static_cast<std::int64_t>(seed)},
                   {"position", p},
                   {"rank", ring.order[p]},
                   {"path", path.path}});
}

void add_payload_checks(Table& checks, const RingMeasurement& m, const PathLabel& path) {
  const std::string ring = path.subject_prefix() + ring_label(m.ring.index, m.ring.kind);
  bool all_ok = true;
  for (const SizeMeasurement& size : m.sizes)
    for (const MethodSamples& method : size.methods) {
      const PayloadSummary& p = method.payload;
      if (p.ok()) continue;
      all_ok = false;
      std::string subject = ring + ", " + std::to_string(size.message_bytes) + " B, " + method_name(method.method) +
                            ": rank " + std::to_string(p.first_failing_rank);
      if (p.failing_ranks > 1) subject += " and " + std::to_string(p.failing_ranks - 1) + " more";
      subject += ": " + p.tally.describe();
      add_check(checks, {kPayloadCheck, subject, "validation", static_cast<double>(p.tally.total()), 0, 0, 0,
                         "messages", false});
    }
  if (all_ok)
    add_check(checks, {kPayloadCheck,
                       ring + ": " + std::to_string(m.sizes.size()) + " sizes x " +
                           std::to_string(m.sizes.empty() ? 0 : m.sizes.front().methods.size()) +
                           " methods, every received message checked",
                       "validation", 0, 0, 0, 0, "messages", true});
}

}  // namespace bws::beff
