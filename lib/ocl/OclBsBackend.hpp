#pragma once
// BS1-BS7's ocl backend (bs/BsDevice.hpp): Chalmers & Warburton's kernels on the rank's
// OpenCL device (OclBsKernels), lib/bs's sweep, validation and fit.
#include <memory>

#include "bs/BsDevice.hpp"

namespace bws::ocl {

std::shared_ptr<const bs::BsBackend> ocl_bs_backend();

}  // namespace bws::ocl
