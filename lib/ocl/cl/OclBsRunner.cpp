// BS1-BS7 on an OpenCL device: the CPU backend's definitions, inputs, byte
// counts and validation (lib/bs), with the paper's host-side timing around
// blocking calls: each timed run is the enqueue of the test's kernel(s)
// and the wait for them (clFinish), and for a reduction the second kernel
// and the blocking read of its one result.
#include <algorithm>
#include <chrono>

#include "bs/BsKernels.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsTeamJobs.hpp"
#include "core/Errors.hpp"
#include "ocl/OclBsKernels.hpp"
#include "ocl/cl/OclCl.hpp"

namespace bws::ocl {
namespace {

using Clock = std::chrono::steady_clock;
using bs::BsTest;

bool reduces(BsTest t) { return t == BsTest::Norm || t == BsTest::Dot || t == BsTest::CgUpdate; }

std::uint64_t round_up(std::uint64_t x, std::uint64_t to) { return (x + to - 1) / to * to; }

// A mesh and its CSR on the device, for one size of BS6/BS7.
struct DeviceMesh {
  std::uint64_t local_nodes = 0, global_nodes = 0, blocks = 0;
  cl::Buffer block_starts, row_starts, local_ids, scatter_ids, x_L, x_G;
};

class BsRunner final : public OclBsRunner {
 public:
  BsRunner(std::shared_ptr<OclDevice> device, std::uint64_t max_entries, int arrays)
      : owner_(std::move(device)),
        dev_(static_cast<const OclClDevice&>(*owner_)),
        max_entries_(max_entries),
        arrays_(std::clamp(arrays, 1, 4)) {
    const std::string where = " on " + dev_.info().label();
    block_ = bs_block_size(dev_.info().max_work_group_size);
    build();
    cl_checked("allocating BS1-BS5's device buffers" + where, [&] {
      queue_ = dev_.make_queue();
      const std::uint64_t bytes = std::max<std::uint64_t>(max_entries_, 1) * sizeof(double);
      for (int k = 0; k < arrays_; ++k)
        vectors_[static_cast<std::size_t>(k)] = cl::Buffer(dev_.context(), CL_MEM_READ_WRITE, bytes);
      partial_ = cl::Buffer(dev_.context(), CL_MEM_READ_WRITE, kBsReductionGroups * sizeof(double));
      result_ = cl::Buffer(dev_.context(), CL_MEM_READ_WRITE, sizeof(double));
      return 0;
    });
  }

