#pragma once
// STREAM's ocl backend (stream/StreamDevice.hpp): HPCC_FPGA's device STREAM
// with its PCI write/read rows on the rank's OpenCL device.
#include <memory>

#include "stream/StreamDevice.hpp"

namespace bws::ocl {

std::shared_ptr<const stream::StreamBackend> ocl_stream_backend();

}  // namespace bws::ocl
