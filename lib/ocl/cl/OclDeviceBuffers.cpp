// b_eff's PCIe path on OpenCL: four buffers on the device --ocl.platform
// and --ocl.device choose for this rank, copied with blocking
// clEnqueueReadBuffer / clEnqueueWriteBuffer on one in-order queue.
#include <algorithm>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "ocl/OclSelection.hpp"
#include "ocl/cl/OclCl.hpp"

namespace bws::ocl {
namespace {

constexpr const char* kPathFlag = "--beff.path device";
constexpr double kMemoryFraction = 0.40;  // the ranks sharing a device within 40% of its memory

class OclMessageBuffers final : public DeviceBuffers {
 public:
  OclMessageBuffers(const OclDeviceInfo& info, const DeviceBuffersRequest& request)
      : device_(info), capacity_(std::max<std::uint64_t>(request.bytes_each, 1)) {
    cl_checked("allocating b_eff's device buffers on " + info.label(), [&] {
      queue_ = device_.make_queue();
      const std::vector<std::byte> zeros(capacity_, std::byte{0});
      for (int i = 0; i < request.buffers; ++i) {
        buffers_.emplace_back(device_.context(), CL_MEM_READ_WRITE, capacity_);
        queue_.enqueueWriteBuffer(buffers_.back(), CL_TRUE, 0, capacity_, zeros.data());
      }
      return 0;
    });
  }
  std::string device_name() const override { return device_.info().label(); }
  std::uint64_t capacity_bytes() const override { return capacity_; }
  void read(int index, std::byte* host, std::uint64_t bytes) override {
    cl_checked("reading a b_eff message from the device", [&] {
      queue_.enqueueReadBuffer(buffers_.at(static_cast<std::size_t>(index)), CL_TRUE, 0, bytes, host);
      return 0;
    });
  }
  void write(int index, const std::byte* host, std::uint64_t bytes) override {
    cl_checked("writing a b_eff message to the device", [&] {
      queue_.enqueueWriteBuffer(buffers_.at(static_cast<std::size_t>(index)), CL_TRUE, 0, bytes, host);
      return 0;
    });
  }

 private:
  OclClDevice device_;
  std::uint64_t capacity_;
  cl::CommandQueue queue_;
  std::vector<cl::Buffer> buffers_;
};

class OclBuffersProvider final : public DeviceBuffersProvider {
 public:
  std::string check(const Config& config, const DeviceBuffersRequest& request) const override {
    return choose(config, request).device.label();
  }
  std::unique_ptr<DeviceBuffers> open(const Config& config, const DeviceBuffersRequest& request) const override {
    return std::make_unique<OclMessageBuffers>(choose(config, request).device, request);
  }

 private:
  static OclChoice choose(const Config& config, const DeviceBuffersRequest& request) {
    const OclChoice choice =
        choose_device(ocl_platforms(kPathFlag), config, request.local_rank, request.ranks_on_node);
    const OclDeviceInfo& d = choice.device;
    if (d.max_allocation_bytes > 0 && request.bytes_each > d.max_allocation_bytes)
      throw UsageError("--beff.max-bytes: messages of " + format_bytes(static_cast<double>(request.bytes_each)) +
                       " exceed the largest buffer of " + d.label() + " (" +
                       format_bytes(static_cast<double>(d.max_allocation_bytes)) + ") on the device path; allowed: " +
                       "at most that");
    const double need = static_cast<double>(request.buffers) * static_cast<double>(request.bytes_each) *
                        choice.ranks_on_device;
    if (d.global_memory_bytes > 0 && need > kMemoryFraction * static_cast<double>(d.global_memory_bytes))
      throw UsageError("--beff.max-bytes: " + std::to_string(request.buffers) + " device buffers of " +
                       format_bytes(static_cast<double>(request.bytes_each)) + " for " +
                       std::to_string(choice.ranks_on_device) + " ranks exceed 40% of " + d.label() + "'s " +
                       format_bytes(static_cast<double>(d.global_memory_bytes)) + "; allowed: smaller messages");
    return choice;
  }
};

}  // namespace

std::shared_ptr<const DeviceBuffersProvider> ocl_device_buffers_provider() {
  static const auto provider = std::make_shared<const OclBuffersProvider>();
  return provider;
}

}  // namespace bws::ocl
