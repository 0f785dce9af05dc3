// bwreport: offline analysis of survey files (no MPI needed). This version
// has `summary FILE` (the terminal summary again, from the file alone),
// `roofline` (lib/survey/RooflineCommand) and `plot` (lib/survey/PlotCommand).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "survey/FileSummary.hpp"
#include "survey/PlotCommand.hpp"
#include "survey/RooflineCommand.hpp"

namespace {
const char* const kUsage =
    "Usage: bwreport summary FILE | roofline ... | plot FILE... -o DIR\n"
    "  summary FILE   print the survey's terminal summary again, read from its HDF5 file\n"
    "  roofline ...   a kernel's attainable FLOP/s against given and measured ceilings (bwreport roofline --help)\n"
    "  plot FILE... -o DIR   PNGs and index.html of the survey (bwreport plot --help)\n";
}

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << kUsage;
    return bws::kExitOk;
  }
  const std::vector<std::string> rest(argv + std::min(argc, 2), argv + argc);
  if (argc >= 2 && std::string(argv[1]) == "roofline") return bws::survey::roofline_command(rest, std::cout, std::cerr);
  if (argc >= 2 && std::string(argv[1]) == "plot") return bws::survey::plot_command(rest, std::cout, std::cerr);
  if (argc != 3 || std::string(argv[1]) != "summary") {
    std::cerr << "bwreport: error: expected 'summary FILE'; see bwreport --help" << std::endl;
    return bws::kExitUsage;
  }
  try {
    for (const std::string& line : bws::survey::summarize_file(argv[2])) std::cout << line << "\n";
    return bws::kExitOk;
  } catch (const bws::UsageError& e) {
    std::cerr << "bwreport: error: " << e.what() << std::endl;
    return bws::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "bwreport: error: " << e.what() << std::endl;
    return bws::kExitFailure;
  }
}