  double empty_call_seconds(BsTest test, int reps) override {
    const BsCallShape shape = bs_call_shape(test);
    return cl_checked("timing an empty " + std::string(bs::bs_spec(test).label) + " call on " + dev_.info().label(), [&] {
      double best = 1e30;
      for (int k = 0; k <= reps; ++k) {
        const Clock::time_point start = Clock::now();
        for (int l = 0; l < shape.launches; ++l)
          queue_.enqueueNDRangeKernel(empty_, cl::NullRange, cl::NDRange(1), cl::NullRange);
        if (shape.reads_result) {
          double result = 0;
          queue_.enqueueReadBuffer(result_, CL_TRUE, 0, sizeof(double), &result);
        } else {
          queue_.finish();
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (k > 0) best = std::min(best, seconds);  // the first one builds the kernel on lazy devices
      }
      return best;
    });
  }

  bs::BsPoint vector_point(BsTest test, std::uint64_t n, int reps, NodeSync& node_sync) override {
    check_entries(n, test);
    bs::BsPoint p;
    p.entries = n;
    p.bytes = bs::vector_test_bytes(test, n);
    const std::string what = std::string(bs::bs_spec(test).label) + " at " + std::to_string(n) + " entries on " +
                             dev_.info().label();
    cl_checked("timing " + what, [&] {
      write_inputs(test, n);
      node_sync.barrier();
      run_vector(test, n);  // warm-up
      p.seconds.reserve(static_cast<std::size_t>(reps));
      for (int k = 0; k < reps; ++k) {
        const Clock::time_point start = Clock::now();
        run_vector(test, n);
        p.seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
      }
      return 0;
    });
    const BsVectorOutputs out = vector_once(test, n);
    bs::BsVectorArrays host;
    for (std::size_t k = 0; k < out.arrays.size(); ++k) host.a[k] = const_cast<double*>(out.arrays[k].data());
    p.validation = bs::bs_validate_vectors(test, host, n, out.scalar);
    return p;
  }

  BsVectorOutputs vector_once(BsTest test, std::uint64_t n) override {
    check_entries(n, test);
    return cl_checked("validating " + std::string(bs::bs_spec(test).label) + " on " + dev_.info().label(), [&] {
      write_inputs(test, n);
      BsVectorOutputs out;
      out.scalar = run_vector(test, n);
      out.arrays.resize(static_cast<std::size_t>(bs::bs_spec(test).arrays));
      for (std::size_t k = 0; k < out.arrays.size(); ++k) {
        out.arrays[k].resize(n);
        queue_.enqueueReadBuffer(vectors_[k], CL_TRUE, 0, n * sizeof(double), out.arrays[k].data());
      }
      return out;
    });
  }

  bs::BsPoint mesh_point(BsTest test, const bs::HexMesh& mesh, const bs::GatherCsr& csr, int reps) override {
    const bool gather = test == BsTest::Gather;
    bs::BsPoint p;
    p.entries = mesh.local_nodes;
    p.global_nodes = mesh.global_nodes;
    p.blocks = csr.blocks();
    // The same count as the CPU backend (lib/bs/BsMesh.hpp), masked nodes excluded.
    p.bytes = gather ? bs::gather_bytes(bs::node_counts(mesh)) : bs::scatter_bytes(bs::node_counts(mesh));
    const std::string what = std::string(bs::bs_spec(test).label) + " N=" + std::to_string(mesh.degree) +
                             " K=" + std::to_string(mesh.elements_per_side) + " on " + dev_.info().label();
    cl_checked("timing " + what, [&] {
      DeviceMesh m = upload(mesh, csr);
      if (!gather) run_gather(m);  // x_G holds sums of x_L, as the CPU backend scatters them
      auto run = [&] { gather ? run_gather(m) : run_scatter(m); };
      run();  // warm-up
      p.seconds.reserve(static_cast<std::size_t>(reps));
      for (int k = 0; k < reps; ++k) {
        const Clock::time_point start = Clock::now();
        run();
        p.seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
      }
      p.validation = validate_mesh(test, m, mesh, csr);
      return 0;
    });
    return p;
  }

  BsMeshOutputs gather_scatter_once(const bs::HexMesh& mesh, const bs::GatherCsr& csr) override {
    return cl_checked("gathering and scattering on " + dev_.info().label(), [&] {
      DeviceMesh m = upload(mesh, csr);
      BsMeshOutputs out;
      out.x_G.resize(m.global_nodes);
      out.x_L.resize(m.local_nodes);
      run_gather(m);
      if (!out.x_G.empty()) queue_.enqueueReadBuffer(m.x_G, CL_TRUE, 0, out.x_G.size() * sizeof(double), out.x_G.data());
      run_scatter(m);
      if (!out.x_L.empty()) queue_.enqueueReadBuffer(m.x_L, CL_TRUE, 0, out.x_L.size() * sizeof(double), out.x_L.data());
      return out;
    });
  }

 private:
  void build() {
    const std::string where = " on " + dev_.info().label();
    // The reduction and gather kernels use local memory: a device may allow
    // them smaller groups than its maximum; rebuild for that size.
    for (int attempt = 0; attempt < 2; ++attempt) {
      program_ = build_program(dev_.context(), dev_.device(),
                               bs_kernel_source(block_, static_cast<std::uint64_t>(bs::kMaxBlockNonzeros)), "BS1-BS7");
      const std::uint64_t limit = cl_checked("creating the BS kernels" + where, [&] {
        copy_ = cl::Kernel(program_, kBsCopyKernel);
        axpy_ = cl::Kernel(program_, kBsAxpyKernel);
        norm_ = cl::Kernel(program_, kBsNormKernel);
        dot_ = cl::Kernel(program_, kBsDotKernel);
        cg_ = cl::Kernel(program_, kBsCgKernel);
        finish_ = cl::Kernel(program_, kBsFinishKernel);
        gather_ = cl::Kernel(program_, kBsGatherKernel);
        scatter_ = cl::Kernel(program_, kBsScatterKernel);
        empty_ = cl::Kernel(program_, kBsEmptyKernel);
        std::uint64_t smallest = block_;
        for (const cl::Kernel* k : {&norm_, &dot_, &cg_, &finish_, &gather_})
          smallest = std::min<std::uint64_t>(smallest, k->getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev_.device()));
        return smallest;
      });
      if (limit >= block_) return;
      block_ = bs_block_size(limit);
    }
  }

