#include "load/LoadOptions.hpp"

namespace bws::load {

const OptionSchema<LoadOptions>& load_schema() {
  static const OptionSchema<LoadOptions> schema({
      bind_option(whole_option("load.elements", "auto", kMinElements, kMaxElements, "elements",
                               "load: doubles in the array each rank streams; 'auto' = 4x the rank's last-level "
                               "cache and >= 2^20, with all ranks of a node within 40% of its memory")
                      .or_auto()
                      .note("(within the node's memory)"),
                  &LoadOptions::elements),
      bind_option(list_option("load.kernels", "all", kernel_names(),
                              "load: likwid-bench kernels to time: load (sum += a[i]), store (a[i] = s), update "
                              "(a[i] = s * a[i]); a list or all")
                      .all("all")
                      .called("kernel"),
                  &LoadOptions::kernels),
      bind_option(whole_option("load.reps", "10", kMinReps, kMaxReps, "repetitions",
                               "load: timed passes of each kernel over the array; the first is a warm-up and "
                               "not counted")
                      .quick("3"),
                  &LoadOptions::reps),
  });
  return schema;
}

}  // namespace bws::load
