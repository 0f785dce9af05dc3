#include "beff/BeffChannelCheck.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws::beff {
namespace {

constexpr const char* kAllowed =
    "off, 520n, 520n-ideal, or c,w,f,lambda[,s] (channels >= 1, bytes per channel and clock >= 1, clock in Hz > 0, "
    "latency in s >= 0, sequential factor > 0, default 1)";

// Reads one option value's text; every refusal names `flag_`.
class ModelText {
 public:
  explicit ModelText(std::string flag) : flag_(std::move(flag)) {}

  [[noreturn]] void refuse(const std::string& why) const {
    throw UsageError(flag_ + ": " + why + "; allowed: " + kAllowed);
  }

  std::uint32_t whole(const std::string& text, const char* what) const {
    const std::string t = trim_text(text);
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 9)
      refuse(std::string(what) + " " + quoted_input(t) + " is not a whole number from 1 to 999999999");
    const auto v = static_cast<std::uint32_t>(std::stoul(t));
    if (v < 1) refuse(std::string(what) + " must be >= 1");
    return v;
  }

  double real(const std::string& text, const char* what) const {
    const std::string t = trim_text(text);
    double value = 0;
    const NumberRead read = read_real_number(t, value);
    if (read == NumberRead::NotANumber) refuse(std::string(what) + " " + quoted_input(t) + " is not a number");
    if (read == NumberRead::OutOfRange) refuse(std::string(what) + " " + quoted_input(t) + " is out of range");
    return value;
  }

 private:
  std::string flag_;
};

// "%.6g" of a figure.
std::string printf_number(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

}  // namespace

ChannelModelChoice read_channel_model(const OptionValue& v) {
  const std::string t = lower_text(trim_text(v.text));
  if (t.empty() || t == "off") return {};
  if (t == kModelPreset520N) return {model::kBittware520NMeasured, t};
  if (t == kModelPreset520NIdeal) return {model::kBittware520N, t};
  const ModelText in(v.flag);
  const std::vector<std::string> parts = split_comma_list(t);
  if (parts.size() != 4 && parts.size() != 5)
    in.refuse(quoted_input(t) + " is neither a preset nor 4 or 5 numbers");
  model::ChannelModelParams p;
  p.channels = in.whole(parts[0], "c");
  p.channel_width_bytes = in.whole(parts[1], "w");
  p.frequency_Hz = in.real(parts[2], "f");
  p.latency_seconds = in.real(parts[3], "lambda");
  p.sequential_factor = parts.size() == 5 ? in.real(parts[4], "s") : 1.0;
  if (!(std::isfinite(p.frequency_Hz) && p.frequency_Hz > 0)) in.refuse("f must be > 0 Hz");
  if (!(std::isfinite(p.latency_seconds) && p.latency_seconds >= 0)) in.refuse("lambda must be >= 0 s");
  if (!(std::isfinite(p.sequential_factor) && p.sequential_factor > 0)) in.refuse("s must be > 0");
  return {p, t};
}

ChannelModelCheck channel_model_check(const RingResult& ring, const model::ChannelModelParams& params,
                                      const std::string& label) {
  std::vector<std::uint64_t> sizes;
  std::vector<double> measured_seconds;
  for (const SizeResult& s : ring.sizes) {
    sizes.push_back(s.message_bytes);
    measured_seconds.push_back(s.t_exchange_seconds);
  }
  ChannelModelCheck c;
  c.quality = model::channel_model_quality(params, sizes, measured_seconds);
  c.expected_b_eff_Bps = sizes.empty() || ring.ranks < 1
                             ? std::nan("")
                             : model::channel_model_beff_pairs_Bps(params, sizes, static_cast<std::uint64_t>(ring.ranks));
  c.ratio = ring.b_eff_Bps / c.expected_b_eff_Bps;
  const bool passed = c.ratio >= kModelMinRatio && c.ratio <= kModelMaxRatio;  // NaN fails
  // The verdict on the ratio first, the model's quality last: the subject
  // column keeps 160 bytes, and a cut reason hurts less than a cut verdict.
  const bool withheld = c.quality.verdict == model::FitVerdict::Withheld;
  const std::string model_figure = withheld ? "" : "'s " + printf_number(c.expected_b_eff_Bps) + " B/s";
  std::string subject = std::string(ring_kind_name(ring.kind)) + " ring of " + std::to_string(ring.ranks) +
                        " ranks: b_eff " + printf_number(ring.b_eff_Bps) + " B/s against the " + label + " model" +
                        model_figure;
  if (!passed) subject += c.ratio < kModelMinRatio ? ": below the model" : ": above the model";
  if (c.quality.verdict != model::FitVerdict::Result)
    subject += std::string(withheld ? " (withheld: " : " (poor fit: ") + c.quality.reason + ")";
  c.check = {"beff.model",  // option-name-ok: the check's name (as --beff.model's)
             subject, "model", c.ratio, 1.0, kModelMinRatio, kModelMaxRatio, "", passed};
  return c;
}

}  // namespace bws::beff
