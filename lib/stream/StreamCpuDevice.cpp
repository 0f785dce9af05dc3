// STREAM's CPU backend: one NUMA-local buffer per rank holding the three
// arrays of every type (StreamLayout), first-touched and streamed by the
// pinned Team in the same shares (StreamTeamJobs).
#include <stdexcept>

#include "stream/StreamDevice.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamResults.hpp"
#include "stream/StreamTeamJobs.hpp"
#include "topology/NumaBuffer.hpp"
#include "topology/Team.hpp"

namespace bws::stream {
namespace {

template <class T>
class CpuArrays final : public StreamDeviceArrays {
 public:
  CpuArrays(topo::Team& team, void* buffer, const StreamTypeRun& run, std::size_t n)
      : team_(team), arrays_(arrays_in<T>(buffer, run.layout)), stores_(run.stores), n_(n) {
    initialize_on_team(team_, arrays_, n_);
  }
  std::string stores() const override { return std::string(store_name(stores_)); }
  std::string variant() const override { return ""; }
  double run_timed(StreamOp op, NodeSync& node_sync) override {
    if (op_spec(op).transfer) throw std::logic_error("stream: the CPU backend has no transfers");
    return time_kernel_on_team(team_, node_sync, arrays_, n_, stores_, kernel_of(op));
  }
  StreamValidation validate(int reps, const StreamValidationRule& rule) override {
    return validate_on_team(team_, arrays_, n_, reps, rule);
  }

 private:
  topo::Team& team_;
  StreamArrays<T> arrays_;
  StoreKind stores_;
  std::size_t n_;
};

class CpuStreamRun final : public StreamDeviceRun {
 public:
  CpuStreamRun(StreamParams params, const NodeContext& node) : params_(std::move(params)), topology_(&node.topology) {}

  std::string describe() const override { return describe_stream(params_); }
  std::uint64_t memory_bytes() const override { return params_.buffer_bytes; }
  std::uint64_t elements(StreamType) const override { return params_.elements; }
  StreamDeviceInfo info(const topo::Team& team) const override {
    return {"cpu", "cpu", team.size(), kRateCeilingPerThreadBps * team.size(), false};
  }
  void prepare(topo::Team& team) override {
    buffer_ = topo::NumaBuffer(*topology_, params_.buffer_bytes);
    // The first type's arrays, first-touched now: allocation is not timed.
    if (!params_.runs.empty()) make(team, params_.runs.front().type);
    fresh_ = true;
  }
  StreamDeviceArrays& arrays(topo::Team& team, StreamType type) override {
    if (buffer_.data() == nullptr) throw std::logic_error("stream: run() called before prepare()");
    if (!(fresh_ && current_type_ == type)) make(team, type);
    fresh_ = false;  // the kernels change the arrays: a later request initialises again
    return *current_;
  }
  void release() override {
    current_.reset();
    buffer_ = topo::NumaBuffer();
    fresh_ = false;
  }

 private:
  // Arrays of all types share the buffer; each type's layout is written anew
  // by the same threads (the pages keep the NUMA node of their first touch).
  void make(topo::Team& team, StreamType type) {
    for (const StreamTypeRun& r : params_.runs) {
      if (r.type != type) continue;
      if (type == StreamType::Double)
        current_ = std::make_unique<CpuArrays<double>>(team, buffer_.data(), r, params_.elements);
      else
        current_ = std::make_unique<CpuArrays<float>>(team, buffer_.data(), r, params_.elements);
      current_type_ = type;
      return;
    }
    throw std::logic_error("stream: type not planned");
  }

  StreamParams params_;
  const topo::Topology* topology_;
  topo::NumaBuffer buffer_;
  std::unique_ptr<StreamDeviceArrays> current_;
  StreamType current_type_ = StreamType::Double;
  bool fresh_ = false;  // current_ holds its initial values (made by prepare)
};

class CpuStreamBackend final : public StreamBackend {
 public:
  std::unique_ptr<StreamDeviceRun> plan(const Config& /*config*/, const StreamOptions& options, const NodeContext& node,
                                        const StreamCommonParams& common) const override {
    return std::make_unique<CpuStreamRun>(plan_stream(options, node, common), node);
  }
};

}  // namespace

std::shared_ptr<const StreamBackend> cpu_stream_backend() { return std::make_shared<CpuStreamBackend>(); }

}  // namespace bws::stream