  void check_entries(std::uint64_t n, BsTest test) const {
    if (bs::bs_spec(test).arrays > arrays_)
      throw RuntimeFailure(std::string("BS on the device: ") + bs::bs_spec(test).label + " needs " +
                           std::to_string(bs::bs_spec(test).arrays) + " arrays; its runner was made for " +
                           std::to_string(arrays_));
    if (n > max_entries_)
      throw RuntimeFailure("BS on the device: " + std::to_string(n) + " entries exceed the " +
                           std::to_string(max_entries_) + " its buffers were made for");
  }

  void write_inputs(BsTest test, std::uint64_t n) {
    std::vector<double> host(n);
    for (int k = 0; k < bs::bs_spec(test).arrays; ++k) {
      for (std::uint64_t i = 0; i < n; ++i) host[i] = bs::bs_input(k, i);
      queue_.enqueueWriteBuffer(vectors_[static_cast<std::size_t>(k)], CL_TRUE, 0, n * sizeof(double), host.data());
    }
  }

  // One call of BS1-BS5, blocking; returns the reduction (0 for BS1, BS2).
  double run_vector(BsTest test, std::uint64_t n) {
    const cl_ulong entries = n;
    const cl::NDRange local(block_);
    if (!reduces(test)) {
      cl::Kernel& k = test == BsTest::Copy ? copy_ : axpy_;
      if (test == BsTest::Copy) {
        k.setArg(0, entries);
        k.setArg(1, vectors_[0]);
        k.setArg(2, vectors_[1]);
      } else {
        k.setArg(0, entries);
        k.setArg(1, bs::kAxpyA);
        k.setArg(2, vectors_[0]);
        k.setArg(3, bs::kAxpyB);
        k.setArg(4, vectors_[1]);
      }
      queue_.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(round_up(std::max<std::uint64_t>(n, 1), block_)), local);
      queue_.finish();
      return 0;
    }
    const std::uint64_t groups = std::clamp<std::uint64_t>((n + block_ - 1) / block_, 1, kBsReductionGroups);
    cl::Kernel& k = test == BsTest::Norm ? norm_ : test == BsTest::Dot ? dot_ : cg_;
    cl_uint arg = 0;
    k.setArg(arg++, entries);
    if (test == BsTest::CgUpdate) k.setArg(arg++, bs::kCgAlpha);
    for (int a = 0; a < bs::bs_spec(test).arrays; ++a) k.setArg(arg++, vectors_[static_cast<std::size_t>(a)]);
    k.setArg(arg, partial_);
    queue_.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * block_), local);
    finish_.setArg(0, static_cast<cl_uint>(groups));
    finish_.setArg(1, partial_);
    finish_.setArg(2, result_);
    queue_.enqueueNDRangeKernel(finish_, cl::NullRange, cl::NDRange(block_), local);
    double sum = 0;
    queue_.enqueueReadBuffer(result_, CL_TRUE, 0, sizeof(double), &sum);
    return sum;
  }

  DeviceMesh upload(const bs::HexMesh& mesh, const bs::GatherCsr& csr) {
    DeviceMesh m;
    m.local_nodes = mesh.local_nodes;
    m.global_nodes = mesh.global_nodes;
    m.blocks = csr.blocks();
    auto buffer_of = [&](const auto& v) {
      const std::size_t bytes = std::max<std::size_t>(v.size() * sizeof(v[0]), 1);
      cl::Buffer b(dev_.context(), CL_MEM_READ_WRITE, bytes);
      if (!v.empty()) queue_.enqueueWriteBuffer(b, CL_TRUE, 0, v.size() * sizeof(v[0]), v.data());
      return b;
    };
    m.block_starts = buffer_of(csr.block_starts);
    m.row_starts = buffer_of(csr.row_starts);
    m.local_ids = buffer_of(csr.local_ids);
    m.scatter_ids = buffer_of(mesh.local_to_global);
    std::vector<double> x_L(m.local_nodes);
    for (std::uint64_t l = 0; l < m.local_nodes; ++l) x_L[l] = bs::bs_local_input(l);
    m.x_L = buffer_of(x_L);
    m.x_G = buffer_of(std::vector<double>(m.global_nodes, 0.0));
    return m;
  }

  void run_gather(DeviceMesh& m) {
    gather_.setArg(0, m.block_starts);
    gather_.setArg(1, m.row_starts);
    gather_.setArg(2, m.local_ids);
    gather_.setArg(3, m.x_L);
    gather_.setArg(4, m.x_G);
    if (m.blocks > 0)
      queue_.enqueueNDRangeKernel(gather_, cl::NullRange, cl::NDRange(m.blocks * block_), cl::NDRange(block_));
    queue_.finish();
  }

  void run_scatter(DeviceMesh& m) {
    scatter_.setArg(0, static_cast<cl_ulong>(m.local_nodes));
    scatter_.setArg(1, m.scatter_ids);
    scatter_.setArg(2, m.x_G);
    scatter_.setArg(3, m.x_L);
    queue_.enqueueNDRangeKernel(scatter_, cl::NullRange,
                                cl::NDRange(round_up(std::max<std::uint64_t>(m.local_nodes, 1), block_)),
                                cl::NDRange(block_));
    queue_.finish();
  }

  void fill(cl::Buffer& b, std::uint64_t count, double value) {
    const std::vector<double> v(count, value);
    if (count > 0) queue_.enqueueWriteBuffer(b, CL_TRUE, 0, count * sizeof(double), v.data());
  }

  // As the CPU backend: gather of ones gives every global node its
  // multiplicity; scatter after that gather gives every local node its
  // global node's multiplicity (masked ones keep -1).
  bs::BsValidation validate_mesh(BsTest test, DeviceMesh& m, const bs::HexMesh& mesh, const bs::GatherCsr& csr) {
    fill(m.x_L, m.local_nodes, 1.0);
    fill(m.x_G, m.global_nodes, -1.0);
    run_gather(m);
    std::vector<double> x_G(m.global_nodes);
    if (!x_G.empty()) queue_.enqueueReadBuffer(m.x_G, CL_TRUE, 0, x_G.size() * sizeof(double), x_G.data());
    bs::BsValidation v =
        bs::bs_check_gather_of_ones(csr.row_starts.data(), x_G.data(), m.global_nodes, bs::multiplicity_histogram(csr));
    if (test == BsTest::Gather) return v;
    if (!v.passed) {
      v.what = "scatter after " + v.what;
      return v;
    }
    fill(m.x_L, m.local_nodes, -1.0);
    run_scatter(m);
    std::vector<double> x_L(m.local_nodes);
    if (!x_L.empty()) queue_.enqueueReadBuffer(m.x_L, CL_TRUE, 0, x_L.size() * sizeof(double), x_L.data());
    return bs::bs_check_scatter_after_gather(mesh.local_to_global.data(), csr.row_starts.data(), x_L.data(),
                                             m.local_nodes);
  }

  std::shared_ptr<OclDevice> owner_;
  const OclClDevice& dev_;
  std::uint64_t max_entries_;
  int arrays_;
  std::uint64_t block_ = kBsBlockSize;
  cl::Program program_;
  cl::CommandQueue queue_;
  cl::Kernel copy_, axpy_, norm_, dot_, cg_, finish_, gather_, scatter_, empty_;
  std::array<cl::Buffer, 4> vectors_;
  cl::Buffer partial_, result_;
};

}  // namespace

std::unique_ptr<OclBsRunner> make_ocl_bs_runner(std::shared_ptr<OclDevice> device, std::uint64_t max_entries,
                                                int arrays) {
  return std::make_unique<BsRunner>(std::move(device), max_entries, arrays);
}

}  // namespace bws::ocl
