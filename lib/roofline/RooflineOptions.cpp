#include "roofline/RooflineOptions.hpp"

#include <iterator>

namespace bws::roofline {
namespace {

std::vector<std::string> isa_names() {
  std::vector<std::string> names;
  for (VectorIsa isa : kIsasWidestFirst) names.emplace_back(isa_name(isa));
  return names;
}

}  // namespace

const OptionSchema<RooflineOptions>& roofline_schema() {
  static const OptionSchema<RooflineOptions> schema({
      bind_option(one_of_option("roofline.isa", "auto", isa_names(),
                                "Roofline: instruction set of the FMA peak kernel: auto (the widest this CPU and OS "
                                "support) or one this CPU supports")
                      .or_auto()
                      .called("instruction set"),
                  &RooflineOptions::isa,
                  [](const OptionValue& v) {
                    return v.is_auto ? std::nullopt : std::optional<VectorIsa>(kIsasWidestFirst[v.choice]);
                  }),
      bind_option(real_option("roofline.min-time", "0.1", 1e-4, 60, "seconds",
                              "Roofline: seconds an FMA peak sample lasts at least (its loop count is calibrated)")
                      .quick("0.01"),
                  &RooflineOptions::min_time_seconds),
      bind_option(whole_option("roofline.reps", "5", 1, 1000, "repetitions",
                               "Roofline: timed samples of each kernel (FMA, GEMM, Triad) after one warm-up, the best "
                               "counts")
                      .quick("3"),
                  &RooflineOptions::reps),
      bind_option(whole_option("roofline.gemm-n", "auto", kMinGemmN, kMaxGemmN, "",
                               "Roofline: n of the n x n DGEMM/SGEMM each pinned thread runs (one BLAS thread each); "
                               "'auto' = 1024 (--quick: 512), halved until all ranks' matrices fit in 20% of the "
                               "node's memory. The Triad uses the --stream.elements, --stream.stores and "
                               "--stream.offset-bytes rules, in double")
                      .or_auto(),
                  &RooflineOptions::gemm_n),
  });
  return schema;
}

}  // namespace bws::roofline
