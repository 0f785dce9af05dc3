#pragma once
// The boundary between the ocl device library and OpenCL. Everything on this
// side is plain C++ (planning, kernel sources, tables, reports); the
// functions below are implemented in lib/ocl/cl/ with OpenCL-CLHPP when the
// build found OpenCL, and in lib/ocl/absent/ otherwise, where every one of
// them says, as a usage error, that this build has no OpenCL. CMake picks
// the folder; nothing else knows which it was.
//
// Every OpenCL call is checked: a failure is a RuntimeFailure naming the
// call and its error code ("clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES
// (-5)"); a kernel that does not build shows the compiler's log.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bs/BsMesh.hpp"
#include "bs/BsResults.hpp"
#include "bs/BsTypes.hpp"
#include "core/DeviceBuffers.hpp"
#include "core/RunContext.hpp"
#include "ocl/OclDeviceInfo.hpp"
#include "ocl/OclStreamPlan.hpp"
#include "stream/StreamDevice.hpp"

namespace bws::ocl {

// True when this build has OpenCL (lib/ocl/cl/).
bool ocl_compiled_in();

// Every platform and its devices. Without OpenCL: UsageError naming
// `option` ("--tests: 'ocl' needs OpenCL ..."). An ICD loader that finds no
// platform gives an empty list.
std::vector<OclPlatformInfo> ocl_platforms(const std::string& option);

// A device opened for measuring: its context and in-order queue(s).
class OclDevice {
 public:
  virtual ~OclDevice() = default;
  virtual const OclDeviceInfo& info() const = 0;
};
std::shared_ptr<OclDevice> open_ocl_device(const OclDeviceInfo& device);

// Device STREAM (HPCC_FPGA's) of one element type: owns the device buffers
// (one A, B, C per replication) and their host copies; the program is
// built and the arrays initialised (A=1, B=2, C=0 written, the untimed test
// run A = 2A, one untimed pass of the operations) on creation. PCI write
// and read move every replication's three parts; a kernel's time runs from
// the release of all replications (one user event) to the last one's end.
std::unique_ptr<stream::StreamDeviceArrays> make_ocl_stream_arrays(std::shared_ptr<OclDevice> device,
                                                                   const OclStreamParams& params);

// The outputs of one BS1-BS5 call on the inputs bs_input() gives, read back
// (arrays as the test leaves them: index as BsVectorArrays: BS1/BS2/BS4
// x, y; BS3 x; BS5 x, p, r, Ap) and the reduction (0 for BS1, BS2).
struct BsVectorOutputs {
  std::vector<std::vector<double>> arrays;
  double scalar = 0;
};

// x_G after one gather of x_L = bs_local_input(l), and x_L after one
// scatter of that x_G (masked local nodes keep bs_local_input).
struct BsMeshOutputs {
  std::vector<double> x_G, x_L;
};

// BS1-BS7 on the device; `arrays` vector buffers of up to max_entries entries.
class OclBsRunner {
 public:
  virtual ~OclBsRunner() = default;
  // T0 as a device pays one call of `test`: the best of `reps` empty calls
  // of its shape (bs_call_shape: one empty launch and clFinish, or for
  // BS3-BS5 two empty launches and the blocking read of one double), each
  // timed on the host from the first enqueue to the return of the wait.
  virtual double empty_call_seconds(bs::BsTest test, int reps) = 0;
  // One size of BS1-BS5: inputs written, one warm-up and `reps` timed runs
  // (host clock around the enqueue(s) and the blocking wait; reductions
  // include the second kernel and the blocking read of the result),
  // inputs written again, one validated run (bs_validate_vectors).
  virtual bs::BsPoint vector_point(bs::BsTest test, std::uint64_t entries, int reps, NodeSync& node_sync) = 0;
  // One mesh of BS6 or BS7: mesh and CSR uploaded, warm-up and `reps`
  // timed runs, then validated as the CPU backend validates (gather of
  // ones; scatter after gather).
  virtual bs::BsPoint mesh_point(bs::BsTest test, const bs::HexMesh& mesh, const bs::GatherCsr& csr, int reps) = 0;
  // For tests: one call of BS1-BS5 on fresh inputs, read back.
  virtual BsVectorOutputs vector_once(bs::BsTest test, std::uint64_t entries) = 0;
  // For tests: one gather, then one scatter, read back (BsMeshOutputs).
  virtual BsMeshOutputs gather_scatter_once(const bs::HexMesh& mesh, const bs::GatherCsr& csr) = 0;
};
std::unique_ptr<OclBsRunner> make_ocl_bs_runner(std::shared_ptr<OclDevice> device, std::uint64_t max_entries,
                                                int arrays = 4);

// b_eff's PCIe path: device buffers on the device --ocl.platform and
// --ocl.device choose; nullptr in a build without OpenCL.
std::shared_ptr<const DeviceBuffersProvider> ocl_device_buffers_provider();

// "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR" for codes it does not know.
const char* cl_error_name(int code);

}  // namespace bws::ocl
