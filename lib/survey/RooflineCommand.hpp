#pragma once
// `bwreport roofline`: what can a kernel reach on these nodes? From a
// kernel's counts (--adds --muls --loads --stores --word-bytes) or its
// --ai, against given ceilings (--peak-flops --bandwidth: the theoretical
// ones of a data sheet, say) and/or the measured ones of a survey file
// (/roofline/nodes: per node the FMA peak and GEMM against STREAM Triad).
#include <iosfwd>
#include <string>
#include <vector>

namespace bws::survey {

// args: what follows "bwreport roofline". Prints to out, errors to err as
// one line; returns the exit code (0, 1 runtime failure, 2 usage error).
int roofline_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace bws::survey
