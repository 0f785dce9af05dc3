#include "beff/BeffOptions.hpp"

#include "core/OptionText.hpp"
#include "model/MessageSizes.hpp"

namespace bws::beff {
namespace {

constexpr std::uint64_t kMaxSizeBytes = UINT64_C(1) << 50;  // the memory check in plan_beff is the real limit
constexpr std::uint64_t kMaxSeed = (std::uint64_t{1} << 63) - 1;  // seeds are stored as 64-bit signed integers
const char* const kMemoryNote = "(and within memory: 4 buffers per rank, all ranks of a node within 40% of it)";

// --beff.max-bytes, and whether it holds its default's value: --beff.sizes
// may only be given beside the default.
OptionField<BeffOptions> max_bytes_field(OptionSpec spec) {
  const std::string default_text = spec.default_text;
  const std::uint64_t default_bytes = parse_option_value(spec, default_text, "--" + spec.name).whole;
  return {std::move(spec),
          [default_text, default_bytes](BeffOptions& o, const OptionValue& v) {
            o.max_bytes = v.whole;
            o.max_bytes_is_default = v.whole == default_bytes;
            o.max_bytes_default = default_text;
          },
          [](const BeffOptions& o) -> const void* { return &o.max_bytes; }};
}

}  // namespace

const char* path_name(BeffPath path) { return path == BeffPath::Host ? "host" : "device"; }

const OptionSchema<BeffOptions>& beff_schema() {
  static const OptionSchema<BeffOptions> schema({
      max_bytes_field(bytes_option("beff.max-bytes", "1M", model::beff_smallest_max_bytes(), kMaxSizeBytes,
                                   "b_eff: the largest message size L; the 21 sizes are 1 B..4 KiB doubling, then "
                                   "4 KiB*a^k (k=1..8) with a = (max/4 KiB)^(1/8), so 1M gives a = 2 (K/M/G = x1024)")
                          .note(kMemoryNote)),
      bind_option(bytes_list_option("beff.sizes", "", 1, kMaxSizeBytes,
                                    "b_eff: an explicit comma list of message sizes instead of the 21 (e.g. 8,1K,1M; "
                                    "K/M/G = x1024); empty = the 21 sizes")
                      .note(kMemoryNote),
                  &BeffOptions::sizes_bytes),
      bind_option(whole_option("beff.random-rings", "3", 0, 1000, "rings",
                               "b_eff: random rings measured after the natural one (rank order)"),
                  &BeffOptions::random_rings),
      bind_option(whole_option("beff.seed", "12345", 0, kMaxSeed, "",
                               "b_eff: seed of the random rings (std::mt19937_64 on rank 0), or auto (from the "
                               "clock); the seed used is stored in /beff/summary and /beff/rings")
                      .or_auto(),
                  &BeffOptions::seed),
      bind_option(real_option("beff.min-time", "0.01", 0, 60, "seconds",
                              "b_eff: seconds one sample (looplength exchanges) lasts at least, the loop length "
                              "calibrated per size")
                      .above_min()
                      .quick("0.001"),
                  &BeffOptions::min_time_seconds),
      bind_option(whole_option("beff.reps", "10", 1, 100000, "repetitions",
                               "b_eff: timed repetitions per ring, size and method, each after a barrier; the best "
                               "counts"),
                  &BeffOptions::reps),
      bind_option(list_option("beff.methods", "sendrecv,nonblocking", {"sendrecv", "nonblocking"},
                              "b_eff: exchange methods, the better kept per size: sendrecv (two MPI_Sendrecv), "
                              "nonblocking (MPI_Irecv x2, MPI_Isend x2, MPI_Waitall)")
                      .called("method"),
                  &BeffOptions::methods),
      bind_option(real_option("beff.min-efficiency", "0.8", 0, 1, "(a fraction of linear scaling)",
                              "b_eff: the linear-scaling check passes when E(n) = b_eff(n) / (n x per-rank b_eff of "
                              "a 2-rank ring) is at least this")
                      .above_min(),
                  &BeffOptions::min_efficiency),
      bind_option(one_of_option("beff.path", "host", {"host", "device"},
                                "b_eff: where messages live: host (host memory, as HPCC) or device (OpenCL device "
                                "buffers: each message is read from the device, sent, received and written to the "
                                "neighbour's device inside the timed loop, HPCC_FPGA's PCIe path; the device is "
                                "chosen by --ocl.platform and --ocl.device, per node by local rank; device needs a "
                                "build with OpenCL)")
                      .called("path"),
                  &BeffOptions::path),
      bind_option(flag_option("beff.huge-pages", true,
                              "b_eff: request 2 MiB pages for the message buffers (on) or leave 4 KiB pages (off: "
                              "what a plain malloc gives, as hpcc and OSU use)"),
                  &BeffOptions::huge_pages),
      bind_option(text_option("beff.model", "off",
                              "b_eff: check the natural ring's b_eff against HPCC_FPGA b_eff's channel model, expected = "
                              "ranks x mean over the sizes of 2L / (s (ceil(L/(c w))/f + lambda)); passes when "
                              "measured/expected is in 0.90..1.05 (a 'model' check: exit 3); off, 520n (BittWare 520N "
                              "as synthesized: c=2, w=32 B, f=156.25e6 Hz, lambda=520e-9 s, s=2), 520n-ideal (s=1), "
                              "or c,w,f,lambda[,s] (channels, bytes per channel and clock, Hz, seconds)"),
                  &BeffOptions::channel_model, read_channel_model),
  });
  return schema;
}

}  // namespace bws::beff
