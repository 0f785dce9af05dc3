#pragma once
// What this binary is and how it was built: the version, the commit, the
// build type and the build options (BWS_NATIVE, BWS_TEST_HOOKS,
// BWS_SANITIZE), whether OpenCL and OpenBLAS are compiled in, the compiler.
// The values come from CMake (lib/core/BuildInfo.cpp.in, configured into
// the build tree), so only that one file recompiles when they change.
#include <string_view>

namespace bws {

struct BuildInfo {
  std::string_view version;      // project(VERSION), e.g. "0.1.0"
  std::string_view git_commit;   // git rev-parse --short=12 HEAD at configure time, or "unknown"
  std::string_view build_type;   // CMAKE_BUILD_TYPE: Release, Debug, ...
  bool native = false;           // BWS_NATIVE: -march=native
  bool test_hooks = false;       // BWS_TEST_HOOKS: the environment test hooks are compiled in
  bool sanitize = false;         // BWS_SANITIZE: AddressSanitizer and UBSan
  bool opencl = false;           // the ocl backend is compiled in
  bool openblas = false;         // the roofline's DGEMM/SGEMM use OpenBLAS
  std::string_view compiler;     // "GNU 12.2.0"
};

const BuildInfo& build_info();

}  // namespace bws
