#include "report/VersionText.hpp"

#include <sstream>

#include "core/BuildInfo.hpp"
#include "roofline/FmaKernels.hpp"
#include "stream/StreamKernels.hpp"

namespace bws::report {
namespace {

const char* on_off(bool on) { return on ? "ON" : "OFF"; }

// Whether this CPU runs STREAM's non-temporal kernels: they were compiled
// for one vector width (-march), which the roofline's CPUID check names.
std::string_view cpu_support(std::string_view stream_isa) {
  using roofline::VectorIsa;
  if (stream_isa == "none") return "no vector kernels";
  const VectorIsa isa = stream_isa == "avx512" ? VectorIsa::Avx512 : stream_isa == "avx" ? VectorIsa::Avx
                                                                                           : VectorIsa::Sse2;
  return roofline::isa_supported(isa) ? "supported" : "NOT supported (rebuild on this node)";
}

}  // namespace

std::string version_text(std::string_view program) {
  const BuildInfo& b = build_info();
  std::ostringstream out;
  out << program << " " << b.version << "\n";
  out << "commit: " << b.git_commit << "\n";
  out << "build type: " << b.build_type << "\n";
  out << "build options: BWS_NATIVE=" << on_off(b.native) << " BWS_TEST_HOOKS=" << on_off(b.test_hooks)
      << " BWS_SANITIZE=" << on_off(b.sanitize) << "\n";
  out << "OpenCL: " << (b.opencl ? "on" : "off") << "\n";
  out << "OpenBLAS: " << (b.openblas ? "on" : "off") << "\n";
  out << "compiler: " << b.compiler << "\n";
  const std::string_view stream_isa = stream::nontemporal_instruction_set();
  out << "STREAM non-temporal kernels: " << stream_isa << " (this CPU: " << cpu_support(stream_isa) << ")\n";
  out << "roofline FMA kernels compiled in:";
  for (roofline::VectorIsa isa : roofline::compiled_isas()) out << " " << roofline::isa_name(isa);
  out << "\n";
  out << "roofline FMA kernel on this CPU: " << roofline::isa_name(roofline::widest_supported_isa()) << "\n";
  out << "\nCopyright (c) 2026 the bwsurvey authors. License: BSD-3-Clause (the LICENSE file).\n";
  return out.str();
}

}  // namespace bws::report
