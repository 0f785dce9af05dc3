// Device STREAM as HPCC_FPGA runs it, STREAM's device interface
// for the ocl backend (stream/StreamDevice.hpp): per replication its own
// queue and its own A, B, C buffers (a contiguous part of each array); the
// replications' kernels are enqueued behind one user event and released
// together, and the time runs on the host from the release until every
// replication's kernel has completed. PCI write/read copy every
// replication's three parts, timed from the first enqueue to the last
// queue's finish.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#include "core/Errors.hpp"
#include "ocl/OclStreamKernels.hpp"
#include "ocl/cl/OclCl.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::ocl {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

template <class T>
struct HostArray {
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> data;
  explicit HostArray(std::uint64_t n) {
    const std::uint64_t bytes = (n * sizeof(T) + 4095) / 4096 * 4096;
    data.reset(static_cast<T*>(std::aligned_alloc(4096, bytes)));
    if (!data) throw RuntimeFailure("cannot allocate " + std::to_string(bytes) + " B of host memory for STREAM's arrays");
  }
  T* get() const { return data.get(); }
};

enum class Array { A = 0, B = 1, C = 2 };

template <class T>
class StreamRunner final : public stream::StreamDeviceArrays {
 public:
  StreamRunner(std::shared_ptr<OclDevice> device, const OclStreamParams& params)
      : owner_(std::move(device)),
        dev_(static_cast<const OclClDevice&>(*owner_)),
        p_(params),
        per_rep_(params.elements_per_replication()),
        a_(params.elements),
        b_(params.elements),
        c_(params.elements) {
    const std::string what = "STREAM (" + describe_ocl_stream(p_) + ")";
    program_ = build_program(dev_.context(), dev_.device(), stream_kernel_source(p_), what);
    cl_checked("setting up " + what + " on " + dev_.info().label(), [&] {
      for (int r = 0; r < p_.replications; ++r) {
        queues_.push_back(dev_.make_queue());
        std::array<cl::Buffer, 3> parts;
        for (cl::Buffer& b : parts) b = cl::Buffer(dev_.context(), CL_MEM_READ_WRITE, per_rep_ * sizeof(T));
        buffers_.push_back(parts);
        if (p_.single_kernel) {
          calc_.emplace_back(program_, kCombinedKernel);
        } else {
          copy_.emplace_back(program_, kCopyKernel);
          scale_.emplace_back(program_, kScaleKernel);
          add_.emplace_back(program_, kAddKernel);
          triad_.emplace_back(program_, kTriadKernel);
        }
      }
      std::uint64_t limit = dev_.info().max_work_group_size;
      const cl::Kernel& any = p_.single_kernel ? calc_.front() : copy_.front();
      limit = std::min<std::uint64_t>(limit, any.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev_.device()));
      work_group_ = stream_work_group_size(p_, limit);
      return 0;
    });
    initialize();
  }

  std::string stores() const override { return ""; }
  std::string variant() const override {
    return std::string(p_.single_kernel ? "combined" : "separate") + " r" + std::to_string(p_.replications) + " v" +
           std::to_string(p_.vector_count) + " b" + std::to_string(p_.buffer_size) + " u" + std::to_string(p_.unroll);
  }

  // PCI write, Copy, Scale, Add, Triad, PCI read, each timed on the host
  // around its blocking completion, the ranks of the node meeting first.
  double run_timed(stream::StreamOp op, NodeSync& node_sync) override {
    double seconds = 0;
    cl_checked(std::string("STREAM ") + std::string(stream::op_spec(op).label) + " on " + dev_.info().label(), [&] {
      if (!stream::op_spec(op).transfer) {
        seconds = run_operation(stream::kernel_of(op), &node_sync);
        return 0;
      }
      node_sync.barrier();
      const Clock::time_point start = Clock::now();
      if (op == stream::StreamOp::PciWrite)
        pci_write();
      else
        pci_read();
      seconds = seconds_since(start);
      return 0;
    });
    return seconds;
  }

  // The host arrays (read back by the last PCI read) judged by the rule of
  // every backend (stream::judge_stream_run), not HPCC_FPGA's machine epsilon.
  stream::StreamValidation validate(int reps, const stream::StreamValidationRule& rule) override {
    const stream::StreamExpected expected = stream::stream_expected_values<T>(reps);
    const stream::StreamErrorSums sums =
        stream::sum_stream_errors<T>(a_.get(), b_.get(), c_.get(), 0, p_.elements, expected);
    return stream::judge_stream_run<T>(sums, p_.elements, reps, rule);
  }

 private:
  // A=1, B=2, C=0 written, the untimed test run (A = 2A) and one untimed
  // pass of the four operations (the first PCI write of the timed
  // repetitions writes the host's arrays again).
  void initialize() {
    const std::string where = " on " + dev_.info().label();
    for (std::uint64_t j = 0; j < p_.elements; ++j) {
      a_.get()[j] = T(1);
      b_.get()[j] = T(2);
      c_.get()[j] = T(0);
    }
    cl_checked("writing STREAM's initial arrays" + where, [&] {
      pci_write();
      return 0;
    });
    cl_checked("STREAM's untimed test run (A = 2A)" + where, [&] {
      test_run();
      return 0;
    });
    cl_checked("STREAM's untimed warm-up of the four operations" + where, [&] {
      for (stream::StreamKernel k : {stream::StreamKernel::Copy, stream::StreamKernel::Scale, stream::StreamKernel::Add,
                                     stream::StreamKernel::Triad})
        run_operation(k, nullptr);
      return 0;
    });
  }

  T* host(Array a) const { return a == Array::A ? a_.get() : a == Array::B ? b_.get() : c_.get(); }
  const cl::Buffer& part(int r, Array a) const { return buffers_[static_cast<std::size_t>(r)][static_cast<std::size_t>(a)]; }

  void pci_write() {
    for (int r = 0; r < p_.replications; ++r)
      for (Array a : {Array::A, Array::B, Array::C})
        queues_[static_cast<std::size_t>(r)].enqueueWriteBuffer(part(r, a), CL_FALSE, 0, per_rep_ * sizeof(T),
                                                                host(a) + static_cast<std::uint64_t>(r) * per_rep_);
    for (cl::CommandQueue& q : queues_) q.finish();
  }

  void pci_read() {
    for (int r = 0; r < p_.replications; ++r)
      for (Array a : {Array::A, Array::B, Array::C})
        queues_[static_cast<std::size_t>(r)].enqueueReadBuffer(part(r, a), CL_FALSE, 0, per_rep_ * sizeof(T),
                                                               host(a) + static_cast<std::uint64_t>(r) * per_rep_);
    for (cl::CommandQueue& q : queues_) q.finish();
  }

  // The combined kernel of replication r set for one operation.
  void set_calc(int r, Array in1, Array in2, Array out, T scalar, bool add) {
    cl::Kernel& k = calc_[static_cast<std::size_t>(r)];
    k.setArg(0, part(r, in1));
    k.setArg(1, part(r, in2));
    k.setArg(2, part(r, out));
    k.setArg(3, scalar);
    k.setArg(4, static_cast<cl_uint>(add ? 1 : 0));
  }

  // The kernel of replication r for `kernel`, its arguments set.
  cl::Kernel& prepared(int r, stream::StreamKernel kernel) {
    const T s = static_cast<T>(stream::kStreamScalar);
    const auto i = static_cast<std::size_t>(r);
    if (p_.single_kernel) {
      switch (kernel) {
        case stream::StreamKernel::Copy: set_calc(r, Array::A, Array::B, Array::C, T(1), false); break;
        case stream::StreamKernel::Scale: set_calc(r, Array::C, Array::A, Array::B, s, false); break;
        case stream::StreamKernel::Add: set_calc(r, Array::A, Array::B, Array::C, T(1), true); break;
        case stream::StreamKernel::Triad: set_calc(r, Array::C, Array::B, Array::A, s, true); break;
      }
      return calc_[i];
    }
    switch (kernel) {
      case stream::StreamKernel::Copy:
        copy_[i].setArg(0, part(r, Array::A));
        copy_[i].setArg(1, part(r, Array::C));
        return copy_[i];
      case stream::StreamKernel::Scale:
        scale_[i].setArg(0, part(r, Array::C));
        scale_[i].setArg(1, part(r, Array::B));
        scale_[i].setArg(2, s);
        return scale_[i];
      case stream::StreamKernel::Add:
        add_[i].setArg(0, part(r, Array::A));
        add_[i].setArg(1, part(r, Array::B));
        add_[i].setArg(2, part(r, Array::C));
        return add_[i];
      case stream::StreamKernel::Triad:
        break;
    }
    triad_[i].setArg(0, part(r, Array::B));
    triad_[i].setArg(1, part(r, Array::C));
    triad_[i].setArg(2, part(r, Array::A));
    triad_[i].setArg(3, s);
    return triad_[i];
  }

  // All replications of one operation behind one user event; returns the
  // seconds from its release to the completion of the last replication.
  // node_sync (timed runs only): the node's ranks release together.
  double run_operation(stream::StreamKernel kernel, NodeSync* node_sync) {
    cl::UserEvent release(dev_.context());
    const std::vector<cl::Event> wait{release};
    std::vector<cl::Event> done(static_cast<std::size_t>(p_.replications));
    const cl::NDRange global(p_.blocks_per_replication() * work_group_), local(work_group_);
    for (int r = 0; r < p_.replications; ++r) {
      cl::CommandQueue& q = queues_[static_cast<std::size_t>(r)];
      q.enqueueNDRangeKernel(prepared(r, kernel), cl::NullRange, global, local, &wait, &done[static_cast<std::size_t>(r)]);
      q.flush();
    }
    if (node_sync) node_sync->barrier();
    const Clock::time_point start = Clock::now();
    release.setStatus(CL_COMPLETE);
    cl::Event::waitForEvents(done);
    const double seconds = seconds_since(start);
    for (const cl::Event& e : done) {
      const cl_int status = e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
      if (status < 0)
        throw RuntimeFailure(std::string("a STREAM kernel failed on the device: ") + cl_error_name(status) + " (" +
                             std::to_string(status) + ")");
    }
    return seconds;
  }

  // STREAM 5.10's timing-granularity pass, as HPCC_FPGA runs it on the
  // device: A = 2A, through C (C = 2A, then A = C) so that no kernel reads
  // and writes one buffer; the host keeps the doubled A (B and C are
  // written again at the first PCI write).
  void test_run() {
    const cl::NDRange global(p_.blocks_per_replication() * work_group_), local(work_group_);
    for (int r = 0; r < p_.replications; ++r) {
      cl::CommandQueue& q = queues_[static_cast<std::size_t>(r)];
      const auto i = static_cast<std::size_t>(r);
      if (p_.single_kernel) {
        set_calc(r, Array::A, Array::B, Array::C, T(2), false);
        q.enqueueNDRangeKernel(calc_[i], cl::NullRange, global, local);
        set_calc(r, Array::C, Array::B, Array::A, T(1), false);
        q.enqueueNDRangeKernel(calc_[i], cl::NullRange, global, local);
      } else {
        scale_[i].setArg(0, part(r, Array::A));
        scale_[i].setArg(1, part(r, Array::C));
        scale_[i].setArg(2, T(2));
        q.enqueueNDRangeKernel(scale_[i], cl::NullRange, global, local);
        copy_[i].setArg(0, part(r, Array::C));
        copy_[i].setArg(1, part(r, Array::A));
        q.enqueueNDRangeKernel(copy_[i], cl::NullRange, global, local);
      }
      q.enqueueReadBuffer(part(r, Array::A), CL_FALSE, 0, per_rep_ * sizeof(T),
                          a_.get() + static_cast<std::uint64_t>(r) * per_rep_);
    }
    for (cl::CommandQueue& q : queues_) q.finish();
  }

  std::shared_ptr<OclDevice> owner_;
  const OclClDevice& dev_;
  OclStreamParams p_;
  std::uint64_t per_rep_;
  HostArray<T> a_, b_, c_;
  cl::Program program_;
  std::vector<cl::CommandQueue> queues_;
  std::vector<std::array<cl::Buffer, 3>> buffers_;
  std::vector<cl::Kernel> calc_, copy_, scale_, add_, triad_;
  std::uint64_t work_group_ = 1;
};

}  // namespace

std::unique_ptr<stream::StreamDeviceArrays> make_ocl_stream_arrays(std::shared_ptr<OclDevice> device,
                                                                   const OclStreamParams& params) {
  if (params.type == stream::StreamType::Double) return std::make_unique<StreamRunner<double>>(std::move(device), params);
  return std::make_unique<StreamRunner<float>>(std::move(device), params);
}

}  // namespace bws::ocl
